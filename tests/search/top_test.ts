/** The best k of many items, best first: the same as sorting them all and taking the first k. */
import assert from "node:assert/strict";
import { topK } from "../../kv/search/top.ts";

/** Higher score first; equal scores newest (highest number) first, as the job list ranks. */
function ranker(scores: number[]) {
  return (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && a > b);
}

Deno.test("topK equals a full sort's first k, for every k and with many ties", () => {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const count of [0, 1, 2, 13, 100, 1000]) {
    const scores = Array.from({ length: count }, () => Math.floor(random() * 10));
    const items = Array.from({ length: count }, (_, index) => index);
    const before = ranker(scores);
    const sorted = items.toSorted((a, b) => (before(a, b) ? -1 : 1));
    for (const k of [0, 1, 3, 12, count, count + 5]) {
      assert.deepEqual(topK(items, k, before), sorted.slice(0, Math.max(k, 0)), `${count}, ${k}`);
    }
  }
});

Deno.test("topK of a typed array: the best first, nothing when k is 0 or less", () => {
  const scores = [5, 9, 1, 9, 3];
  const items = Uint32Array.from([0, 1, 2, 3, 4]);
  assert.deepEqual(topK(items, 3, ranker(scores)), [3, 1, 0]);
  assert.deepEqual(topK(items, 0, ranker(scores)), []);
  assert.deepEqual(topK(items, -1, ranker(scores)), []);
});
