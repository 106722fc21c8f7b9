/** The KV job model: counters never drift, indexes follow every write, caches see other writers. */
import assert from "node:assert/strict";
import { JobStore, REVISION_MAX_AGE_MS } from "../../kv/jobs/store.ts";
import { normaliseHiringLink } from "../../kv/jobs/validate.ts";
import { keys } from "../../kv/keys.ts";
import { sharedRead } from "../../kv/atomic.ts";
import { JOB_STATUSES, type JobStatus } from "../../kv/schemas.ts";
import { sampleJob } from "../helpers/server.ts";

async function fullCount(kv: Deno.Kv) {
  const counts = { active: 0, dump: 0, inactive: 0 };
  for await (const entry of kv.list<{ status: JobStatus }>({ prefix: keys.jobs() })) {
    counts[entry.value.status]++;
  }
  return counts;
}

async function indexSize(kv: Deno.Kv, prefix: Deno.KvKey) {
  let size = 0;
  for await (const _ of kv.list({ prefix })) size++;
  return size;
}

Deno.test("status counts and indexes equal a full count after random concurrent writes", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = { now: Date.parse("2026-04-01T00:00:00Z") };
  const store = new JobStore(kv, () => new Date(clock.now));
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    clock.now += 60_000;
    const result = await store.create(sampleJob({ role: `Role ${i % 7}` }));
    assert.ok(result.ok);
    ids.push(result.job._id);
  }
  // A seeded pseudo-random sequence keeps the test repeatable.
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  await Promise.all(Array.from({ length: 120 }, () => {
    const id = ids[Math.floor(random() * ids.length)];
    const roll = random();
    if (roll < 0.1) return store.delete(id);
    if (roll < 0.3) return store.update(id, sampleJob({ role: "Edited" }));
    return store.setStatus(id, JOB_STATUSES[Math.floor(random() * 3)]);
  }));
  const counted = await fullCount(kv);
  const { all, ...counts } = await store.statusCounts();
  assert.deepEqual(counts, counted);
  assert.equal(all, counted.active + counted.dump + counted.inactive);
  for (const status of JOB_STATUSES) {
    assert.equal(await indexSize(kv, keys.jobsByStatus(status)), counted[status], status);
  }
  assert.equal(await indexSize(kv, keys.jobsByDate()), all);
  assert.equal(await indexSize(kv, keys.jobsDumpByMoved()), counted.dump);
  assert.equal(await indexSize(kv, ["jobs_by_link"]), counted.active);
});

Deno.test("a second store on the same database sees every change within REVISION_MAX_AGE_MS", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    using writerKv = await Deno.openKv(path);
    using readerKv = await Deno.openKv(path);
    const clock = { now: Date.parse("2026-04-01T00:00:00Z") };
    const writer = new JobStore(writerKv, () => new Date(clock.now));
    const reader = new JobStore(readerKv, () => new Date(clock.now));
    const roles = async () => (await reader.search({ page: 1, limit: 12 })).jobs.map((j) => j.role);
    assert.deepEqual(await roles(), []);
    const adminRoles = async () =>
      (await reader.adminList({ status: "all", page: 1, limit: 10 })).jobs.map((job) => job.role);
    assert.deepEqual(await adminRoles(), []);

    // Requests close together share one revision read: the other store's write shows once the
    // read is REVISION_MAX_AGE_MS old, and not before.
    const first = await writer.create(sampleJob({ role: "First" }));
    assert.ok(first.ok);
    clock.now += REVISION_MAX_AGE_MS - 1;
    assert.deepEqual(await roles(), []);
    // Admin lists read the revision afresh: an admin sees the write whichever store made it.
    assert.deepEqual(await adminRoles(), ["First"]);
    clock.now += 1;
    assert.deepEqual(await roles(), ["First"]);

    await writer.update(first.job._id, sampleJob({ role: "Renamed" }));
    clock.now += REVISION_MAX_AGE_MS;
    assert.deepEqual(await roles(), ["Renamed"]);
    assert.deepEqual((await reader.filterOptions()).roles, ["Renamed"]);
    await writer.setStatus(first.job._id, "dump");
    clock.now += REVISION_MAX_AGE_MS;
    assert.deepEqual(await roles(), []);

    // A store's own writes show at once, whatever the clock says.
    const own = await reader.create(sampleJob({ role: "Own" }));
    assert.ok(own.ok);
    assert.deepEqual(await roles(), ["Own"]);
    await reader.setStatus(own.job._id, "dump");
    assert.deepEqual(await roles(), []);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("hiring links compare without scheme, www., default port, case in the host, fragment or trailing slash", () => {
  assert.equal(
    normaliseHiringLink("HTTPS://Jobs.Example.COM/Apply/42/#top"),
    "jobs.example.com/Apply/42",
  );
  assert.equal(
    normaliseHiringLink("https://jobs.example.com/apply?id=1#x"),
    "jobs.example.com/apply?id=1",
  );
  for (
    const variant of [
      "http://jobs.example.com/apply?id=1",
      "https://www.jobs.example.com/apply?id=1",
      "http://WWW.jobs.example.com:80/apply/?id=1",
      "https://jobs.example.com:443/apply?id=1#top",
      "http://jobs.example.com:443/apply?id=1",
    ]
  ) assert.equal(normaliseHiringLink(variant), "jobs.example.com/apply?id=1", variant);
  assert.notEqual(
    normaliseHiringLink("https://jobs.example.com:8443/apply"),
    normaliseHiringLink("https://jobs.example.com/apply"),
    "another port is another site",
  );
  assert.notEqual(
    normaliseHiringLink("https://jobs.example.com/A"),
    normaliseHiringLink("https://jobs.example.com/a"),
    "paths keep their case",
  );
});

Deno.test("the lifecycle moves large batches within the atomic limits, each job once", async () => {
  using kv = await Deno.openKv(":memory:");
  const start = Date.parse("2026-01-01T00:00:00Z");
  const clock = { now: start };
  const store = new JobStore(kv, () => new Date(clock.now));
  const long = "word ".repeat(3_000);
  await store.importJobs(Array.from({ length: 400 }, (_, i) => ({
    ...sampleJob({ description: long }),
    _id: `job${String(i).padStart(4, "0")}`,
    status: "active" as const,
    datePosted: new Date(start).toISOString(),
    movedToDumpAt: null,
    createdAt: new Date(start).toISOString(),
    updatedAt: new Date(start).toISOString(),
  })));
  clock.now = start + 8 * 86_400_000;
  const [a, b] = await Promise.all([store.processStatusChanges(), store.processStatusChanges()]);
  assert.equal(a.movedToDump + b.movedToDump, 400);
  assert.deepEqual(await store.statusCounts(), { all: 400, active: 0, dump: 400, inactive: 0 });
});

Deno.test("a shared read serves concurrent callers once, and never one that began before a caller asked", async () => {
  let reads = 0;
  let value = 0;
  const pending: (() => void)[] = [];
  const read = sharedRead(() => {
    reads++;
    const seen = value;
    return new Promise<number>((resolve) => pending.push(() => resolve(seen)));
  });
  const first = read();
  value = 1; // a write lands while the first read is under way
  const late = [read(), read(), read()];
  pending.shift()!();
  assert.equal(await first, 0);
  await new Promise((resolve) => setTimeout(resolve, 0));
  pending.shift()!();
  assert.deepEqual(await Promise.all(late), [1, 1, 1], "late callers see the write");
  assert.equal(reads, 2, "three late callers shared one read");
});
