/**
 * `deno task db:migrate`: job records stored before hiring links took their canonical spelling are
 * upgraded in place, their link claims move to the canonical key, and a second run changes nothing.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { task } from "../helpers/cli.ts";
import { everything } from "../helpers/kv.ts";
import { keys } from "../../kv/keys.ts";
import type { Job } from "../../kv/schemas.ts";
import { migrateJobs } from "../../kv/jobs/migrate.ts";
import { normaliseHiringLink } from "../../kv/jobs/validate.ts";
import { JOB_SCHEMA_VERSION } from "../../kv/jobs/version.ts";
import type { StoredJob } from "../../kv/jobs/version.ts";

/**
 * Writes an active job as the code before schema versions did: no version field, the link as the
 * admin typed it, and its claim under the key the URL parser's spelling made.
 */
async function storeVersionOne(
  kv: Deno.Kv,
  fields: { _id: string; jobId: string; hiringLink: string; oldLinkKey: string; created: string },
) {
  const job: Job = {
    ...sampleJob({ hiringLink: fields.hiringLink }),
    _id: fields._id,
    jobId: fields.jobId,
    status: "active",
    datePosted: fields.created,
    movedToDumpAt: null,
    createdAt: fields.created,
    updatedAt: fields.created,
  };
  const posted = Date.parse(fields.created);
  const entry = {
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    jobId: job.jobId,
  };
  const meta =
    (await kv.get<{ lastJobNumber: number; counts: { active: number } }>(keys.jobsMeta()))
      .value;
  await kv.set(keys.job(job._id), job);
  await kv.set(keys.jobByJobId(job.jobId), job._id);
  await kv.set(keys.jobByStatus("active", posted, job._id), job);
  await kv.set(keys.jobByDate(posted, job._id), entry);
  await kv.set(keys.jobByLink(fields.oldLinkKey), job._id);
  await kv.set(keys.jobsMeta(), {
    revision: 1,
    lastJobNumber: Math.max(meta?.lastJobNumber ?? 1000, Number(job.jobId.slice(3))),
    counts: { active: (meta?.counts.active ?? 0) + 1, dump: 0, inactive: 0 },
  });
}

Deno.test("a job stored before canonical links is upgraded: old claim gone, any spelling now a duplicate", async () => {
  await using t = await testApp();
  const id = "0000000a0000000000000001";
  await storeVersionOne(t.kv, {
    _id: id,
    jobId: "JB-1001",
    hiringLink: "HTTPS://Careers.Acme.Example/jobs/42/?utm_source=feed",
    oldLinkKey: "https://careers.acme.example/jobs/42?utm_source=feed",
    created: "2026-01-05T10:00:00.000Z",
  });
  const canonical = "https://careers.acme.example/jobs/42";
  const before = await asMain(t, "POST", "/api/jobs/check-duplicate", { hiringLink: canonical });
  assert.equal(before.body.isDuplicate, false, "the old claim key does not match the new rules");

  const report = await migrateJobs(t.kv);
  assert.deepEqual(report, { scanned: 1, upgraded: 1, current: 0, conflicts: [], payRead: 0 });

  const stored = (await t.kv.get<StoredJob>(keys.job(id))).value!;
  assert.equal(stored.schemaVersion, JOB_SCHEMA_VERSION);
  assert.equal(stored.hiringLink, canonical);
  const oldClaim = await t.kv.get(
    keys.jobByLink("https://careers.acme.example/jobs/42?utm_source=feed"),
  );
  assert.equal(oldClaim.value, null);
  assert.equal((await t.kv.get(keys.jobByLink(normaliseHiringLink(canonical)))).value, id);
  assert.equal((await t.kv.get<{ revision: number }>(keys.jobsMeta())).value!.revision, 2);

  const shown = await asMain(t, "GET", `/api/jobs/${id}`);
  assert.equal(shown.body.hiringLink, canonical);
  assert.equal("schemaVersion" in shown.body, false, "the version stays inside the data layer");

  for (const hiringLink of [canonical, "https://careers.acme.example/jobs/42/#apply"]) {
    const check = await asMain(t, "POST", "/api/jobs/check-duplicate", { hiringLink });
    assert.equal(check.body.isDuplicate, true, hiringLink);
    const again = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink });
    assert.equal(again.status, 409, hiringLink);
  }

  const created = await asMain(t, "POST", "/api/jobs", sampleJob());
  assert.equal(created.status, 201);
  assert.equal("schemaVersion" in created.body.job, false);
  const fresh = (await t.kv.get<StoredJob>(keys.job(created.body.job._id))).value!;
  assert.equal(
    fresh.schemaVersion,
    JOB_SCHEMA_VERSION,
    "every job write stamps the current version",
  );

  const snapshot = await everything(t.kv);
  const second = await migrateJobs(t.kv);
  assert.deepEqual(second, { scanned: 2, upgraded: 0, current: 2, conflicts: [], payRead: 0 });
  assert.deepEqual(await everything(t.kv), snapshot, "a second run changes nothing");
});

Deno.test("two old links that become one: the older job keeps the claim, the other is reported", async () => {
  await using t = await testApp();
  const older = "0000000b0000000000000002";
  const younger = "0000000a0000000000000003";
  await storeVersionOne(t.kv, {
    _id: older,
    jobId: "JB-1001",
    hiringLink: "https://jobs.example/x/",
    oldLinkKey: "https://jobs.example/x",
    created: "2026-01-05T10:00:00.000Z",
  });
  // Listed first (its id sorts first), so the migration meets the younger job before the older.
  await storeVersionOne(t.kv, {
    _id: younger,
    jobId: "JB-1002",
    hiringLink: "https://jobs.example/x?utm_source=mail",
    oldLinkKey: "https://jobs.example/x?utm_source=mail",
    created: "2026-01-06T10:00:00.000Z",
  });

  const report = await migrateJobs(t.kv);
  assert.equal(report.upgraded, 2);
  assert.deepEqual(report.conflicts.map(({ jobId, keptBy }) => ({ jobId, keptBy })), [
    { jobId: "JB-1002", keptBy: "JB-1001" },
  ]);
  assert.equal((await t.kv.get(keys.jobByLink("jobs.example/x"))).value, older);
  assert.equal(
    (await t.kv.get(keys.jobByLink("https://jobs.example/x?utm_source=mail"))).value,
    null,
  );

  // The reported job can be taken off the active list without touching the older job's claim.
  const moved = await asMain(t, "PUT", `/api/jobs/${younger}/status`, { status: "dump" });
  assert.equal(moved.status, 200, moved.body.message);
  const check = await asMain(t, "POST", "/api/jobs/check-duplicate", {
    hiringLink: "https://jobs.example/x",
  });
  assert.equal(check.body.isDuplicate, true);
  assert.equal(check.body.existingJob.jobId, "JB-1001");
  assert.deepEqual(await t.services.jobs.statusCounts(), {
    all: 2,
    active: 1,
    dump: 1,
    inactive: 0,
    draft: 0,
  });
});

Deno.test("deno task db:migrate upgrades the configured database, names each conflict and each pay read again", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const path = `${folder}/old.kv`;
    {
      using kv = await Deno.openKv(path);
      await storeVersionOne(kv, {
        _id: "0000000b0000000000000002",
        jobId: "JB-1001",
        hiringLink: "https://jobs.example/x/",
        oldLinkKey: "https://jobs.example/x",
        created: "2026-01-05T10:00:00.000Z",
      });
      await storeVersionOne(kv, {
        _id: "0000000a0000000000000003",
        jobId: "JB-1002",
        hiringLink: "https://jobs.example/x?utm_source=mail#apply",
        oldLinkKey: "https://jobs.example/x?utm_source=mail",
        created: "2026-01-06T10:00:00.000Z",
      });
    }
    const first = await task(path, "migrate");
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Jobs: 2 read, 2 upgraded to version 3, 0 already at it\./);
    assert.match(
      first.stdout,
      /JB-1002 \(".*" at .*\): its hiring link https:\/\/jobs\.example\/x is the same as that of the older JB-1001, which keeps it/,
    );
    const second = await task(path, "migrate");
    assert.equal(
      second.stdout,
      [
        "Jobs: 2 read, 0 upgraded to version 3, 2 already at it.",
        "Admins: 0 read, 0 upgraded to version 2, 0 already at it.",
        "Sessions: 0 read, 0 upgraded to version 2, 0 already at it.",
        "Activity records: 0 read, 0 upgraded to version 2, 0 already at it.",
        "Analytics job names: 0 read, 0 upgraded to version 2, 0 already at it.",
      ].join("\n"),
    );
    {
      // A pay an older reader could not read: the next run reads it and says so.
      using kv = await Deno.openKv(path);
      const record = (await kv.get<StoredJob>(keys.job("0000000b0000000000000002"))).value!;
      await kv.set(keys.job(record._id), { ...record, pay: null });
    }
    const third = await task(path, "migrate");
    assert.match(
      third.stdout,
      /\nJobs: 1 read their pay again from the package text, as the pay reader reads it now\.$/,
    );
    const wrong = await task(path, "migrate", "--now");
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^Usage: /);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("version 2 claims move to the key without scheme and www.: http and www. spellings meet", async () => {
  await using t = await testApp();
  const older = "0000000b0000000000000004";
  const younger = "0000000a0000000000000005";
  for (
    const [id, jobId, link, created] of [
      [older, "JB-1001", "https://www.acme.example/jobs/1", "2026-01-05T10:00:00.000Z"],
      [younger, "JB-1002", "http://acme.example/jobs/1", "2026-01-06T10:00:00.000Z"],
    ]
  ) {
    await storeVersionOne(t.kv, { _id: id, jobId, hiringLink: link, oldLinkKey: link, created });
    const record = (await t.kv.get<StoredJob>(keys.job(id))).value!;
    await t.kv.set(keys.job(id), { ...record, schemaVersion: 2 });
  }
  const report = await migrateJobs(t.kv);
  assert.equal(report.upgraded, 2);
  assert.deepEqual(report.conflicts.map(({ jobId, keptBy }) => ({ jobId, keptBy })), [
    { jobId: "JB-1002", keptBy: "JB-1001" },
  ]);
  assert.equal((await t.kv.get(keys.jobByLink("acme.example/jobs/1"))).value, older);
  for (const link of ["https://www.acme.example/jobs/1", "http://acme.example/jobs/1"]) {
    assert.equal((await t.kv.get(keys.jobByLink(link))).value, null, link);
  }
  for (
    const hiringLink of [
      "https://acme.example/jobs/1/",
      "http://www.acme.example:80/jobs/1#apply",
      "https://acme.example:443/jobs/1",
    ]
  ) {
    const again = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink });
    assert.equal(again.status, 409, hiringLink);
  }
});
