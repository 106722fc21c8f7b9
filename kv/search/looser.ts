/**
 * A looser search for an empty result: the same search without one of its filters or one of its
 * keyword box's pieces (a word, a phrase such as `front end`, a filter word, a place), keeping the
 * most of its words to find and then finding the most jobs, so the empty page can offer it as a
 * link: always a whole query.
 */
import type { SearchIndex } from "./index.ts";
import { parseKeywords } from "./query.ts";
import { type JobSearch, searchJobs } from "./search.ts";

export type Loosenable = Omit<JobSearch, "order" | "offset" | "limit">;

/**
 * The loosened search keeping the most words, then finding the most jobs, and how many; null
 * when none finds any.
 */
export function looserSearch(
  index: SearchIndex,
  search: Loosenable,
): { search: Loosenable; total: number } | null {
  const tries: Loosenable[] = [];
  const fields = [
    "role",
    "category",
    "workMode",
    "experience",
    "employmentType",
    "company",
    "payMin",
    "postedWithin",
    "location",
  ] as const;
  for (const field of fields) {
    if (search[field] !== undefined) tries.push({ ...search, [field]: undefined });
  }
  const pieces = search.keywords ? parseKeywords(search.keywords).pieces : [];
  if (pieces.length <= 1) tries.push({ ...search, keywords: undefined });
  else {
    pieces.forEach((_, i) =>
      tries.push({ ...search, keywords: pieces.filter((__, j) => j !== i).join(" ") })
    );
  }
  // A bare figure is a word to find (a batch, a version, a PIN code), but one no job has may be
  // the pay meant (`25000`): offered as pay, in words the link says (`salary 25000`).
  pieces.forEach((piece, i) => {
    if (!/^\d+$/.test(piece) || !parseKeywords(`salary ${piece}`).payMin) return;
    const asPay = pieces.map((other, j) => j === i ? `salary ${piece}` : other);
    tries.push({ ...search, keywords: asPay.join(" ") });
  });
  let best: { search: Loosenable; total: number } | null = null;
  // A search left with nothing is Clear All Filters, which the empty page already offers.
  const narrowing = (loose: Loosenable) =>
    fields.some((field) => loose[field] !== undefined) || Boolean(loose.keywords);
  // The words that name what is sought are kept before places and filter words: `remote nurse`
  // offers the nurse's job rather than every remote one.
  const wordsOf = (loose: Loosenable) => parseKeywords(loose.keywords).terms.length;
  let bestWords = -1;
  for (const loose of tries.filter(narrowing)) {
    const { total } = searchJobs(index, { ...loose, order: "newest", offset: 0, limit: 0 });
    const words = wordsOf(loose);
    if (total > 0 && (words > bestWords || (words === bestWords && total > best!.total))) {
      best = { search: loose, total };
      bestWords = words;
    }
  }
  return best;
}
