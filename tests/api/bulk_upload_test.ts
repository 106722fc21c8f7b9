/**
 * POST /api/jobs/bulk tells exactly what happened to each row: every row is checked before any is
 * written, the answer lists created rows, duplicates (against the active jobs and within the upload)
 * and errors by row index with a message naming the field, and a write that fails part way reports
 * which rows were created and which were not, leaving only whole jobs, each with its record.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";
import { largestAccepted } from "../helpers/large_jobs.ts";
import { keys } from "../../kv/keys.ts";
import { normaliseHiringLink } from "../../kv/jobs/validate.ts";
import type { ActivityRecord } from "../../kv/activity.ts";
import type { BulkResult } from "../../kv/jobs/bulk.ts";
import type { Job } from "../../kv/schemas.ts";

/** Every activity record stored, oldest first. */
async function records(kv: Deno.Kv): Promise<ActivityRecord[]> {
  const found: ActivityRecord[] = [];
  for await (const entry of kv.list<ActivityRecord>({ prefix: keys.activities() })) {
    found.push(entry.value);
  }
  return found;
}

/** Every job stored, with whether each of its index entries is there too. */
async function storedJobs(kv: Deno.Kv) {
  const found = [];
  for await (const entry of kv.list<Job>({ prefix: keys.jobs() })) {
    const job = entry.value;
    const posted = Date.parse(job.datePosted);
    const [byJobId, byStatus, byDate, byLink] = await kv.getMany([
      keys.jobByJobId(job.jobId),
      keys.jobByStatus(job.status, posted, job._id),
      keys.jobByDate(posted, job._id),
      keys.jobByLink(normaliseHiringLink(job.hiringLink)),
    ]);
    let history = 0;
    for await (const _ of kv.list({ prefix: keys.jobActivity(job.jobId) })) history++;
    found.push({
      job,
      whole: byJobId.value === job._id && byStatus.value !== null && byDate.value !== null &&
        byLink.value === job._id && history === 1,
    });
  }
  return found;
}

Deno.test("every row is checked first; each failure is listed by row with a message naming the field", async () => {
  const trap: Trap = { mode: null, expireIns: [] };
  await using t = await testApp({ wrapKv: (kv) => trappedKv(kv, trap) });
  const existing = await asMain(t, "POST", "/api/jobs", sampleJob({ role: "Held Role" }));
  assert.equal(existing.status, 201);
  const held = existing.body.job as Job;
  const repeated = sampleJob({ hiringLink: "https://acme.example/careers/repeated" });
  const rows = [
    sampleJob({ role: "First" }),
    7,
    null,
    ["not", "a", "job"],
    { ...sampleJob(), role: "", location: " " },
    { ...sampleJob(), experience: "forever" },
    { ...sampleJob(), hiringLink: "javascript:alert(1)" },
    largestAccepted("https://careers.acme.example/jobs/oversize").oneByteMore,
    // The held job's link spelt another way is still its link.
    sampleJob({ hiringLink: held.hiringLink.replace("https://", "HTTPS://") + "?utm_source=x" }),
    repeated,
    { ...repeated, role: "Same link again" },
    sampleJob({ role: "Last" }),
  ];
  trap.commits = 0;
  const answer = await asMain(t, "POST", "/api/jobs/bulk", { jobs: rows });
  assert.equal(answer.status, 201);
  const body = answer.body as BulkResult & { summary: unknown; message: string };
  assert.deepEqual(body.summary, { created: 3, duplicates: 2, errors: 7 });
  assert.equal(body.message, "3 jobs created, 2 duplicates, 7 errors");
  assert.deepEqual(body.created.map(({ index, role }) => ({ index, role })), [
    { index: 0, role: "First" },
    { index: 9, role: repeated.role },
    { index: 11, role: "Last" },
  ]);
  for (const row of body.created) {
    const job = (await t.services.jobs.get(row.jobId))!;
    assert.equal(job._id, row._id);
    assert.equal(job.companyName, row.companyName);
  }
  assert.deepEqual(
    body.duplicates.map(({ index, message, existingJob }) => ({
      index,
      message,
      holder: existingJob?.jobId ?? null,
    })),
    [
      {
        index: 8,
        message: 'Duplicate hiring link! This link is already used by "Held Role" at Acme Corp',
        holder: held.jobId,
      },
      {
        index: 10,
        message: "Duplicate hiring link! Row 10 of this upload has the same link",
        holder: null,
      },
    ],
  );
  assert.deepEqual(body.errors.map(({ index }) => index), [1, 2, 3, 4, 5, 6, 7]);
  const messages = body.errors.map(({ message }) => message);
  assert.deepEqual(messages.slice(0, 4), [
    "Job must be a JSON object",
    "Job must be a JSON object",
    "Job must be a JSON object",
    "Please fill in: role, location",
  ]);
  assert.match(messages[4], /^experience: must be one of 0-1, 1-2/);
  assert.match(messages[5], /^hiringLink: /);
  assert.match(messages[6], /^Job is too large to store: .* Shorten description/);
  // Every row was checked before the one write that created the three.
  assert.equal(trap.commits, 1, "one atomic write for the whole upload");
  const [upload] = (await records(t.kv)).filter((record) => record.action === "jobs.bulk_upload");
  assert.deepEqual(upload.change, {
    rows: 12,
    created: 3,
    duplicates: 2,
    errors: 7,
    createdJobIds: body.created.map(({ jobId }) => jobId),
  });
  assert.equal(upload.target?.label, "3 jobs created from 12 uploaded rows");
  // Each created job's history shows the upload that made it.
  const history = await asMain(t, "GET", `/api/admin/activity?jobId=${body.created[1].jobId}`);
  assert.deepEqual(history.body.records.map((record: ActivityRecord) => record.id), [upload.id]);
  assert.equal((await t.services.jobs.statusCounts()).active, 4);
});

Deno.test("the body's shape: not an array, empty, too many rows, not JSON: a 400 that says why", async () => {
  await using t = await testApp();
  const cases: [unknown, string][] = [
    [{ jobs: {} }, 'JSON must contain a "jobs" array'],
    [{ jobs: "x" }, 'JSON must contain a "jobs" array'],
    [[sampleJob()], 'JSON must contain a "jobs" array'],
    [null, 'JSON must contain a "jobs" array'],
    [{ jobs: [] }, "jobs: must contain at least one job"],
    [
      { jobs: Array.from({ length: 501 }, () => ({})) },
      "jobs: may contain at most 500 jobs at once",
    ],
  ];
  for (const [body, message] of cases) {
    const answer = await asMain(t, "POST", "/api/jobs/bulk", body);
    assert.deepEqual(answer, { status: 400, body: { message } }, JSON.stringify(body).slice(0, 40));
  }
  assert.equal((await t.services.jobs.statusCounts()).all, 0);
});

Deno.test("multi-byte rows at the size edge: the largest is created, one byte more is that row's error", async () => {
  await using t = await testApp();
  const link = (i: number) => `https://careers.acme.example/jobs/the-largest-job-${i}`;
  const rows = [0, 1, 2, 3, 4, 5].map((i) => {
    const { fits, oneByteMore } = largestAccepted(link(i));
    return i % 3 === 1 ? oneByteMore : fits;
  });
  const answer = await asMain(t, "POST", "/api/jobs/bulk", { jobs: rows });
  assert.equal(answer.status, 201);
  const body = answer.body as BulkResult;
  assert.deepEqual(body.created.map(({ index }) => index), [0, 2, 3, 5]);
  assert.deepEqual(body.errors.map(({ index }) => index), [1, 4]);
  for (const { message } of body.errors) {
    assert.match(message, /^Job is too large to store: 63,4\d\d bytes, at most 63,488 bytes\./);
  }
  // Each created one goes on living: it can be moved to dump and back.
  for (const { _id } of body.created) {
    assert.equal(
      (await asMain(t, "PUT", `/api/jobs/${_id}/status`, { status: "dump" })).status,
      200,
    );
    assert.equal(
      (await asMain(t, "PUT", `/api/jobs/${_id}/status`, { status: "active" })).status,
      200,
    );
  }
});

Deno.test("a write failing part way: the answer says which rows were created; only whole jobs, each with its record", async () => {
  const trap: Trap = { mode: null, expireIns: [] };
  await using t = await testApp({ wrapKv: (kv) => trappedKv(kv, trap) });
  // Rows of about 40 KB each (stored twice): a few fit one atomic write, so twenty take several.
  const rows = Array.from({ length: 20 }, (_, i) =>
    sampleJob({
      role: `Large ${i}`,
      description: `€ ${"Build the services behind our product. ".repeat(800)}`.slice(0, 19_900),
    }));
  await asMain(t, "GET", "/api/admin/profile");
  trap.after = 1;
  trap.mode = "crash";
  const answer = await asMain(t, "POST", "/api/jobs/bulk", { jobs: [...rows, { role: "" }] });
  assert.equal(answer.status, 201);
  const body = answer.body as BulkResult & { summary: { created: number; errors: number } };
  const created = body.created.map(({ index }) => index);
  assert.ok(created.length > 0 && created.length < 20, `${created.length} created`);
  assert.deepEqual(created, Array.from({ length: created.length }, (_, i) => i));
  assert.deepEqual(
    body.errors.map(({ index }) => index),
    Array.from({ length: 21 - created.length }, (_, i) => created.length + i),
  );
  for (const { message } of body.errors.slice(0, -1)) {
    assert.equal(
      message,
      "Not created: the database failed while writing this row (the process died). Upload it again.",
    );
  }
  assert.equal(
    body.errors.at(-1)!.message,
    "Please fill in: companyName, role, location, experience, description, requiredDegree, hiringLink",
  );

  const stored = await storedJobs(t.kv);
  assert.deepEqual(
    stored.map(({ job }) => job.jobId).sort(),
    body.created.map(({ jobId }) => jobId).sort(),
  );
  assert.ok(stored.every(({ whole }) => whole), "every job has its indexes and its record");
  assert.equal((await t.services.jobs.statusCounts()).active, created.length);
  const uploads = (await records(t.kv)).filter((record) => record.action === "jobs.bulk_upload");
  assert.equal(uploads.length, 1, "one record, for the one write that happened");
  assert.deepEqual(uploads[0].change?.createdJobIds, body.created.map(({ jobId }) => jobId));
  assert.equal(uploads[0].change?.part, 1);
  assert.ok((uploads[0].change?.parts as number) > 2);

  // Uploaded again, the rows created are duplicates and the rest are created, in several writes.
  const again = await asMain(t, "POST", "/api/jobs/bulk", { jobs: rows });
  assert.deepEqual((again.body as BulkResult).duplicates.map(({ index }) => index), created);
  assert.equal((again.body as BulkResult).created.length, 20 - created.length);
  assert.equal((await t.services.jobs.statusCounts()).active, 20);
  assert.ok((await storedJobs(t.kv)).every(({ whole }) => whole));
});
