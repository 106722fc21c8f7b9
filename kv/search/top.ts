/**
 * The first `k` of many items in order, without sorting them all: a page of a broad search needs
 * its best dozen, not 30,000 ranked.
 */

/**
 * The lowest score the best `wanted` items reach, from how many items have each score
 * (`counts[score]`): only items scoring at least this can be among them.
 */
export function leastOfBest(counts: ArrayLike<number>, wanted: number): number {
  let least = counts.length - 1;
  for (let kept = counts[least]; kept < wanted && least > 0; kept += counts[least]) least--;
  return least;
}

/** The best `k` of `items`, best first; `before(a, b)` is true when a ranks above b. */
export function topK(
  items: ArrayLike<number>,
  k: number,
  before: (a: number, b: number) => boolean,
): number[] {
  return topOf(items.length, (index) => items[index], k, before);
}

/** The best `k` of the `count` items `at(0)` .. `at(count - 1)`, best first. */
export function topOf(
  count: number,
  at: (index: number) => number,
  k: number,
  before: (a: number, b: number) => boolean,
): number[] {
  if (k <= 0) return [];
  // A heap whose root is the worst of the best so far.
  const heap: number[] = [];
  const worse = (i: number, j: number) => before(heap[j], heap[i]);
  const swap = (i: number, j: number) => {
    const item = heap[i];
    heap[i] = heap[j];
    heap[j] = item;
  };
  // Last to first: jobs are numbered oldest first, so newer ones come early and most older ones
  // are turned away by one comparison with the root.
  for (let index = count - 1; index >= 0; index--) {
    const item = at(index);
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (before(item, heap[0])) {
      heap[0] = item;
      for (let i = 0;;) {
        const left = i * 2 + 1;
        const right = left + 1;
        let worst = i;
        if (left < heap.length && worse(left, worst)) worst = left;
        if (right < heap.length && worse(right, worst)) worst = right;
        if (worst === i) break;
        swap(i, worst);
        i = worst;
      }
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}
