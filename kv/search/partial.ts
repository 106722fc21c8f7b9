/**
 * A partial match, for a search no job has every word of: the jobs having any of its terms, each
 * scored by how many (above TERM_SHIFT bits) and by their points, so the search can keep the jobs
 * with the most.
 */
import type { SearchIndex } from "./index.ts";
import { FIELD_VALUE, fieldsFor, HOW, type Term } from "./fields.ts";
import type { Posting } from "./postings.ts";

/** A partial match's score: its number of terms above TERM_SHIFT bits, its points in SCORE_BITS. */
export const TERM_SHIFT = 10;
export const SCORE_BITS = (1 << TERM_SHIFT) - 1;
/**
 * The most terms a score holds above its points in 16 bits: a query's 30 terms count 60, and its
 * filter words (each once) may add a few more.
 */
const MOST_COUNT = (1 << (16 - TERM_SHIFT)) - 1;

/**
 * How many of the newest jobs holding a word a partial match looks at: it offers the newest of
 * the closest jobs, at the same cost with 100 or 100,000 jobs.
 */
const PARTIAL_WINDOW = 2_000;

/**
 * When no job has every term: the live jobs matching any (of each word's PARTIAL_WINDOW newest),
 * each scored by how many terms it has and of the `counted` filter words' tests it passes (above
 * TERM_SHIFT bits; a generic term and a filter word count half) and their points (a term's weaker
 * words count, scoring least); null without terms. A filter word only ranks the jobs the terms
 * found: it says who seeks (`senior`, `fresher`), not what, so a senior pilot's search shows no
 * senior job of another trade. Like `match`, the answer lives in the index's reused arrays.
 */
export function matchMost(
  index: SearchIndex,
  terms: Term[],
  fields: number,
  counted: ((doc: number) => boolean)[],
): { docs: Uint32Array; score: Uint16Array } | null {
  if (terms.length === 0) return null;
  const { best, sum, round: count, first, next, score } = index.workArrays();
  const alive = index.alive;
  let kept = 0;
  for (const term of terms) {
    const matches = index.termMatches(term);
    // A weaker word stands for the role only in a role (a description's "training program" is no
    // programmer).
    for (const word of term.weaker ?? []) {
      const posting = index.postings.get(word);
      if (posting) matches.push({ posting, how: HOW.typo, word, roleOnly: true });
    }
    let touched = 0;
    for (const match of matches) {
      const where = fieldsFor(match, fields);
      touched = markRecent(match.posting, match.how, where, alive, best, next, touched);
    }
    kept = countTerm(next, touched, term.generic ? 1 : 2, best, sum, count, first, kept);
  }
  // A filter word narrows rather than names what is sought: it counts as a generic term does.
  for (const passes of counted) countPassing(first.subarray(0, kept), passes, count);
  for (let i = 0; i < kept; i++) {
    const doc = first[i];
    score[i] = (Math.min(count[doc], MOST_COUNT) << TERM_SHIFT) | sum[doc];
    sum[doc] = 0;
    count[doc] = 0;
  }
  return { docs: first.subarray(0, kept), score: score.subarray(0, kept) };
}

/**
 * One word of a term: each of its PARTIAL_WINDOW newest live holders (in `fields`) gets its best
 * score of the term in `best`, and the first time a place in `into` after the `touched` there.
 * The loops of a partial match are functions of their own: inside `matchMost`, which runs only
 * for searches no job has every word of, V8 compiled each loop on the stack and left that code,
 * throwing it away, at the loop's end, every time.
 */
function markRecent(
  posting: Posting,
  how: number,
  fields: number,
  alive: Uint8Array,
  best: Uint8Array,
  into: Uint32Array,
  touched: number,
): number {
  const { docs, fields: bits, size } = posting;
  for (let i = size - 1, seen = 0; i >= 0 && seen < PARTIAL_WINDOW; i--) {
    const doc = docs[i];
    const worth = FIELD_VALUE[bits[i] & fields];
    if (worth === 0 || alive[doc] === 0) continue;
    seen++;
    const value = worth + how;
    if (best[doc] === 0) into[touched++] = doc;
    if (value > best[doc]) best[doc] = value;
  }
  return touched;
}

/**
 * After a term: each job it touched adds its best score to its sum and `weight` to its count of
 * terms; a job no earlier term had counted gets a place in `first` after the `kept` there.
 */
function countTerm(
  touchedDocs: Uint32Array,
  touched: number,
  weight: number,
  best: Uint8Array,
  sum: Uint16Array,
  count: Uint8Array,
  first: Uint32Array,
  kept: number,
): number {
  for (let i = 0; i < touched; i++) {
    const doc = touchedDocs[i];
    if (count[doc] === 0) first[kept++] = doc;
    sum[doc] += best[doc];
    best[doc] = 0;
    count[doc] += weight;
  }
  return kept;
}

/** A filter word of a partial match: each of `docs` passing its test adds 1 to its count of terms. */
function countPassing(
  docs: Uint32Array,
  passes: (doc: number) => boolean,
  count: Uint8Array,
): void {
  for (let i = 0; i < docs.length; i++) if (passes(docs[i])) count[docs[i]] += 1;
}
