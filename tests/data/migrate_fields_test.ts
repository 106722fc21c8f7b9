/**
 * Jobs stored before pay, work mode and role category: read with them derived from their text,
 * written with them by `deno task db:migrate` (version 3), and a second run changes nothing.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { keys } from "../../kv/keys.ts";
import { migrateJobs } from "../../kv/jobs/migrate.ts";
import { JOB_SCHEMA_VERSION, type StoredJob } from "../../kv/jobs/version.ts";
import type { Job } from "../../kv/schemas.ts";

/** Stores an active job as version 2 wrote it: no pay, work mode or role category. */
async function storeVersionTwo(
  kv: Deno.Kv,
  fields: { _id: string; jobId: string; estPackage: string; location: string; role: string },
) {
  const {
    pay: _pay,
    workMode: _workMode,
    category: _category,
    ...body
  } = sampleJob(fields);
  const created = "2026-01-05T10:00:00.000Z";
  const job = {
    ...body,
    _id: fields._id,
    jobId: fields.jobId,
    status: "active",
    datePosted: created,
    movedToDumpAt: null,
    createdAt: created,
    updatedAt: created,
    schemaVersion: 2,
  };
  const posted = Date.parse(created);
  const meta = (await kv.get<{ lastJobNumber: number; counts: { active: number } }>(
    keys.jobsMeta(),
  )).value;
  await kv.set(keys.job(job._id), job);
  await kv.set(keys.jobByJobId(job.jobId), job._id);
  await kv.set(keys.jobByStatus("active", posted, job._id), job);
  await kv.set(keys.jobByDate(posted, job._id), {
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    jobId: job.jobId,
  });
  await kv.set(keys.jobByLink(job.hiringLink), job._id);
  await kv.set(keys.jobsMeta(), {
    revision: (meta ? 1 : 0) + 1,
    lastJobNumber: Math.max(meta?.lastJobNumber ?? 1000, Number(job.jobId.slice(3))),
    counts: { active: (meta?.counts.active ?? 0) + 1, dump: 0, inactive: 0 },
  });
}

Deno.test("stored jobs get pay, work mode and role category: when read, and for good by db:migrate", async () => {
  await using t = await testApp();
  await storeVersionTwo(t.kv, {
    _id: "0000000a0000000000000001",
    jobId: "JB-1001",
    estPackage: "₹25,000 per month",
    location: "Work from home",
    role: "Customer Support Executive",
  });
  await storeVersionTwo(t.kv, {
    _id: "0000000a0000000000000002",
    jobId: "JB-1002",
    estPackage: "Competitive",
    location: "Hybrid - Pune",
    role: "Data Engineer",
  });
  const stored = async (id: string) => (await t.kv.get<StoredJob>(keys.job(id))).value!;
  assert.equal((await stored("0000000a0000000000000001")).workMode, undefined);

  // Written behind the server's back, as an older version's process would have: the server's
  // catalogue follows in the background, and a strong read waits until it has.
  await t.services.jobs.active({ fresh: true });
  // Before the migration, the API and the filters already read them.
  const remote = await (await t.app.request("/api/jobs?workMode=Remote&payMin=300000")).json();
  assert.deepEqual(remote.jobs.map((job: Job) => job.jobId), ["JB-1001"]);
  assert.deepEqual(remote.jobs[0].pay, {
    min: 25000,
    max: 25000,
    period: "month",
    currency: "INR",
  });

  const report = await migrateJobs(t.kv);
  assert.deepEqual(report, { scanned: 2, upgraded: 2, current: 0, conflicts: [] });
  const first = await stored("0000000a0000000000000001");
  assert.equal(first.schemaVersion, JOB_SCHEMA_VERSION);
  assert.deepEqual(
    [first.workMode, first.category, first.pay?.period],
    ["Remote", "Customer Support", "month"],
  );
  const second = await stored("0000000a0000000000000002");
  assert.deepEqual([second.workMode, second.category, second.pay], ["Hybrid", "Data & AI", null]);
  assert.equal(second.estPackage, "Competitive", "the package text is kept as written");

  assert.deepEqual(await migrateJobs(t.kv), {
    scanned: 2,
    upgraded: 0,
    current: 2,
    conflicts: [],
  });
  // db:migrate writes beside the server, as another process would: the same wait.
  await t.services.jobs.active({ fresh: true });
  const hybrid = await (await t.app.request("/api/jobs?workMode=Hybrid&category=Data%20%26%20AI"))
    .json();
  assert.deepEqual(hybrid.jobs.map((job: Job) => job.jobId), ["JB-1002"]);
});
