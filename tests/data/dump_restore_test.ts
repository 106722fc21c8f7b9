import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { seedDemo } from "../../kv/seed.ts";
import { keys } from "../../kv/keys.ts";
import { dumpDatabase, restoreDatabase, TaskError } from "../../kv/cli.ts";

/** Deno.KvU64 keeps its number out of reach of deepEqual, so compare it as a tagged bigint. */
function comparable(value: unknown): unknown {
  return value instanceof Deno.KvU64 ? { u64: value.value } : value;
}

async function everything(kv: Deno.Kv) {
  const entries: [Deno.KvKey, unknown][] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    entries.push([entry.key, comparable(entry.value)]);
  }
  return entries;
}

/** Values of every kind Deno KV can hold, beside the demo data's jobs and counters. */
async function addAwkwardValues(kv: Deno.Kv, jobId: string) {
  const op = kv.atomic()
    .sum(keys.jobCounter(jobId, "views"), 41n)
    .sum(keys.jobCounter(jobId, "clicks"), 7n)
    .set(["types", "date"], new Date("2026-01-02T03:04:05.678Z"))
    .set(["types", "invalid date"], new Date(Number.NaN))
    .set(["types", "bytes"], new Uint8Array([0, 1, 2, 254, 255]))
    .set(["types", "bigint"], -12345678901234567890n)
    .set(["types", "map"], new Map<unknown, unknown>([["a", 1], [2n, new Set(["x"])]]))
    .set(["types", "numbers"], [0, -0, 1.5, Number.NaN, Infinity, -Infinity])
    .set(["types", "undefined"], { present: undefined, list: [undefined, null] })
    .set(["types", "lookalike"], { "$kv:bigint": "1", other: { "$kv:u64": "2" } })
    .set(["types", "text"], 'Line one\nline two ₹ 8-12 LPA \u{1F680} "quoted" \\ tab\t')
    .set(["types", "regexp"], /careers\.[a-z]+\.example/gi)
    .set(["types", 1, 2.5, -3n, true, false, new Uint8Array([9, 8])], "key parts of every type")
    .set(["types", "nested"], { when: new Date(0), bytes: new Uint8Array([7]), big: 5n });
  assert.ok((await op.commit()).ok);
}

Deno.test("db:dump then db:restore into an empty database gives back identical data", async () => {
  await using source = await testApp();
  const [first] = await seedDemo(source.services);
  await addAwkwardValues(source.kv, first._id);
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const dumped = await dumpDatabase(
      source.kv,
      (await Deno.open(file, { write: true, truncate: true })).writable,
    );
    const original = await everything(source.kv);
    assert.equal(dumped, original.length);
    assert.equal((await Deno.readTextFile(file)).trimEnd().split("\n").length, dumped);

    await using target = await testApp();
    const restored = await restoreDatabase(target.kv, (await Deno.open(file)).readable);
    assert.equal(restored, dumped);
    assert.deepEqual(await everything(target.kv), original);

    // Counters come back as counters that keep counting, and the store reads the data as before.
    const before = (await source.services.jobs.analyticsOf([first._id])).get(first._id)!;
    await target.kv.atomic().sum(keys.jobCounter(first._id, "views"), 1n).commit();
    const after = (await target.services.jobs.analyticsOf([first._id])).get(first._id);
    assert.deepEqual(after, { views: before.views + 1, clicks: before.clicks });
    assert.deepEqual(
      await target.services.jobs.statusCounts(),
      await source.services.jobs.statusCounts(),
    );
    assert.deepEqual(
      await target.services.jobs.search({ page: 1, limit: 12 }),
      await source.services.jobs.search({ page: 1, limit: 12 }),
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("db:restore refuses a database that is not empty and leaves it unchanged", async () => {
  await using t = await testApp();
  await t.kv.set(["something"], "already here");
  const dump = new Blob([JSON.stringify({ key: ["other"], value: 1 }) + "\n"]).stream();
  await assert.rejects(() => restoreDatabase(t.kv, dump), TaskError);
  assert.deepEqual(await everything(t.kv), [[["something"], "already here"]]);
});

Deno.test("db:restore names the line of a malformed dump", async () => {
  await using t = await testApp();
  const dump = new Blob([
    JSON.stringify({ key: ["good"], value: 1 }) + "\n",
    "{not json\n",
  ]).stream();
  await assert.rejects(() => restoreDatabase(t.kv, dump), (error: Error) => {
    assert.ok(error instanceof TaskError);
    assert.match(error.message, /^Line 2 /);
    return true;
  });
});

Deno.test("a large dump restores in several atomic writes within the KV limits", async () => {
  await using t = await testApp();
  const text = "x".repeat(20_000);
  const lines = Array.from(
    { length: 2_500 },
    (_, i) => JSON.stringify({ key: ["bulk", i], value: i % 50 === 0 ? text : i }),
  );
  const restored = await restoreDatabase(t.kv, new Blob([lines.join("\n")]).stream());
  assert.equal(restored, 2_500);
  assert.equal((await everything(t.kv)).length, 2_500);
  assert.equal((await t.kv.get(["bulk", 2_450])).value, text);
});
