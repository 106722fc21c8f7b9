/** The KV job model: counters never drift, indexes follow every write, caches see other writers. */
import assert from "node:assert/strict";
import { JobStore } from "../../kv/jobs/store.ts";
import { normaliseHiringLink } from "../../kv/jobs/validate.ts";
import { keys } from "../../kv/keys.ts";
import { sharedRead } from "../../kv/atomic.ts";
import { JOB_STATUSES, type JobStatus, LIFECYCLE_STATUSES } from "../../kv/schemas.ts";
import { sampleJob } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

async function fullCount(kv: Deno.Kv) {
  const counts = { active: 0, dump: 0, inactive: 0, draft: 0 };
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
    const result = await store.create(sampleJob({ role: `Role ${i % 7}` }), undefined, {
      draft: i % 8 === 0,
    });
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
    return store.setStatus(id, LIFECYCLE_STATUSES[Math.floor(random() * 3)]);
  }));
  const counted = await fullCount(kv);
  const { all, ...counts } = await store.statusCounts();
  assert.deepEqual(counts, counted);
  assert.equal(all, counted.active + counted.dump + counted.inactive + counted.draft);
  for (const status of JOB_STATUSES) {
    assert.equal(await indexSize(kv, keys.jobsByStatus(status)), counted[status], status);
  }
  assert.equal(await indexSize(kv, keys.jobsByDate()), all);
  assert.equal(await indexSize(kv, keys.jobsDumpByMoved()), counted.dump);
  assert.equal(await indexSize(kv, ["jobs_by_link"]), counted.active);
});

Deno.test("a store that does not follow reads the revision on every call: another's writes at once", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    using writerKv = await Deno.openKv(path);
    using readerKv = await Deno.openKv(path);
    const writer = new JobStore(writerKv);
    const reader = new JobStore(readerKv);
    const roles = async () => (await reader.search({ page: 1, limit: 12 })).jobs.map((j) => j.role);
    assert.deepEqual(await roles(), []);
    const first = await writer.create(sampleJob({ role: "First" }));
    assert.ok(first.ok);
    assert.deepEqual(await roles(), ["First"]);
    await writer.update(first.job._id, sampleJob({ role: "Renamed" }));
    assert.deepEqual(await roles(), ["Renamed"]);
    assert.deepEqual((await reader.filterOptions()).roles, ["Renamed"]);
    await writer.setStatus(first.job._id, "dump");
    assert.deepEqual(await roles(), []);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a following store shows another store's writes through the watch, its own at once", async () => {
  using kv = await Deno.openKv(":memory:");
  const writer = new JobStore(kv);
  const reader = new JobStore(kv);
  // No polling: only the watch can tell the reader of the writer's changes.
  reader.follow({ pollMs: 0 });
  try {
    const roles = async () =>
      (await reader.search({ page: 1, limit: 12 })).jobs.map((j) => j.role).join();
    const adminRoles = async () =>
      (await reader.adminList({ status: "all", page: 1, limit: 10 })).jobs.map((job) => job.role);
    assert.equal(await roles(), "");

    const first = await writer.create(sampleJob({ role: "First" }));
    assert.ok(first.ok);
    // Admin lists read the revision from the primary: an admin sees the write at once.
    assert.deepEqual(await adminRoles(), ["First"]);
    await waitFor("the created job", async () => (await roles()) === "First");
    await writer.update(first.job._id, sampleJob({ role: "Renamed" }));
    await waitFor("the edit", async () => (await roles()) === "Renamed");
    assert.deepEqual((await reader.filterOptions()).roles, ["Renamed"]);
    await writer.setStatus(first.job._id, "dump");
    await waitFor("the job to leave", async () => (await roles()) === "");

    // A store's own writes show at once, in its very next answer.
    const own = await reader.create(sampleJob({ role: "Own" }));
    assert.ok(own.ok);
    assert.equal(await roles(), "Own");
    await reader.setStatus(own.job._id, "dump");
    assert.equal(await roles(), "");
  } finally {
    await reader.close();
  }
});

/**
 * The database with watch streams that behave as told, one word per stream opened: `deaf` never
 * reports anything (another process's writes to a local file), `breaks` gives its first value and
 * then fails (a dropped connection), `real` is the database's own (also once the words run out).
 */
function scriptedWatch(kv: Deno.Kv, script: ("deaf" | "breaks" | "real")[]): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "watch") return typeof value === "function" ? value.bind(target) : value;
      return (watched: Deno.KvKey[]) => {
        const behaviour = script.shift() ?? "real";
        if (behaviour === "real") return target.watch(watched);
        if (behaviour === "deaf") return new ReadableStream({ start() {} });
        const real = target.watch(watched).getReader();
        return new ReadableStream({
          async pull(controller) {
            const { value } = await real.read();
            controller.enqueue(value);
            await real.cancel();
            controller.error(new Error("connection lost"));
          },
        });
      };
    },
  });
}

Deno.test("where the watch cannot see another process's writes, reads every few ms find them", async () => {
  using kv = await Deno.openKv(":memory:");
  const writer = new JobStore(kv);
  const reader = new JobStore(scriptedWatch(kv, ["deaf"]));
  reader.follow({ pollMs: 5 });
  try {
    const roles = async () =>
      (await reader.search({ page: 1, limit: 12 })).jobs.map((j) => j.role).join();
    assert.equal(await roles(), "");
    const created = await writer.create(sampleJob({ role: "Polled" }));
    assert.ok(created.ok);
    await waitFor("the polled revision", async () => (await roles()) === "Polled");
  } finally {
    await reader.close();
  }
});

Deno.test("a watch stream that breaks is started again and goes on reporting changes", async () => {
  using kv = await Deno.openKv(":memory:");
  const script: ("deaf" | "breaks" | "real")[] = ["breaks", "real"];
  const writer = new JobStore(kv);
  const reader = new JobStore(scriptedWatch(kv, script));
  // No polling: after the break only a restarted watch can report the next change.
  reader.follow({ pollMs: 0, retryMs: 10 });
  try {
    const roles = async () =>
      (await reader.search({ page: 1, limit: 12 })).jobs.map((j) => j.role).join();
    assert.equal(await roles(), "");
    await waitFor("the watch to be started again", () => script.length === 0);
    const created = await writer.create(sampleJob({ role: "After the break" }));
    assert.ok(created.ok);
    await waitFor("the change after the break", async () => (await roles()) === "After the break");
  } finally {
    await reader.close();
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
  assert.deepEqual(await store.statusCounts(), {
    all: 400,
    active: 0,
    dump: 400,
    inactive: 0,
    draft: 0,
  });
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
  await waitFor("the late callers' read", () => pending.length === 1);
  pending.shift()!();
  assert.deepEqual(await Promise.all(late), [1, 1, 1], "late callers see the write");
  assert.equal(reads, 2, "three late callers shared one read");
});
