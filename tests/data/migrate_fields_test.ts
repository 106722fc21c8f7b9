/**
 * Jobs stored before pay, work mode and role category: read with them derived from their text,
 * written with them by `deno task db:migrate` (version 3), and a second run changes nothing.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { keys } from "../../kv/keys.ts";
import { migrateJobs } from "../../kv/jobs/migrate.ts";
import { JOB_SCHEMA_VERSION, type StoredJob } from "../../kv/jobs/version.ts";
import type { Job, JobInput } from "../../kv/schemas.ts";

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
  assert.deepEqual(report, { scanned: 2, upgraded: 2, current: 0, conflicts: [], payRead: 0 });
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
    payRead: 0,
  });
  // db:migrate writes beside the server, as another process would: the same wait.
  await t.services.jobs.active({ fresh: true });
  const hybrid = await (await t.app.request("/api/jobs?workMode=Hybrid&category=Data%20%26%20AI"))
    .json();
  assert.deepEqual(hybrid.jobs.map((job: Job) => job.jobId), ["JB-1002"]);
});

Deno.test("db:migrate reads a stored job's pay again when the pay reader reads its package otherwise now, never a pay an admin set", async () => {
  await using t = await testApp();
  const create = async (fields: Partial<JobInput>) => {
    const created = await t.services.jobs.create(sampleJob(fields));
    if (!created.ok) throw new Error("job not created");
    return created.job;
  };
  const misread = await create({ role: "Field Sales Executive", estPackage: "₹18k - ₹22k/month" });
  const set = await create({
    role: "Store Manager",
    estPackage: "₹30,000 per month",
    payOverride: { min: 400_000, max: 500_000, period: "year", currency: "INR" },
  });
  // As an older pay reader wrote it: the package not understood.
  const record = async (id: string) => (await t.kv.get<StoredJob>(keys.job(id))).value!;
  const stored = { ...await record(misread._id), pay: null };
  await t.kv.set(keys.job(misread._id), stored);
  await t.kv.set(keys.jobByStatus("active", Date.parse(misread.datePosted), misread._id), stored);
  const revision = (await t.kv.get<{ revision: number }>(keys.jobsMeta())).value!.revision;

  const report = await migrateJobs(t.kv);
  assert.deepEqual(report, { scanned: 2, upgraded: 0, current: 2, conflicts: [], payRead: 1 });
  const read = { min: 18_000, max: 22_000, period: "month", currency: "INR" };
  assert.deepEqual((await record(misread._id)).pay, read);
  // The admin's figure stands, though the package reads otherwise.
  assert.deepEqual((await record(set._id)).pay, set.payOverride);
  const index = await t.kv.get<StoredJob>(
    keys.jobByStatus("active", Date.parse(misread.datePosted), misread._id),
  );
  assert.deepEqual(index.value?.pay, read, "the catalogue loads from the index entry");
  assert.ok((await t.kv.get<{ revision: number }>(keys.jobsMeta())).value!.revision > revision);

  assert.equal((await migrateJobs(t.kv)).payRead, 0, "a second run changes nothing");
  await t.services.jobs.active({ fresh: true });
  const found = await (await t.app.request("/api/jobs?payMin=240000&sortBy=pay")).json();
  assert.deepEqual(found.jobs.map((job: Job) => job.jobId), [set.jobId, misread.jobId]);
});
