/**
 * A partial match, for a search no job has every word of: the jobs having any of its terms, each
 * scored by how many (above TERM_SHIFT bits) and by their points, so the search can keep the jobs
 * with the most.
 */
import type { SearchIndex } from "./index.ts";
import { FIELD_RANK, HOW, type Term } from "./fields.ts";

/** A partial match's score: its number of terms above TERM_SHIFT bits, its points in SCORE_BITS. */
export const TERM_SHIFT = 10;
export const SCORE_BITS = (1 << TERM_SHIFT) - 1;

/**
 * How many of the newest jobs holding a word a partial match looks at: it offers the newest of
 * the closest jobs, at the same cost with 100 or 100,000 jobs.
 */
const PARTIAL_WINDOW = 2_000;

/**
 * When no job has every term: the live jobs matching any (of each word's PARTIAL_WINDOW newest), each scored by how many terms it
 * has (above TERM_SHIFT bits; a generic term counts half) and their points (a term's weaker
 * words count, scoring least); null without terms. Like `match`, the answer lives in the
 * index's reused arrays.
 */
export function matchMost(
  index: SearchIndex,
  terms: Term[],
  fields: number,
): { docs: Uint32Array; score: Uint16Array } | null {
  if (terms.length === 0) return null;
  const { best, sum, round: count, first, next, score } = index.workArrays();
  const alive = index.alive;
  let kept = 0;
  for (const term of terms) {
    const matches = index.termMatches(term);
    for (const word of term.weaker ?? []) {
      const posting = index.postings.get(word);
      if (posting) matches.push({ posting, how: HOW.typo, word });
    }
    const weight = term.generic ? 1 : 2;
    let touched = 0;
    for (const { posting, how } of matches) {
      const { docs, fields: bits, size } = posting;
      for (let i = size - 1, seen = 0; i >= 0 && seen < PARTIAL_WINDOW; i--) {
        const doc = docs[i];
        const rank = FIELD_RANK[bits[i] & fields];
        if (rank === 0 || alive[doc] === 0) continue;
        seen++;
        const value = rank * 4 + how;
        if (best[doc] === 0) {
          next[touched++] = doc;
          if (count[doc] === 0) first[kept++] = doc;
        }
        if (value > best[doc]) best[doc] = value;
      }
    }
    for (let i = 0; i < touched; i++) {
      const doc = next[i];
      sum[doc] += best[doc];
      best[doc] = 0;
      count[doc] += weight;
    }
  }
  for (let i = 0; i < kept; i++) {
    const doc = first[i];
    score[i] = (count[doc] << TERM_SHIFT) | sum[doc];
    sum[doc] = 0;
    count[doc] = 0;
  }
  return { docs: first.subarray(0, kept), score: score.subarray(0, kept) };
}
