/**
 * `deno task db:migrate` on the records beside jobs: admin accounts, sessions, activity records and
 * analytics' job names stored before they carried a schema version read as before, are upgraded in
 * place keeping the time they have left, and a second run changes nothing.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../helpers/server.ts";
import { signInMain } from "../helpers/admins.ts";
import { everything, type Trap, trappedKv } from "../helpers/kv.ts";
import { keys } from "../../kv/keys.ts";
import type { AdminRecord } from "../../kv/schemas.ts";
import type { ActivityRecord } from "../../kv/activity.ts";
import type { Session } from "../../kv/sessions.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { NO_PERMISSIONS } from "../../kv/permissions.ts";
import { kindLine, migrateDatabase } from "../../kv/migrate.ts";
import { recordEngagements } from "../../kv/analytics/recording.ts";
import type { JobRef } from "../../kv/analytics/types.ts";
import { dayOf } from "../../kv/days.ts";
import { hashPassword } from "../../server/passwords.ts";
import { createApp, createServices } from "../../server/app.ts";

const HOUR_MS = 60 * 60 * 1000;

/** An account as the code before schema versions created it: the record and its e-mail index. */
async function storeOldAdmin(kv: Deno.Kv, id: string, email: string, created: Date) {
  const admin: AdminRecord = {
    _id: id,
    username: "Old Editor",
    email,
    passwordHash: await hashPassword("old-editor-password"),
    role: "admin",
    permissions: { ...NO_PERMISSIONS, canCreateJobs: true, canViewAnalytics: true },
    isActive: true,
    lastLogin: null,
    createdAt: created.toISOString(),
    updatedAt: created.toISOString(),
  };
  await kv.set(keys.admin(id), admin);
  await kv.set(keys.adminByEmail(email), id);
  const { passwordHash: _hidden, ...shown } = admin;
  return { ...shown, twoFactorEnabled: false };
}

/** Live sessions rewritten as the code before schema versions wrote them; their keys and ends. */
async function makeSessionsOld(kv: Deno.Kv, now: Date) {
  const ends = new Map<string, number>();
  for await (const entry of kv.list<Session>({ prefix: keys.sessions() })) {
    const session: Session = { adminId: entry.value.adminId, expiresAt: entry.value.expiresAt };
    await kv.set(entry.key, session, { expireIn: Date.parse(session.expiresAt) - now.getTime() });
    ends.set(JSON.stringify(entry.key), Date.parse(session.expiresAt));
  }
  return ends;
}

/** An activity record as the code before schema versions added it, with its job index entry. */
async function storeOldActivity(kv: Deno.Kv, at: Date, retentionDays: number) {
  const record: ActivityRecord = {
    id: `${at.getTime().toString(36).padStart(9, "0")}0000-0ld0ld01`,
    at: at.toISOString(),
    actor: { id: "0000000a0000000000000009", name: "Old Editor" },
    action: "job.create",
    target: { kind: "job", id: "0000000a0000000000000001", jobId: "JB-1001", label: "Welder" },
    change: { after: { role: "Welder" } },
    address: "203.0.113.5",
  };
  const expireIn = retentionDays * DAY_MS - (Date.now() - at.getTime());
  await kv.set(keys.activity(record.id), record, { expireIn });
  await kv.set(keys.jobActivityEntry("JB-1001", record.id), null, { expireIn });
  return record;
}

/** A view of a job counted today, its name then rewritten as the code before schema versions did. */
async function storeOldJobName(t: TestApp) {
  const ref: JobRef = {
    _id: "0000000a0000000000000001",
    jobId: "JB-1001",
    role: "Welder",
    companyName: "Forge & Co",
  };
  const day = dayOf(t.clock.now, t.services.config.TIMEZONE);
  await recordEngagements(t.kv, day, [{ visitor: "a-visitor", kind: "views", ref }]);
  await t.kv.set(keys.analyticsJob(ref._id), ref);
  return ref;
}

type App = Pick<TestApp, "app">;

async function call(t: App, token: string, method: string, path: string, body?: unknown) {
  const response = await t.app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * What the app shows of the old records: the account list, the own profile, a job's history, the
 * most viewed jobs.
 */
async function shown(t: App, token: string) {
  const [all, profile, history, top] = await Promise.all([
    call(t, token, "GET", "/api/admin/all"),
    call(t, token, "GET", "/api/admin/profile"),
    call(t, token, "GET", "/api/admin/activity?jobId=JB-1001"),
    call(t, token, "GET", "/api/analytics/jobs?days=7"),
  ]);
  assert.equal(all.status, 200, "the session written by the old code still signs requests");
  return {
    all: all.body.admins,
    profile: profile.body,
    history: history.body.records,
    top: top.body.jobs,
  };
}

/** The same app started again on the same database: nothing read before is remembered. */
function restarted(t: TestApp): App {
  return {
    app: createApp(
      createServices({
        kv: t.kv,
        config: t.services.config,
        now: () => new Date(t.clock.now),
      }),
    ),
  };
}

async function storedVersion(kv: Deno.Kv, key: Deno.KvKey) {
  return (await kv.get<{ schemaVersion?: number }>(key)).value?.schemaVersion;
}

Deno.test("an account, a session, an activity record and a job's name stored before schema versions read the same before and after the upgrade, which keeps their expiry", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const now = t.clock.now;
  const retentionDays = t.services.config.ACTIVITY_RETENTION_DAYS;
  const oldId = "0000000a0000000000000009";
  const oldAdmin = await storeOldAdmin(t.kv, oldId, "old.editor@example.com", now);
  const sessions = await makeSessionsOld(t.kv, now);
  assert.equal(sessions.size, 1);
  const [[sessionKey, sessionEnd]] = sessions;
  const oldRecord = await storeOldActivity(t.kv, new Date(now.getTime() - HOUR_MS), retentionDays);
  const oldRef = await storeOldJobName(t);

  const before = await shown(t, main.token);
  assert.deepEqual(before.all.find((admin: { _id: string }) => admin._id === oldId), oldAdmin);
  assert.equal("schemaVersion" in before.profile, false);
  assert.deepEqual(before.history, [oldRecord]);
  assert.deepEqual(before.top, [{ ...oldRef, views: 1, clicks: 0, conversionRate: 0 }]);

  const trap: Trap = { mode: null, expireIns: [], expiries: new Map() };
  const report = await migrateDatabase(trappedKv(t.kv, trap), { retentionDays, now });
  const activityCount = report.kinds[3].scanned;
  assert.deepEqual(report.kinds.map(kindLine), [
    "Jobs: 0 read, 0 upgraded to version 3, 0 already at it.",
    "Admins: 2 read, 1 upgraded to version 2, 1 already at it.",
    "Sessions: 1 read, 1 upgraded to version 2, 0 already at it.",
    `Activity records: ${activityCount} read, 1 upgraded to version 2, ${
      activityCount - 1
    } already at it.`,
    "Analytics job names: 1 read, 1 upgraded to version 2, 0 already at it.",
  ]);
  assert.deepEqual(report.conflicts, []);

  const upgradedKeys = [
    keys.admin(oldId),
    JSON.parse(sessionKey),
    keys.activity(oldRecord.id),
    keys.analyticsJob(oldRef._id),
  ];
  for (const key of upgradedKeys) {
    assert.equal(await storedVersion(t.kv, key), 2, JSON.stringify(key));
  }
  assert.deepEqual(Object.fromEntries(trap.expiries!), {
    [JSON.stringify(keys.admin(oldId))]: undefined,
    [sessionKey]: sessionEnd - now.getTime(),
    [JSON.stringify(keys.activity(oldRecord.id))]: retentionDays * DAY_MS - HOUR_MS,
    [JSON.stringify(keys.analyticsJob(oldRef._id))]: undefined,
  }, "accounts and names never expire; a session keeps its end, an activity record its retention");

  assert.deepEqual(await shown(restarted(t), main.token), before, "the app reads the same after");
  const login = await t.app.request("/api/admin/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "old.editor@example.com", password: "old-editor-password" }),
  });
  assert.equal(login.status, 200, "the upgraded account signs in with its password");
  assert.equal("schemaVersion" in (await login.json()).admin, false);

  const snapshot = await everything(t.kv);
  const second = await migrateDatabase(t.kv, { retentionDays, now });
  assert.deepEqual(second.kinds.map(({ upgraded }) => upgraded), [0, 0, 0, 0, 0]);
  assert.deepEqual(await everything(t.kv), snapshot, "a second run changes nothing");
});

Deno.test("a migration stopped part-way is finished by running it again", async () => {
  await using t = await testApp();
  const now = t.clock.now;
  await storeOldAdmin(t.kv, "0000000a0000000000000001", "first@example.com", now);
  await storeOldAdmin(t.kv, "0000000a0000000000000002", "second@example.com", now);
  const options = { retentionDays: 365, now };

  const trap: Trap = { mode: "crash", after: 1, expireIns: [] };
  await assert.rejects(() => migrateDatabase(trappedKv(t.kv, trap), options), /the process died/);
  assert.equal(await storedVersion(t.kv, keys.admin("0000000a0000000000000001")), 2);
  assert.equal(await storedVersion(t.kv, keys.admin("0000000a0000000000000002")), undefined);

  const resumed = await migrateDatabase(t.kv, options);
  assert.equal(
    kindLine(resumed.kinds[1]),
    "Admins: 2 read, 1 upgraded to version 2, 1 already at it.",
  );
  assert.equal(await storedVersion(t.kv, keys.admin("0000000a0000000000000002")), 2);
});
