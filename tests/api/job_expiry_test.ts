/**
 * A job's expiry date through the admin API and bulk upload, and the hourly lifecycle closing a job
 * past it. The clock is fixed at 20:00 UTC, 01:30 the next day in Asia/Kolkata, so "today" in the
 * site's time zone is not the UTC day and no test depends on the time it runs.
 */
import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { asMain, signInMain } from "../helpers/admins.ts";
import { addDays } from "../../kv/days.ts";
import { SYSTEM_ACTOR } from "../../kv/activity.ts";
import { DENOKV_LIMITS, limitedKv } from "../helpers/kv.ts";

const TIMEZONE = "Asia/Kolkata";
/** Yesterday (UTC) at 20:00 UTC: in the past, so sign-in tokens made at it are good now. */
const utcDay = addDays(new Date().toISOString().slice(0, 10), -1);
const NOW = new Date(`${utcDay}T20:00:00Z`);
/** The site's today at NOW. */
const today = addDays(utcDay, 1);

function body(overrides: Record<string, unknown> = {}) {
  const { pay: _pay, workMode: _mode, category: _category, ...job } = sampleJob();
  return { ...job, ...overrides };
}

const expiryApp = () => testApp({ now: NOW, config: { TIMEZONE } });

/** The same date a year on (our fixed day is never 29 February in the test's lifetime as well). */
function yearOn(day: string): string {
  const next = `${Number(day.slice(0, 4)) + 1}${day.slice(4)}`;
  return Number.isNaN(Date.parse(`${next}T00:00:00Z`)) ||
      new Date(`${next}T00:00:00Z`).toISOString().slice(0, 10) !== next
    ? addDays(`${next.slice(0, 8)}01`, 27)
    : next;
}

Deno.test("expiresAt: tomorrow to a year ahead in TIMEZONE is stored as the end of that day; else a 400 naming it", async () => {
  await using t = await expiryApp();
  const tomorrow = addDays(today, 1);
  const ok = await asMain(t, "POST", "/api/jobs", body({ expiresAt: tomorrow }));
  assert.equal(ok.status, 201);
  assert.equal(ok.body.job.expiresAt, `${tomorrow}T23:59:59.999+05:30`);

  const yearAhead = yearOn(today);
  const far = await asMain(t, "POST", "/api/jobs", body({ expiresAt: yearAhead }));
  assert.equal(far.status, 201);
  assert.equal(far.body.job.expiresAt, `${yearAhead}T23:59:59.999+05:30`);

  for (const none of ["", null, undefined]) {
    const answer = await asMain(t, "POST", "/api/jobs", body({ expiresAt: none }));
    assert.equal(answer.status, 201);
    assert.equal("expiresAt" in answer.body.job, false);
  }

  for (
    const bad of [
      today,
      utcDay,
      addDays(yearAhead, 1),
      "next friday",
      `${today.slice(0, 4)}-02-30`,
      "2026-13-01",
      `${today}T10:00:00Z`,
      42,
    ]
  ) {
    const answer = await asMain(t, "POST", "/api/jobs", body({ expiresAt: bad }));
    assert.equal(answer.status, 400, String(bad));
    assert.equal(
      answer.body.message,
      "expiresAt: must be a date (YYYY-MM-DD) from tomorrow to a year ahead",
      String(bad),
    );
  }
});

Deno.test("expiresAt: an edit sends the stored value back, changes it or clears it; the log records it", async () => {
  await using t = await expiryApp();
  const created = await asMain(t, "POST", "/api/jobs", body({ expiresAt: addDays(today, 3) }));
  const job = created.body.job;
  const same = await asMain(t, "PUT", `/api/jobs/${job._id}`, job);
  assert.equal(same.status, 200);
  assert.equal(same.body.job.expiresAt, job.expiresAt);

  const later = await asMain(t, "PUT", `/api/jobs/${job._id}`, {
    ...job,
    expiresAt: addDays(today, 9),
  });
  assert.equal(later.body.job.expiresAt, `${addDays(today, 9)}T23:59:59.999+05:30`);
  const { records } = await t.services.activity.list({ page: 1, limit: 5, action: "job.update" });
  assert.match(JSON.stringify(records[0].change), new RegExp(addDays(today, 9)));

  const cleared = await asMain(t, "PUT", `/api/jobs/${job._id}`, { ...job, expiresAt: "" });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.job.expiresAt, undefined);
  // Cleared, the job is no longer closed by the lifecycle.
  t.clock.now = new Date(NOW.getTime() + 5 * 86_400_000);
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 0,
    movedToInactive: 0,
  });
});

Deno.test("expiresAt: on a job's last day an edit keeps the day it has; a new day is still checked", async () => {
  await using t = await expiryApp();
  const tomorrow = addDays(today, 1);
  const created = await asMain(t, "POST", "/api/jobs", body({ expiresAt: tomorrow }));
  const job = created.body.job;
  // A day on, the job's expiry day is today: still open, and still to be edited.
  t.clock.now = new Date(NOW.getTime() + 86_400_000);
  for (const kept of [job.expiresAt, tomorrow]) {
    const edit = await asMain(t, "PUT", `/api/jobs/${job._id}`, {
      ...job,
      role: "Typo fixed",
      expiresAt: kept,
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    assert.equal(edit.body.job.expiresAt, job.expiresAt);
  }
  // Only the day it has is kept as it is: a day before it is refused as before.
  for (const moved of [today, addDays(today, -1)]) {
    const edit = await asMain(t, "PUT", `/api/jobs/${job._id}`, { ...job, expiresAt: moved });
    assert.equal(edit.status, 400, moved);
  }
  const other = await asMain(t, "POST", "/api/jobs", body({ expiresAt: tomorrow }));
  assert.equal(other.status, 400);
  // Once its day has passed it is no longer kept: an edit must choose a day ahead or clear it.
  t.clock.now = new Date(NOW.getTime() + 2 * 86_400_000);
  const late = await asMain(t, "PUT", `/api/jobs/${job._id}`, job);
  assert.equal(late.status, 400);
});

Deno.test("reopening a job whose expiry date has passed renews it without that date", async () => {
  await using t = await expiryApp();
  const expiring = await asMain(t, "POST", "/api/jobs", body({ expiresAt: addDays(today, 1) }));
  const later = await asMain(t, "POST", "/api/jobs", body({ expiresAt: addDays(today, 20) }));
  t.clock.now = new Date(NOW.getTime() + 3 * 86_400_000);
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 0,
    movedToInactive: 1,
  });
  const job = expiring.body.job;
  const reopened = await asMain(t, "PUT", `/api/jobs/${job._id}/status`, { status: "active" });
  assert.equal(reopened.status, 200);
  assert.equal(reopened.body.job.status, "active");
  assert.equal(reopened.body.job.expiresAt, undefined);
  // Open on the site, and not closed again by the next run for a day gone by.
  const page = await t.app.request(`/jobs/${job.jobId}`);
  assert.equal(page.status, 200);
  assert.doesNotMatch(await page.text(), /Apply by/);
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 0,
    movedToInactive: 0,
  });
  const { records } = await t.services.activity.list({ page: 1, limit: 1, action: "job.status" });
  assert.deepEqual(records[0].change, {
    before: { status: "inactive", expiresAt: job.expiresAt },
    after: { status: "active", expiresAt: null },
  });

  // A date still ahead stays when the job is closed and reopened.
  const other = later.body.job;
  await asMain(t, "PUT", `/api/jobs/${other._id}/status`, { status: "inactive" });
  const back = await asMain(t, "PUT", `/api/jobs/${other._id}/status`, { status: "active" });
  assert.equal(back.body.job.expiresAt, other.expiresAt);
});

Deno.test("expiresAt in a JSON and a CSV bulk upload; a bad date fails its row only", async () => {
  await using t = await expiryApp();
  const main = await signInMain(t);
  const json = await asMain(t, "POST", "/api/jobs/bulk", {
    jobs: [body({ expiresAt: addDays(today, 2) }), body({ expiresAt: today })],
  });
  assert.equal(json.body.summary.created, 1);
  const first = await t.services.jobs.get(json.body.created[0]._id);
  assert.equal(first?.expiresAt, `${addDays(today, 2)}T23:59:59.999+05:30`);
  assert.equal(json.body.errors[0].index, 1);
  assert.match(json.body.errors[0].message, /^expiresAt: must be a date/);

  const header =
    "companyName,role,location,experience,description,requiredDegree,hiringLink,expiresAt";
  const csv = [
    header,
    `Acme,Engineer,Pune,2-3,Build,B.Tech,https://acme.example/jobs/e1,${addDays(today, 5)}`,
    `Acme,Engineer,Pune,2-3,Build,B.Tech,https://acme.example/jobs/e2,`,
    `Acme,Engineer,Pune,2-3,Build,B.Tech,https://acme.example/jobs/e3,soon`,
  ].join("\n");
  const response = await t.app.request("/api/jobs/bulk", {
    method: "POST",
    headers: { authorization: `Bearer ${main.token}`, "content-type": "text/csv" },
    body: csv,
  });
  const answer = await response.json();
  assert.deepEqual(answer.summary, { created: 2, duplicates: 0, errors: 1 });
  const [withDate, without] = await Promise.all(
    answer.created.map((row: { _id: string }) => t.services.jobs.get(row._id)),
  );
  assert.equal(withDate?.expiresAt, `${addDays(today, 5)}T23:59:59.999+05:30`);
  assert.equal(without?.expiresAt, undefined);
  assert.equal(answer.errors[0].index, 2);
});

async function statusOf(t: TestApp, id: string): Promise<string | undefined> {
  return (await t.services.jobs.get(id))?.status;
}

Deno.test("the lifecycle closes an active or dump job once its expiry day has ended in TIMEZONE, exactly once", async () => {
  await using t = await expiryApp();
  const soon = await asMain(t, "POST", "/api/jobs", body({ expiresAt: addDays(today, 1) }));
  const later = await asMain(t, "POST", "/api/jobs", body({ expiresAt: addDays(today, 10) }));
  const never = await asMain(t, "POST", "/api/jobs", body());
  const endOfTomorrow = Date.parse(`${addDays(today, 1)}T23:59:59.999+05:30`);
  const system = t.services.activity.by(SYSTEM_ACTOR, null);

  t.clock.now = new Date(endOfTomorrow);
  assert.deepEqual(await t.services.jobs.processStatusChanges(system), {
    movedToDump: 0,
    movedToInactive: 0,
  });
  assert.equal(await statusOf(t, soon.body.job._id), "active");

  // Two processes at once: the job moves once.
  t.clock.now = new Date(endOfTomorrow + 1);
  const [a, b] = await Promise.all([
    t.services.jobs.processStatusChanges(system),
    t.services.jobs.processStatusChanges(system),
  ]);
  assert.equal(a.movedToInactive + b.movedToInactive, 1);
  assert.equal(a.movedToDump + b.movedToDump, 0);
  assert.equal(await statusOf(t, soon.body.job._id), "inactive");
  const page = await t.app.request(`/jobs/${soon.body.job.jobId}`);
  assert.equal(page.status, 410);
  await page.body?.cancel();

  // Eight days on the other two go to dump as usual; the one that expires while in dump closes.
  t.clock.now = new Date(NOW.getTime() + 8 * 86_400_000);
  assert.deepEqual(await t.services.jobs.processStatusChanges(system), {
    movedToDump: 2,
    movedToInactive: 0,
  });
  t.clock.now = new Date(Date.parse(`${addDays(today, 10)}T23:59:59.999+05:30`) + 1);
  assert.deepEqual(await t.services.jobs.processStatusChanges(system), {
    movedToDump: 0,
    movedToInactive: 1,
  });
  assert.equal(await statusOf(t, later.body.job._id), "inactive");
  assert.equal(await statusOf(t, never.body.job._id), "dump");

  const { records } = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "jobs.lifecycle",
  });
  assert.deepEqual(records.map((record) => record.target?.label), [
    "1 expired job to inactive",
    "2 jobs to dump",
    "1 expired job to inactive",
  ]);
  assert.deepEqual(records[0].change, {
    to: "inactive",
    moved: 1,
    jobIds: [later.body.job.jobId],
    reason: "expired",
  });
  assert.deepEqual(records[2].actor, { id: null, name: "system" });
});

Deno.test("expiring jobs moved by the lifecycle keep every write within denokv's limits", async () => {
  const seen = { checks: 0, mutations: 0, commits: 0 };
  await using t = await testApp({
    now: NOW,
    config: { TIMEZONE },
    wrapKv: (kv) => limitedKv(kv, seen),
  });
  const jobs = Array.from({ length: 300 }, () => body({ expiresAt: addDays(today, 20) }));
  const upload = await asMain(t, "POST", "/api/jobs/bulk", { jobs });
  assert.equal(upload.body.summary.created, 300);
  // A move to dump of a job with an expiry is the largest a move gets: ten mutations.
  Object.assign(seen, { checks: 0, mutations: 0, commits: 0 });
  t.clock.now = new Date(NOW.getTime() + 8 * 86_400_000);
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 300,
    movedToInactive: 0,
  });
  t.clock.now = new Date(NOW.getTime() + 22 * 86_400_000);
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 0,
    movedToInactive: 300,
  });
  assert.ok(seen.commits > 1);
  assert.ok(seen.checks <= DENOKV_LIMITS.checks, `${seen.checks} checks`);
  assert.ok(seen.mutations <= DENOKV_LIMITS.mutations, `${seen.mutations} mutations`);
});
