/**
 * A job's size is measured the way Deno KV measures values (V8 serialisation), with headroom for
 * every later rewrite: the largest job accepted can be created, edited, moved and aged by the
 * lifecycle; one byte more is a 400 naming what to shorten; and one record that cannot be moved
 * never stops the lifecycle for the others.
 */
import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { keys } from "../../kv/keys.ts";
import { KV_VALUE_BYTES, kvValueSize, readBackSize } from "../../kv/atomic.ts";
import { JOB_RECORD_BYTES, jobSizeProblem } from "../../kv/jobs/validate.ts";
import { largestAccepted, multiByteJob, parsed, wideSkills } from "../helpers/large_jobs.ts";
import type { Job, JobInput } from "../../kv/schemas.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";

Deno.test("node:v8 serialize measures values exactly as Deno KV refuses them", async () => {
  using kv = await Deno.openKv(":memory:");
  for (const mark of ["a", "€", "😀"]) {
    // The longest string of `mark`s that KV accepts, and the next one.
    let low = 0;
    let high = 70_000;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      const stored = await kv.set(["x"], mark.repeat(middle)).then(() => true, () => false);
      if (stored) low = middle;
      else high = middle;
    }
    assert.equal(kvValueSize(mark.repeat(low)), serialize(mark.repeat(low)).byteLength);
    assert.ok(kvValueSize(mark.repeat(low)) <= KV_VALUE_BYTES, mark);
    assert.ok(kvValueSize(mark.repeat(high)) > KV_VALUE_BYTES, mark);
    assert.ok(readBackSize(mark.repeat(low)) <= KV_VALUE_BYTES, mark);
  }
});

Deno.test("a record read back from KV measures larger than written; the size check counts that", async () => {
  using kv = await Deno.openKv(":memory:");
  const job = parsed(multiByteJob(150));
  await kv.set(["x"], job);
  const readBack = (await kv.get(["x"])).value;
  assert.ok(serialize(readBack).byteLength > serialize(job).byteLength, "arrays read back larger");
  assert.equal(readBackSize(job), serialize(readBack).byteLength);
});

Deno.test("the largest multi-byte job is created, edited, moved and aged; one byte more is a 400", async () => {
  await using t = await testApp({ now: new Date("2026-05-01T00:00:00Z") });
  const { fits, oneByteMore } = largestAccepted();
  // One more ASCII character is one byte, plus at most the alignment byte of a wide text or two.
  const over = jobSizeProblem(parsed(oneByteMore))!.match(/^Job is too large to store: ([\d,]+)/);
  const overBy = Number(over![1].replaceAll(",", "")) - JOB_RECORD_BYTES;
  assert.ok(overBy >= 1 && overBy <= 3, `over by ${overBy}`);

  const created = await asMain(t, "POST", "/api/jobs", fits);
  assert.equal(created.status, 201, created.body.message);
  const id = created.body.job._id;
  const edited = await asMain(t, "PUT", `/api/jobs/${id}`, { ...fits, role: "Senior Engineer" });
  assert.equal(edited.status, 200, edited.body.message);
  for (const status of ["dump", "inactive", "active"]) {
    const moved = await asMain(t, "PUT", `/api/jobs/${id}/status`, { status });
    assert.equal(moved.status, 200, `${status}: ${moved.body.message}`);
  }
  t.clock.now = new Date(t.clock.now.getTime() + (DAYS_ACTIVE_BEFORE_DUMP + 1) * DAY_MS);
  const toDump = await asMain(t, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(toDump.body.result, { movedToDump: 1, movedToInactive: 0 });
  t.clock.now = new Date(t.clock.now.getTime() + (DAYS_IN_DUMP_BEFORE_INACTIVE + 1) * DAY_MS);
  const toInactive = await asMain(t, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(toInactive.body.result, { movedToDump: 0, movedToInactive: 1 });
  const stored = (await t.kv.get<Job>(keys.job(id))).value!;
  assert.equal(stored.status, "inactive");
  assert.equal(stored.role, "Senior Engineer");
  assert.ok(readBackSize(stored) <= KV_VALUE_BYTES);

  const tooLarge = await asMain(t, "POST", "/api/jobs", oneByteMore);
  assert.equal(tooLarge.status, 400);
  assert.match(tooLarge.body.message, /^Job is too large to store: [\d,]+ bytes, at most 63,488/);
  assert.match(tooLarge.body.message, /Shorten description \([\d,]+ bytes\), skills/);
  const other = await asMain(t, "POST", "/api/jobs", sampleJob());
  const editTooLarge = await asMain(t, "PUT", `/api/jobs/${other.body.job._id}`, oneByteMore);
  assert.equal(editTooLarge.status, 400);
  assert.match(editTooLarge.body.message, /^Job is too large to store/);
  const bulk = await asMain(t, "POST", "/api/jobs/bulk", { jobs: [oneByteMore] });
  assert.equal(bulk.body.summary.errors, 1);
  assert.match(bulk.body.errors[0].message, /^Job is too large to store/);
  assert.equal((await t.services.jobs.statusCounts()).all, 2);
});

Deno.test("the job that answered 500 (₹ description, € degree, 100 € skills) is a 400 naming fields", async () => {
  await using t = await testApp();
  const job = sampleJob({
    description: `₹${"d".repeat(19_999)}`,
    requiredDegree: `€${"q".repeat(1_999)}`,
    skills: wideSkills(100, "€"),
  });
  const answer = await asMain(t, "POST", "/api/jobs", job);
  assert.equal(answer.status, 400);
  assert.match(
    answer.body.message,
    /Shorten description \(40,00\d bytes\), skills \([\d,]+ bytes\)/,
  );
  assert.match(answer.body.message, /₹, € or ’ takes 2 bytes a character/);
  assert.ok(JOB_RECORD_BYTES < KV_VALUE_BYTES);
});

Deno.test("a stored record too large to rewrite is logged and skipped; every other job moves", async () => {
  await using t = await testApp({ now: new Date("2026-05-01T00:00:00Z") });
  const posted = t.clock.now.toISOString();
  const record = (input: JobInput, id: string) => ({
    ...input,
    _id: id,
    status: "active" as const,
    datePosted: posted,
    movedToDumpAt: null,
    createdAt: posted,
    updatedAt: posted,
  });
  // Written by an older version: it fit as first written, but read back its arrays are holey
  // and it no longer fits, so no rewrite of it can be stored.
  let legacy = record(sampleJob({ skills: wideSkills(300, "a") }), "legacy0000000000000000000");
  legacy = { ...legacy, description: "x".repeat(KV_VALUE_BYTES - serialize(legacy).byteLength) };
  assert.ok(serialize(legacy).byteLength <= KV_VALUE_BYTES);
  assert.ok(readBackSize(legacy) > KV_VALUE_BYTES);
  const others = Array.from(
    { length: 5 },
    (_, i) => record(sampleJob(), `other${i}`.padEnd(24, "0")),
  );
  // The legacy job comes first in the index, so the lifecycle meets it before the others.
  await t.services.jobs.importJobs([legacy, ...others]);

  const logged: string[] = [];
  const log = console.error;
  console.error = (...parts: unknown[]) => void logged.push(parts.join(" "));
  try {
    t.clock.now = new Date(t.clock.now.getTime() + (DAYS_ACTIVE_BEFORE_DUMP + 1) * DAY_MS);
    const run = await asMain(t, "POST", "/api/jobs/admin/process-status-changes");
    assert.equal(run.status, 200);
    assert.deepEqual(run.body.result, { movedToDump: 5, movedToInactive: 0 });
    const again = await t.services.jobs.processStatusChanges();
    assert.deepEqual(again, { movedToDump: 0, movedToInactive: 0 });
    const status = await asMain(t, "PUT", `/api/jobs/${legacy._id}/status`, { status: "dump" });
    assert.equal(status.status, 400);
    assert.match(status.body.message, /^Job is too large to store/);
  } finally {
    console.error = log;
  }
  assert.ok(logged.some((line) => line.includes(legacy._id) && line.includes("too large")));
  assert.deepEqual(await t.services.jobs.statusCounts(), {
    all: 6,
    active: 1,
    dump: 5,
    inactive: 0,
    draft: 0,
  });
});
