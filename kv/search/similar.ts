/**
 * Jobs like a job, for its page's "similar jobs": scored by shared role and skill words among the
 * newest holders of each word only, so a job page costs the same at any catalogue size.
 */
import type { SearchIndex } from "./index.ts";
import { FIELD } from "./fields.ts";
import { leastOfBest, topK } from "./top.ts";
import { indexWords } from "./text.ts";

/** How many of the newest holders of a role or skill word Similar Jobs looks at, whatever the total. */
const SIMILAR_WINDOW = 600;

/**
 * Jobs like `job`: same role first (10), then shared role words (2 each) and skill words (1 each),
 * newest first among equals. Only the newest holders of each word are scored, so a job page costs
 * the same with 100 or 100,000 jobs.
 */
export function similarJobs(
  index: SearchIndex,
  job: { id: string; role: string; skills: string[] },
  limit: number,
): string[] {
  const role = index.roleCode.get(job.role);
  const { docs, score } = index.credit(
    [
      {
        posting: role === undefined ? undefined : index.roleDocs[role],
        field: FIELD.role,
        points: 10,
      },
      ...Array.from(indexWords(job.role), (word) => ({
        posting: index.postings.get(word),
        field: FIELD.role,
        points: 2,
      })),
      ...Array.from(indexWords(job.skills.join("\n")), (word) => ({
        posting: index.postings.get(word),
        field: FIELD.skills,
        points: 1,
      })),
    ],
    SIMILAR_WINDOW,
    index.numberOf.get(job.id) ?? -1,
  );
  // Only jobs scoring at least the `limit`-th best score can be shown: only they are ranked.
  let best = 0;
  for (let i = 0; i < score.length; i++) if (score[i] > best) best = score[i];
  const scoreCounts = new Uint32Array(best + 1);
  for (let i = 0; i < score.length; i++) scoreCounts[score[i]]++;
  const least = leastOfBest(scoreCounts, limit);
  const contenders: number[] = [];
  for (let i = 0; i < score.length; i++) if (score[i] >= least) contenders.push(i);
  const { posted, ids } = index;
  return topK(contenders, limit, (a, b) => {
    const x = docs[a];
    const y = docs[b];
    return score[a] > score[b] ||
      (score[a] === score[b] &&
        (posted[x] > posted[y] || (posted[x] === posted[y] && ids[x] > ids[y])));
  }).map((at) => ids[docs[at]]);
}
