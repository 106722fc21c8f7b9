import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { signIn, signInMain } from "../helpers/admins.ts";
import { keys } from "../../kv/keys.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { activityExpiry, type ActivityRecord, SYSTEM_ACTOR } from "../../kv/activity.ts";
import { dumpDatabase, restoreDatabase } from "../../kv/backup.ts";
import { loadConfig } from "../../server/config.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";
import { trappedKv } from "../helpers/kv.ts";

async function call(t: TestApp, method: string, path: string, token?: string, body?: unknown) {
  const response = await t.app.request(path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json, text, headers: response.headers };
}

/** Every stored record, oldest first. */
async function stored(t: TestApp): Promise<ActivityRecord[]> {
  const records: ActivityRecord[] = [];
  for await (const entry of t.kv.list<ActivityRecord>({ prefix: keys.activities() })) {
    records.push(entry.value);
  }
  return records;
}

async function activity(t: TestApp, token: string, query = "") {
  const answer = await call(t, "GET", `/api/admin/activity${query}`, token);
  assert.equal(answer.status, 200, answer.text);
  return answer.json as { records: ActivityRecord[]; pagination: Record<string, unknown> };
}

Deno.test("every job write an admin makes is recorded with who, when, what and from where", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const editor = await signIn(t, {
    permissions: { canCreateJobs: true, canDeleteJobs: true },
    username: "Priya Editor",
  });
  const token = editor.token;

  const created = await call(t, "POST", "/api/jobs", token, sampleJob({ role: "Data Engineer" }));
  assert.equal(created.status, 201);
  const job = created.json.job;
  const edited = await call(t, "PUT", `/api/jobs/${job._id}`, token, {
    ...sampleJob({ role: "Senior Data Engineer" }),
    hiringLink: job.hiringLink,
  });
  assert.equal(edited.status, 200);
  assert.equal(
    (await call(t, "PUT", `/api/jobs/${job._id}/status`, token, { status: "dump" }))
      .status,
    200,
  );
  const bulk = await call(t, "POST", "/api/jobs/bulk", token, {
    jobs: [sampleJob(), sampleJob(), { role: "" }],
  });
  assert.equal(bulk.status, 201);
  assert.equal((await call(t, "DELETE", `/api/jobs/${job._id}`, token)).status, 200);

  const { records } = await activity(t, main.token, `?adminId=${editor.admin._id}`);
  assert.deepEqual(records.map((record) => record.action), [
    "job.delete",
    "jobs.bulk_upload",
    "job.status",
    "job.update",
    "job.create",
    "auth.sign_in",
  ]);
  for (const record of records) {
    assert.deepEqual(record.actor, { id: editor.admin._id, name: "Priya Editor" });
    assert.equal(typeof record.address, "string");
    assert.ok(Date.parse(record.at) > Date.now() - 60_000);
  }
  const [deleted, upload, status, update, create] = records;
  assert.deepEqual(create.target, {
    kind: "job",
    id: job._id,
    jobId: job.jobId,
    label: "Data Engineer at Acme Corp",
  });
  assert.deepEqual(update.change, {
    before: { role: "Data Engineer" },
    after: { role: "Senior Data Engineer" },
  });
  assert.deepEqual(status.change, { before: { status: "active" }, after: { status: "dump" } });
  assert.equal((deleted.change!.job as { role: string }).role, "Senior Data Engineer");
  assert.equal((deleted.change!.job as { status: string }).status, "dump");
  assert.deepEqual(upload.change, {
    rows: 3,
    created: 2,
    duplicates: 0,
    errors: 1,
    createdJobIds: bulk.json.created.map((item: { jobId: string }) => item.jobId),
  });

  // The job's history: every record of that job, newest first, also after it was deleted.
  const history = await activity(t, main.token, `?jobId=${job.jobId.toLowerCase()}`);
  assert.deepEqual(history.records.map((record) => record.action), [
    "job.delete",
    "job.status",
    "job.update",
    "job.create",
  ]);
});

Deno.test("Process Status Changes records the admin's moves; the hourly lifecycle records them as system", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const start = t.clock.now;
  const old = new Date(start.getTime() - (DAYS_ACTIVE_BEFORE_DUMP + 1) * DAY_MS);
  t.clock.now = old;
  await t.services.jobs.create(sampleJob());
  await t.services.jobs.create(sampleJob());
  t.clock.now = start;
  const answer = await call(t, "POST", "/api/jobs/admin/process-status-changes", main.token);
  assert.equal(answer.status, 200);
  t.clock.now = new Date(start.getTime() + (DAYS_IN_DUMP_BEFORE_INACTIVE + 1) * DAY_MS);
  await t.services.jobs.processStatusChanges(t.services.activity.by(SYSTEM_ACTOR, null));

  const { records } = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "jobs.lifecycle",
  });
  assert.equal(records.length, 2);
  assert.deepEqual(records[0].actor, { id: null, name: "system" });
  assert.equal(records[0].address, null);
  assert.equal(records[0].target?.label, "2 jobs to inactive");
  assert.equal(records[0].change?.moved, 2);
  assert.deepEqual(records[1].actor, { id: main.admin._id, name: "Main Admin" });
  const { jobIds, ...counts } = records[1].change as { jobIds: string[] };
  assert.deepEqual(counts, { to: "dump", moved: 2 });
  assert.deepEqual(jobIds.toSorted(), ["JB-1001", "JB-1002"]);
});

Deno.test("account changes, sign-in, sign-out and failed sign-in are recorded, never a password or token", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const other = await signIn(t, { username: "Ravi" });
  const wrong = await call(t, "POST", "/api/admin/login", undefined, {
    email: other.email,
    password: "not-the-password-123",
  });
  assert.equal(wrong.status, 401);
  const unknown = await call(t, "POST", "/api/admin/login", undefined, {
    email: "nobody@careeredge.test",
    password: "guessed-password-456",
  });
  assert.equal(unknown.status, 401);
  assert.equal(
    (await call(t, "PUT", `/api/admin/${other.admin._id}/status`, main.token, { isActive: false }))
      .status,
    200,
  );
  assert.equal(
    (await call(t, "PUT", `/api/admin/${other.admin._id}/status`, main.token, { isActive: true }))
      .status,
    200,
  );
  const profile = await call(t, "PUT", "/api/admin/profile", main.token, {
    username: "Main Owner",
    password: "a-brand-new-password-789",
    currentPassword: main.password,
  });
  assert.equal(profile.status, 200, profile.text);
  assert.equal((await call(t, "DELETE", `/api/admin/${other.admin._id}`, main.token)).status, 200);
  assert.equal((await call(t, "POST", "/api/admin/logout", other.token)).status, 401);
  const again = await call(t, "POST", "/api/admin/login", undefined, {
    email: main.email,
    password: "a-brand-new-password-789",
  });
  assert.equal((await call(t, "POST", "/api/admin/logout", again.json.token)).status, 200);

  const records = (await stored(t)).reverse();
  assert.deepEqual(records.map((record) => record.action), [
    "auth.sign_out",
    "auth.sign_in",
    "admin.delete",
    "profile.update",
    "admin.activate",
    "admin.deactivate",
    "auth.sign_in_failed",
    "auth.sign_in_failed",
    "auth.sign_in",
    "admin.create",
    "auth.sign_in",
    "auth.sign_in",
    "admin.create",
  ]);
  const [signOut, , deleted, profileRecord, activated, deactivated, failedUnknown, failed] =
    records;
  assert.deepEqual(signOut.actor, { id: main.admin._id, name: "Main Owner" });
  assert.equal(deleted.target?.label, "Ravi");
  assert.deepEqual(profileRecord.change, {
    before: { username: "Main Admin" },
    after: { username: "Main Owner" },
    passwordChanged: true,
  });
  assert.deepEqual(activated.change, { before: { isActive: false }, after: { isActive: true } });
  assert.deepEqual(deactivated.target, { kind: "admin", id: other.admin._id, label: "Ravi" });
  assert.deepEqual(failedUnknown.actor, { id: null, name: "unknown" });
  assert.equal(failedUnknown.change, null, "an e-mail that names no account is not kept");
  assert.equal(typeof failedUnknown.address, "string");
  assert.deepEqual(failed.actor, { id: other.admin._id, name: "Ravi" });
  assert.deepEqual(failed.change, { email: other.email });
  assert.equal(records.at(-1)!.actor.name, "Main Admin");

  // Nothing secret is in the log: no password, no hash, no token.
  const text = JSON.stringify(records);
  for (
    const secret of [
      main.password,
      other.password,
      "not-the-password-123",
      "guessed-password-456",
      "a-brand-new-password-789",
      main.token,
      other.token,
      again.json.token,
      "$argon2",
      "passwordHash",
    ]
  ) assert.ok(!text.includes(secret), `the log holds ${secret}`);
});

Deno.test("only the main admin reads the log; filters, paging and bad input", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const editor = await signIn(t, { permissions: { canCreateJobs: true, canManageAdmins: true } });
  for (let i = 0; i < 5; i++) await call(t, "POST", "/api/jobs", editor.token, sampleJob());

  assert.equal((await call(t, "GET", "/api/admin/activity")).status, 401);
  const denied = await call(t, "GET", "/api/admin/activity", editor.token);
  assert.equal(denied.status, 403);
  assert.equal(denied.json.message, "Only the main admin can view the activity log");

  const first = await activity(t, main.token, "?action=job.create&limit=2");
  assert.equal(first.records.length, 2);
  assert.deepEqual(first.records.map((record) => record.target?.jobId), ["JB-1005", "JB-1004"]);
  assert.deepEqual(first.pagination, {
    currentPage: 1,
    limit: 2,
    totalRecords: 5,
    totalPages: 3,
    hasPrev: false,
    hasNext: true,
  });
  const last = await activity(t, main.token, "?action=job.create&limit=2&page=3");
  assert.deepEqual(last.records.map((record) => record.target?.jobId), ["JB-1001"]);
  assert.deepEqual(last.pagination, {
    currentPage: 3,
    limit: 2,
    totalRecords: 5,
    totalPages: 3,
    hasPrev: true,
    hasNext: false,
  });
  const mine = await activity(t, main.token, `?adminId=${main.admin._id}`);
  assert.ok(mine.records.every((record) => record.actor.id === main.admin._id));
  assert.ok(mine.records.length >= 1);

  for (
    const query of [
      "?page=0",
      "?limit=101",
      "?action=job.explode",
      "?jobId=1001",
      "?adminId=../x",
      "?format=xml",
    ]
  ) {
    const answer = await call(t, "GET", `/api/admin/activity${query}`, main.token);
    assert.equal(answer.status, 400, query);
    assert.equal(typeof answer.json.message, "string");
  }
});

Deno.test("the CSV export is formula-safe and follows the filters", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  await call(t, "POST", "/api/jobs", main.token, sampleJob({ role: '=HYPERLINK("x")' }));
  await call(t, "POST", "/api/jobs", main.token, sampleJob({ role: "Plain" }));
  const answer = await call(
    t,
    "GET",
    "/api/admin/activity?format=csv&action=job.create",
    main.token,
  );
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get("content-type")!, /^text\/csv/);
  assert.match(answer.headers.get("content-disposition")!, /attachment; filename="activity.csv"/);
  // A byte-order mark first, so that Excel reads the UTF-8 as UTF-8.
  assert.equal(answer.text[0], "\uFEFF");
  const lines = answer.text.slice(1).trimEnd().split("\r\n");
  assert.equal(lines[0], "Time,Admin,Admin id,Action,Target,Job,Change,Address");
  assert.equal(lines.length, 3);
  assert.match(lines[1], /,Plain at Acme Corp,JB-1002,/);
  assert.match(lines[2], /,"'=HYPERLINK\(""x""\) at Acme Corp",JB-1001,/);
});

Deno.test("a record is written exactly once with its change: a retried write, a crashed write", async () => {
  await using t = await testApp();
  const trap = { mode: null as "conflict" | "crash" | null, expireIns: [] as number[] };
  const jobs = new JobStore(trappedKv(t.kv, trap), t.services.now);
  const audit = t.services.activity.by({ id: "a1", name: "Asha" }, "203.0.113.9");

  trap.mode = "conflict";
  const created = await jobs.create(sampleJob(), audit);
  assert.ok(created.ok);
  trap.mode = "conflict";
  assert.ok((await jobs.setStatus(created.job._id, "dump", audit)).ok);
  let records = await stored(t);
  assert.deepEqual(records.map((record) => record.action), ["job.create", "job.status"]);
  assert.equal(trap.mode, null, "the conflicts happened");

  trap.mode = "crash";
  await assert.rejects(() => jobs.delete(created.job._id, audit), /the process died/);
  assert.ok(await t.services.jobs.get(created.job._id), "the job is still there");
  trap.mode = "crash";
  await assert.rejects(() => jobs.create(sampleJob(), audit), /the process died/);
  records = await stored(t);
  assert.deepEqual(records.map((record) => record.action), ["job.create", "job.status"]);
  assert.equal((await t.services.jobs.statusCounts()).all, 1);

  // Each record was written to expire after the retention period.
  assert.ok(trap.expireIns.length >= 2);
  assert.ok(trap.expireIns.every((ms) => ms === 365 * DAY_MS));
});

Deno.test("ACTIVITY_RETENTION_DAYS sets how long records are kept", () => {
  assert.equal(loadConfig({}).ACTIVITY_RETENTION_DAYS, 365);
  assert.equal(loadConfig({ ACTIVITY_RETENTION_DAYS: "30" }).ACTIVITY_RETENTION_DAYS, 30);
  assert.throws(() => loadConfig({ ACTIVITY_RETENTION_DAYS: "0" }), /ACTIVITY_RETENTION_DAYS/);
  assert.throws(() => loadConfig({ ACTIVITY_RETENTION_DAYS: "a year" }), /ACTIVITY_RETENTION_DAYS/);
});

Deno.test("db:dump and db:restore carry the records, which keep expiring on time", async () => {
  await using source = await testApp();
  const main = await signInMain(source);
  await call(source, "POST", "/api/jobs", main.token, sampleJob());
  const records = await stored(source);
  let text = "";
  await dumpDatabase(
    source.kv,
    new WritableStream({ write: (part) => void (text += new TextDecoder().decode(part)) }),
  );
  await using target = await testApp();
  const trap = { mode: null, expireIns: [] as number[] };
  const now = new Date(Date.now() + 10 * DAY_MS);
  await restoreDatabase(trappedKv(target.kv, trap), new Blob([text]).stream(), {
    activityRetentionDays: 365,
    now,
  });
  assert.deepEqual(await stored(target), records);
  assert.equal(trap.expireIns.length, records.length);
  for (const ms of trap.expireIns) {
    assert.ok(ms <= 355 * DAY_MS && ms > 354 * DAY_MS, `${ms / DAY_MS} days`);
  }
  // A record older than the retention comes back with the shortest life KV gives.
  assert.equal(activityExpiry(5, now)(keys.activity(records[0].id)), 1);
  assert.equal(activityExpiry(30, now)(keys.job("x")), undefined);
});
