/**
 * The loops of the index's matching (`SearchIndex.match` and `located` in index.ts): each marks or
 * keeps the jobs a word holds, over the index's reused per-job arrays. Each is a function of its
 * own that ends with its loop (decision 041): V8 compiles a long loop while it runs, and code after
 * it inside a larger function had no type feedback when it first ran.
 */
import type { Posting } from "./postings.ts";
import { FIELD_VALUE } from "./fields.ts";

/**
 * One word of a query: each live job a match of it holds in `fields`, among those every earlier
 * word found (marked `round`; all jobs are marked 0 before the first word), gets its best score of
 * the word in `best` and, the first time, a place in `into` after the `count` already there.
 * Returns how many `into` holds. The hot loop of `match` is a function of its own, so V8 optimises
 * it on what it has seen: inside `match`, a query of one word left the later words' loop without
 * type feedback, and the next query of two threw the whole of `match` out of optimised code.
 */
export function markWord(
  posting: Posting,
  how: number,
  fields: number,
  round: number,
  roundOf: Uint8Array,
  alive: Uint8Array,
  within: Uint8Array,
  best: Uint8Array,
  into: Uint32Array,
  count: number,
): number {
  const { docs, fields: bits, size } = posting;
  for (let i = 0; i < size; i++) {
    const doc = docs[i];
    if (roundOf[doc] !== round || alive[doc] === 0 || within[doc] === 0) continue;
    const worth = FIELD_VALUE[bits[i] & fields];
    if (worth === 0) continue;
    const value = worth + how;
    const was = best[doc];
    if (was === 0) into[count++] = doc;
    if (value > was) best[doc] = value;
  }
  return count;
}

/**
 * The first word of a query, found through one posting (most are): its live jobs in `within` that
 * hold it in `fields` go to `into` with their score beside them in `scores`, in one pass. When more
 * words follow (`marks`), each is also given its score as its sum and marked as found by one word
 * (`markWord` and `settle` take two passes, and keep a best score one posting never needs).
 */
export function markFirst(
  posting: Posting,
  how: number,
  fields: number,
  alive: Uint8Array,
  within: Uint8Array,
  into: Uint32Array,
  scores: Uint16Array,
  marks: { sum: Uint16Array; roundOf: Uint8Array } | null,
): number {
  const { docs, fields: bits, size } = posting;
  const { sum, roundOf } = marks ?? {};
  let count = 0;
  for (let i = 0; i < size; i++) {
    const doc = docs[i];
    if (alive[doc] === 0 || within[doc] === 0) continue;
    const worth = FIELD_VALUE[bits[i] & fields];
    if (worth === 0) continue;
    const score = worth + how;
    into[count] = doc;
    scores[count++] = score;
    if (sum && roundOf) {
      sum[doc] = score;
      roundOf[doc] = 1;
    }
  }
  return count;
}

/**
 * The last word of a query, found through one posting: the jobs every earlier word found (marked
 * `round`) that hold it go to `into` with their whole score in `scores`, in one pass.
 */
export function markLast(
  posting: Posting,
  how: number,
  fields: number,
  round: number,
  roundOf: Uint8Array,
  sum: Uint16Array,
  into: Uint32Array,
  scores: Uint16Array,
): number {
  const { docs, fields: bits, size } = posting;
  let count = 0;
  for (let i = 0; i < size; i++) {
    const doc = docs[i];
    if (roundOf[doc] !== round) continue;
    const worth = FIELD_VALUE[bits[i] & fields];
    if (worth === 0) continue;
    into[count] = doc;
    scores[count++] = sum[doc] + worth + how;
  }
  return count;
}

/**
 * The last word of a query, found through one broad posting (`fieldsOf`, by job number): each of
 * the first `count` jobs of `held` (every earlier word found them) that holds it goes to `into`
 * with its whole score in `scores`, in one pass over the jobs still in. The earlier words' score of
 * a job is its `sum`, or without sums the score beside it in `scores`. `into` may be `held`.
 */
export function keepHolders(
  held: Uint32Array,
  count: number,
  fieldsOf: Uint8Array,
  how: number,
  fields: number,
  sum: Uint16Array | null,
  into: Uint32Array,
  scores: Uint16Array,
): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const doc = held[i];
    const worth = FIELD_VALUE[fieldsOf[doc] & fields];
    if (worth === 0) continue;
    const before = sum ? sum[doc] : scores[i];
    into[kept] = doc;
    scores[kept++] = before + worth + how;
  }
  return kept;
}

/**
 * Each of the first `count` jobs of `docs` takes its best score of the word (`markWord`) into
 * `scores` beside it, and `best` is zeroed again: one pass where `settle` sums and marks rounds
 * that a query of two words, its last looked up by job number (`keepHolders`), never reads.
 */
export function takeBest(
  docs: Uint32Array,
  count: number,
  best: Uint8Array,
  scores: Uint16Array,
): void {
  for (let i = 0; i < count; i++) {
    const doc = docs[i];
    scores[i] = best[doc];
    best[doc] = 0;
  }
}

/**
 * Marks with `g + 1` the jobs holding `posting`'s word in `field` that every earlier group found
 * (marked `g` in `hits`).
 */
export function markGroup(posting: Posting, field: number, hits: Uint8Array, g: number): void {
  const { docs, fields, size } = posting;
  for (let i = 0; i < size; i++) {
    if (fields[i] & field && hits[docs[i]] === g) hits[docs[i]] = g + 1;
  }
}

/** Leaves 1 for the jobs marked `wanted` (found by every group) and 0 for the others. */
export function keepMarked(hits: Uint8Array, wanted: number): void {
  for (let doc = 0; doc < hits.length; doc++) hits[doc] = hits[doc] === wanted ? 1 : 0;
}

/**
 * The jobs below `span` both `mask` and `alive` mark, ascending, into `into`; returns how many.
 */
export function markedLive(
  mask: Uint8Array,
  alive: Uint8Array,
  span: number,
  into: Uint32Array,
): number {
  let count = 0;
  for (let doc = 0; doc < span; doc++) {
    if (mask[doc] !== 0 && alive[doc] !== 0) into[count++] = doc;
  }
  return count;
}

/**
 * Each job's summed score, in `into` beside its place in `docs`.
 */
export function scoresOf(
  docs: Uint32Array,
  sum: Uint16Array,
  into: Uint16Array<ArrayBuffer>,
): Uint16Array<ArrayBuffer> {
  const score = into.subarray(0, docs.length);
  for (let i = 0; i < docs.length; i++) score[i] = sum[docs[i]];
  return score;
}

/**
 * After a word: each of the first `count` jobs of `docs` adds its best score of the word to its sum
 * and is marked with `round` (the words that found it so far); `clear` zeroes its sum instead, as
 * a query ends.
 */
export function settle(
  docs: Uint32Array,
  count: number,
  round: number,
  best: Uint8Array,
  sum: Uint16Array,
  roundOf: Uint8Array,
  clear = false,
): void {
  for (let i = 0; i < count; i++) {
    const doc = docs[i];
    sum[doc] = clear ? 0 : sum[doc] + best[doc];
    best[doc] = 0;
    roundOf[doc] = round;
  }
}

/** Leaves marked in `into` only the jobs `mask` marks too, and returns `into`. */
export function keepBoth(into: Uint8Array, mask: Uint8Array): Uint8Array {
  for (let doc = 0; doc < into.length; doc++) into[doc] &= mask[doc];
  return into;
}
