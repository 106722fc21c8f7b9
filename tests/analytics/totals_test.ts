/**
 * A job's running view and click totals as the public pages read them: remembered while no count
 * changed, read again the moment one did, in this process or another.
 */
import assert from "node:assert/strict";
import { JobStore } from "../../kv/jobs/store.ts";
import { keys } from "../../kv/keys.ts";

/** What another process's flush writes: counters and the write counter, in one atomic write. */
async function count(kv: Deno.Kv, views: Record<string, number>) {
  const op = kv.atomic().sum(keys.analyticsWrites(), 1n);
  for (const [id, amount] of Object.entries(views)) {
    op.sum(keys.jobCounter(id, "views"), BigInt(amount));
  }
  assert.ok((await op.commit()).ok);
}

const views = async (store: JobStore, ids: string[]) =>
  Object.fromEntries([...(await store.analyticsOf(ids))].map(([id, { views }]) => [id, views]));

Deno.test("job totals follow every count: a known total is read again once any count changed", async () => {
  using kv = await Deno.openKv(":memory:");
  const store = new JobStore(kv);
  await count(kv, { a: 1, b: 1 });
  assert.deepEqual(await views(store, ["b"]), { b: 1 });
  await count(kv, { a: 2, b: 5 });
  // `a` is read beside the write counter; `b`, known from before that count, is read again.
  assert.deepEqual(await views(store, ["a", "b"]), { a: 3, b: 6 });
  assert.deepEqual(await views(store, ["b", "a"]), { b: 6, a: 3 });
  await count(kv, { b: 1 });
  assert.deepEqual(await views(store, ["b"]), { b: 7 });
  assert.deepEqual(await views(store, ["c", "b"]), { c: 0, b: 7 });
  const many = Array.from({ length: 12 }, (_, i) => `job-${i}`);
  await count(kv, Object.fromEntries(many.map((id, i) => [id, i])));
  assert.deepEqual(
    await views(store, [...many, "b"]),
    Object.fromEntries([...many.map((id, i) => [id, i]), ["b", 7]]),
  );
});
