import { type DerivedFields, withDerived } from "../../kv/jobs/derived.ts";
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { seedDemo } from "../../kv/seed.ts";
import { keys } from "../../kv/keys.ts";
import { dumpDatabase, restoreDatabase, restoreUnfinished, TaskError } from "../../kv/backup.ts";
import { kvKeySize } from "../../kv/atomic.ts";
import type { Job } from "../../kv/schemas.ts";
import { request, signIn, signInMain } from "../helpers/admins.ts";
import { alertExpiry } from "../../kv/alerts.ts";
import { sessionExpiry } from "../../kv/sessions.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";
import { mailsSent } from "../../server/mail.ts";
import { CHROME_DESKTOP, from } from "../analytics/fixtures.ts";

/** How the restore task restores, with the default ACTIVITY_RETENTION_DAYS. */
const RESTORE = { activityRetentionDays: 365 };

/** Deno.KvU64 keeps its number out of reach of deepEqual, so compare it as a tagged bigint. */
function comparable(value: unknown): unknown {
  return value instanceof Deno.KvU64 ? { u64: value.value } : value;
}

const shortLived = new Set(keys.shortLivedTables().map(([table]) => String(table)));

/**
 * Every entry a dump holds: all but the catalogue's snapshot, which is derived from the jobs, and
 * the tables that live two days at most.
 */
async function everything(kv: Deno.Kv) {
  const entries: [Deno.KvKey, unknown][] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    if (
      String(entry.key[0]).startsWith("catalogue_snapshot") || shortLived.has(String(entry.key[0]))
    ) {
      continue;
    }
    entries.push([entry.key, comparable(entry.value)]);
  }
  return entries;
}

/** The dump of `kv` as text, kept in memory. */
async function dumpText(kv: Deno.Kv, options?: Parameters<typeof dumpDatabase>[2]) {
  let text = "";
  const decoder = new TextDecoder();
  const { entries: count, alertEntriesLeftOut } = await dumpDatabase(
    kv,
    new WritableStream({ write: (part) => void (text += decoder.decode(part, { stream: true })) }),
    options,
  );
  return { text, count, alertEntriesLeftOut };
}

/** Values of every kind Deno KV can hold, beside the demo data's jobs and counters. */
async function addAwkwardValues(kv: Deno.Kv, jobId: string) {
  const op = kv.atomic()
    .sum(keys.jobCounter(jobId, "views"), 41n)
    .sum(keys.jobCounter(jobId, "clicks"), 7n)
    .set(["types", "date"], new Date("2026-01-02T03:04:05.678Z"))
    .set(["types", "invalid date"], new Date(Number.NaN))
    .set(["types", "bytes"], new Uint8Array([0, 1, 2, 254, 255]))
    .set(["types", "bigint"], -12345678901234567890n)
    .set(["types", "map"], new Map<unknown, unknown>([["a", 1], [2n, new Set(["x"])]]))
    .set(["types", "numbers"], [0, -0, 1.5, Number.NaN, Infinity, -Infinity])
    .set(["types", "undefined"], { present: undefined, list: [undefined, null] })
    .set(["types", "lookalike"], { "$kv:bigint": "1", other: { "$kv:u64": "2" } })
    .set(["types", "text"], 'Line one\nline two ₹ 8-12 LPA \u{1F680} "quoted" \\ tab\t')
    .set(["types", "regexp"], /careers\.[a-z]+\.example/gi)
    .set(["types", 1, 2.5, -3n, true, false, new Uint8Array([9, 8])], "key parts of every type")
    .set(["types", "nested"], { when: new Date(0), bytes: new Uint8Array([7]), big: 5n });
  assert.ok((await op.commit()).ok);
}

Deno.test("db:dump then db:restore into an empty database gives back identical data", async () => {
  await using source = await testApp();
  const [first] = await seedDemo(source.services);
  await addAwkwardValues(source.kv, first._id);
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const { entries: dumped } = await dumpDatabase(
      source.kv,
      (await Deno.open(file, { write: true, truncate: true })).writable,
    );
    const original = await everything(source.kv);
    assert.equal(dumped, original.length);
    assert.equal((await Deno.readTextFile(file)).trimEnd().split("\n").length, dumped);

    await using target = await testApp();
    const restored = await restoreDatabase(target.kv, (await Deno.open(file)).readable, RESTORE);
    assert.deepEqual(restored, { entries: dumped, resumed: false });
    assert.deepEqual(await everything(target.kv), original);

    // Counters come back as counters that keep counting, and the store reads the data as before
    // once its catalogue is at the restore's revision: a restore is written past the store, as by
    // db:restore in another process, so the store would otherwise learn of it only eventually, and
    // a visitor's search answers from the catalogue it has while it catches up.
    await target.services.jobs.active({ fresh: true });
    const before = (await source.services.jobs.analyticsOf([first._id])).get(first._id)!;
    await target.kv.atomic().sum(keys.jobCounter(first._id, "views"), 1n).commit();
    const after = (await target.services.jobs.analyticsOf([first._id])).get(first._id);
    assert.deepEqual(after, { views: before.views + 1, clicks: before.clicks });
    assert.deepEqual(
      await target.services.jobs.statusCounts(),
      await source.services.jobs.statusCounts(),
    );
    assert.deepEqual(
      await target.services.jobs.search({ page: 1, limit: 12 }),
      await source.services.jobs.search({ page: 1, limit: 12 }),
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("db:restore refuses a database that is not empty and leaves it unchanged", async () => {
  await using t = await testApp();
  await t.kv.set(["something"], "already here");
  const dump = new Blob([JSON.stringify({ key: ["other"], value: 1 }) + "\n"]).stream();
  await assert.rejects(() => restoreDatabase(t.kv, dump, RESTORE), TaskError);
  assert.deepEqual(await everything(t.kv), [[["something"], "already here"]]);
});

Deno.test("db:restore names the line of a malformed dump", async () => {
  await using t = await testApp();
  const dump = new Blob([
    JSON.stringify({ key: ["good"], value: 1 }) + "\n",
    "{not json\n",
  ]).stream();
  await assert.rejects(() => restoreDatabase(t.kv, dump, RESTORE), (error: Error) => {
    assert.ok(error instanceof TaskError);
    assert.match(error.message, /^Line 2 /);
    return true;
  });
});

Deno.test("a large dump restores in several atomic writes within the KV limits", async () => {
  await using t = await testApp();
  const text = "x".repeat(20_000);
  const lines = Array.from(
    { length: 2_500 },
    (_, i) => JSON.stringify({ key: ["bulk", i], value: i % 50 === 0 ? text : i }),
  );
  const restored = await restoreDatabase(t.kv, new Blob([lines.join("\n")]).stream(), RESTORE);
  assert.equal(restored.entries, 2_500);
  assert.equal((await everything(t.kv)).length, 2_500);
  assert.equal((await t.kv.get(["bulk", 2_450])).value, text);
});

/** `count` active jobs, each with a distinct hiring link exactly `linkLength` characters long. */
function manyJobs(count: number, linkLength: number): Omit<Job, "jobId">[] {
  const start = Date.parse("2026-01-01T00:00:00Z");
  return Array.from({ length: count }, (_, i) => {
    const posted = new Date(start + i * 1000).toISOString();
    const prefix = `https://careers.example.com/jobs/${i}/`;
    return withDerived({
      _id: `${(start / 1000 + i).toString(16)}${String(i).padStart(16, "0")}`,
      companyName: `Company ${i % 300}`,
      role: "Software Engineer",
      location: "Bengaluru, India",
      experience: "2-3",
      employmentType: "Full-Time",
      description: "Build and run the services behind our product.",
      requiredDegree: "B.Tech",
      hiringLink: prefix + "x".repeat(linkLength - prefix.length),
      estPackage: "8-12 LPA",
      skills: {
        languages: ["TypeScript"],
        technologies: [],
        frameworks: [],
        databases: [],
        tools: [],
        others: [],
      },
      keywords: [],
      companyLogo: "",
      status: "active",
      datePosted: posted,
      movedToDumpAt: null,
      createdAt: posted,
      updatedAt: posted,
    } as Omit<Job, "jobId" | keyof DerivedFields>);
  });
}

// Twice the 3,000 jobs whose 200-character link keys once broke a restore's writes ("Total key size
// too large"), each job several entries.
Deno.test("6,000 active jobs with 200-character links restore entry for entry", async () => {
  await using source = await testApp();
  const started = performance.now();
  const jobs = manyJobs(6_000, 200);
  assert.equal(jobs[5_999].hiringLink.length, 200);
  await source.services.jobs.importJobs(jobs);
  const written = performance.now();
  const { text, count: dumped } = await dumpText(source.kv);
  const dumpedAt = performance.now();
  await using target = await testApp();
  const restored = await restoreDatabase(target.kv, new Blob([text]).stream(), RESTORE);
  const restoredAt = performance.now();
  assert.deepEqual(restored, { entries: dumped, resumed: false });
  assert.ok(dumped > 30_000, `${dumped} entries`);
  const original = await everything(source.kv);
  assert.equal(original.length, dumped);
  assert.deepEqual(await everything(target.kv), original);
  assert.equal(await restoreUnfinished(target.kv), false);
  assert.deepEqual(await target.services.jobs.statusCounts(), {
    all: 6_000,
    active: 6_000,
    dump: 0,
    inactive: 0,
    draft: 0,
  });
  // The restored database goes on numbering jobs after the last one it holds.
  const next = await target.services.jobs.create(sampleJob());
  assert.ok(next.ok);
  assert.equal(next.job.jobId, `JB-${1000 + 6_001}`);
  console.log(
    `6,000 jobs: import ${(written - started).toFixed(0)} ms, dump ${
      (dumpedAt - written).toFixed(0)
    } ms, restore ${(restoredAt - dumpedAt).toFixed(0)} ms (${dumped} entries)`,
  );
});

Deno.test("entries with the longest keys KV takes restore in writes within its key limits", async () => {
  await using t = await testApp();
  const lines = Array.from({ length: 300 }, (_, i) => {
    const key = ["long", `${String(i).padStart(6, "0")}${"€".repeat(678)}`];
    return JSON.stringify({ key, value: i });
  });
  assert.equal(kvKeySize(JSON.parse(lines[0]).key), 2048);
  const restored = await restoreDatabase(t.kv, new Blob([lines.join("\n")]).stream(), RESTORE);
  assert.equal(restored.entries, 300);
  const stored = await everything(t.kv);
  assert.equal(stored.length, 300);
  assert.deepEqual(stored[299], [JSON.parse(lines[299]).key, 299]);
});

/** A stream of `text` that fails once `failAfter` characters have been read. */
function breakingStream(text: string, failAfter: number): ReadableStream<Uint8Array<ArrayBuffer>> {
  const bytes = new TextEncoder().encode(text.slice(0, failAfter));
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) controller.error(new Error("the disk went away"));
      else controller.enqueue(bytes);
      sent = true;
    },
  });
}

Deno.test("a restore that failed half-way can be run again to completion", async () => {
  await using source = await testApp();
  await source.services.jobs.importJobs(manyJobs(3_000, 200));
  const { text } = await dumpText(source.kv);
  const original = await everything(source.kv);

  await using target = await testApp();
  await assert.rejects(
    () => restoreDatabase(target.kv, breakingStream(text, Math.floor(text.length * 0.6)), RESTORE),
    /the disk went away/,
  );
  // Part of the dump is in, and the database says its restore has not finished.
  assert.ok((await everything(target.kv)).length > 1_000);
  assert.equal(await restoreUnfinished(target.kv), true);

  const again = await restoreDatabase(target.kv, new Blob([text]).stream(), RESTORE);
  assert.deepEqual(again, { entries: original.length, resumed: true });
  assert.deepEqual(await everything(target.kv), original);
  assert.equal(await restoreUnfinished(target.kv), false);
  // Finished, the database is no longer empty, so a third restore is refused.
  await assert.rejects(
    () => restoreDatabase(target.kv, new Blob([text]).stream(), RESTORE),
    TaskError,
  );
});

Deno.test("a dump leaves out the signing key, the main-admin secret and live sessions unless asked", async () => {
  await using t = await testApp();
  await t.kv.set(keys.config("jwt_secret"), "a-signing-key-that-mints-tokens-0123456789");
  await t.kv.set(keys.config("main_admin_secret"), "one-time-secret");
  const { token } = await signIn(t, { main: true });
  const tables = (text: string) =>
    new Set(text.trimEnd().split("\n").map((line) => JSON.stringify(JSON.parse(line).key[0])));
  const jti = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).jti;

  const plain = (await dumpText(t.kv)).text;
  assert.ok(!plain.includes("a-signing-key-that-mints-tokens"));
  assert.ok(!plain.includes("one-time-secret"));
  assert.ok(!plain.includes(jti));
  assert.ok(!tables(plain).has('"sessions"') && !tables(plain).has('"sessions_by_admin"'));
  assert.ok(tables(plain).has('"admins"'));

  const full = (await dumpText(t.kv, { withSecrets: true })).text;
  assert.ok(full.includes("a-signing-key-that-mints-tokens"));
  assert.ok(full.includes("one-time-secret"));
  assert.ok(full.includes(jti));
});

Deno.test("a dump leaves out job alerts' subscribers unless asked; with them it restores them whole", async () => {
  await using t = await testApp();
  const { alerts } = t.services;
  const requested = await alerts.request({
    email: "subscriber@example.com",
    query: { keywords: "python" },
    frequency: "daily",
  });
  await alerts.confirm(requested!.confirm);
  await alerts.request({ email: "pending@example.com", query: {}, frequency: "weekly" });
  await alerts.countRequest("203.0.113.0");
  await alerts.countDay("sent", 4);
  const tables = (text: string) =>
    new Set(text.trimEnd().split("\n").map((line) => String(JSON.parse(line).key[0])));
  const alertTables = keys.alertTables().map((prefix) => String(prefix[0]));

  const plain = await dumpText(t.kv);
  assert.ok(!plain.text.includes("@example.com"), "no subscriber's address");
  assert.ok(!plain.text.includes("203.0.113"), "no client's address");
  for (const table of alertTables) assert.ok(!tables(plain.text).has(table), table);
  // Tokens are stored hashed: their hashes are left out too.
  for await (const entry of t.kv.list({ prefix: ["alert_tokens"] })) {
    assert.ok(!plain.text.includes(String(entry.key[1])));
  }
  assert.ok(plain.alertEntriesLeftOut > 8, `${plain.alertEntriesLeftOut} left out`);
  // The totals per day hold no address and stay; a restore claims no confirmed alert.
  await using restored = await testApp();
  await restoreDatabase(restored.kv, new Blob([plain.text]).stream(), RESTORE);
  const totals = await restored.services.alerts.totals([alerts.day()]);
  assert.equal(totals.confirmed, 0);
  assert.equal(totals.days[0].sent, 4);

  const full = await dumpText(t.kv, { withAlerts: true });
  assert.equal(full.alertEntriesLeftOut, 0);
  assert.equal(full.count, plain.count + plain.alertEntriesLeftOut);
  await using whole = await testApp();
  await restoreDatabase(whole.kv, new Blob([full.text]).stream(), RESTORE);
  const kept = await whole.services.alerts.alertsOf("subscriber@example.com");
  assert.deepEqual(kept.alerts.map((alert) => [alert.status, alert.query]), [
    ["active", { keywords: "python" }],
  ]);
  assert.equal((await whole.services.alerts.totals([alerts.day()])).confirmed, 1);
});

Deno.test("restored alerts expire as they would have: pending ones, links and counts", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const expiry = alertExpiry(now);
  const hour = 3_600_000;
  const pending = { status: "pending", createdAt: "2026-03-08T12:00:00Z" };
  assert.equal(expiry(keys.alert("a"), pending), 5 * 24 * hour);
  assert.equal(expiry(keys.alert("a"), { ...pending, createdAt: "2026-01-01T00:00:00Z" }), 1);
  assert.equal(expiry(keys.alert("a"), { ...pending, status: "active" }), undefined);
  assert.equal(expiry(keys.alertToken("h"), { kind: "confirm", alertId: "a" }), 7 * 24 * hour);
  assert.equal(expiry(keys.alertToken("h"), { kind: "manage", email: "m@x.io" }), 60 * 24 * hour);
  const window = { count: 2, resetAt: now.getTime() + 3 * hour };
  assert.equal(expiry(keys.alertConfirmations("m@x.io"), window), 3 * hour);
  assert.equal(expiry(keys.alertRequests("203.0.113.0"), window), 3 * hour);
  assert.equal(expiry(keys.alertAddress("m@x.io"), { alertIds: ["a"] }), undefined);
  const allPending = { alertIds: ["a"], pendingUntil: now.getTime() + 5 * 24 * hour };
  assert.equal(expiry(keys.alertAddress("m@x.io"), allPending), 5 * 24 * hour);
  assert.equal(expiry(keys.alertAddressById("i"), { email: "m@x.io" }), undefined);
  const byId = { email: "m@x.io", pendingUntil: allPending.pendingUntil };
  assert.equal(expiry(keys.alertAddressById("i"), byId), 5 * 24 * hour);
  assert.equal(expiry(keys.alertToken("h"), { kind: "manage", address: "i" }), 60 * 24 * hour);
  assert.equal(expiry(keys.alertTotal("confirmed"), new Deno.KvU64(1n)), undefined);
});

Deno.test("an address of pending alerts says until when; confirming one keeps it for good", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:00:00Z") });
  const address = async () =>
    (await t.kv.get<{ alertIds: string[]; pendingUntil?: number; id?: string }>(
      keys.alertAddress("pending@example.com"),
    )).value;
  const alerts = t.services.alerts;
  const ask = (keywords: string) =>
    alerts.request({ email: "pending@example.com", query: { keywords }, frequency: "daily" });
  const first = await ask("first");
  const second = await ask("second");
  const sevenDays = 7 * 24 * 3_600_000;
  assert.equal((await address())?.pendingUntil, Date.parse("2026-03-10T12:00:00Z") + sevenDays);
  // One removed while the other is still pending: the address still goes with it.
  await alerts.remove(first!.alert.id);
  assert.equal((await address())?.alertIds.length, 1);
  assert.ok((await address())?.pendingUntil);
  assert.ok(await alerts.confirm(second!.confirm));
  const { id } = (await address())!;
  assert.ok(id);
  assert.deepEqual(await address(), { alertIds: [second!.alert.id], id });
  assert.deepEqual((await t.kv.get(keys.alertAddressById(id))).value, {
    email: "pending@example.com",
  });
});

Deno.test("restored sessions keep the time they had left, known browsers get theirs again", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const hour = 3_600_000;
  const expiry = sessionExpiry(now);
  const session = { adminId: "a", expiresAt: "2026-03-10T14:00:00Z", schemaVersion: 2 };
  assert.equal(expiry(keys.session("j"), session), 2 * hour);
  assert.equal(expiry(keys.session("j"), { ...session, expiresAt: "2026-03-10T11:00:00Z" }), 1);
  assert.equal(expiry(keys.sessionOfAdmin("a", "j"), now.getTime() - 6 * hour), 2 * hour);
  // A place in the list without its start lives as long as any session may.
  assert.equal(expiry(keys.sessionOfAdmin("a", "j"), null), 8 * hour);
  assert.equal(expiry(keys.knownDevice("a", "d"), null), 90 * 24 * hour);
  assert.equal(expiry(keys.admin("a"), { username: "Main Admin" }), undefined);
});

/**
 * Tables whose restored entries get their whole life again, as a dump does not know their age: a
 * known browser (its value is null) and an alert's link token. Every other restored entry has at
 * most what it had left.
 */
const FULL_TIME_AGAIN = new Set(["known_devices", "alert_tokens"]);

Deno.test("nothing written to expire comes back from a dump to live for good, nor longer than it was to", async () => {
  const at = new Date("2026-03-10T10:00:00Z");
  const written: Trap = { mode: null, expireIns: [], expiries: new Map() };
  await using t = await testApp({ now: at, wrapKv: (kv) => trappedKv(kv, written) });
  // A session and a known browser, and a job: the change log and the activity log.
  const main = await signInMain(t);
  const created = await request(t, "POST", "/api/jobs", sampleJob(), main.headers);
  assert.equal(created.status, 201);
  // Failed sign-ins from elsewhere: the throttle's counts.
  const guess = { email: main.email, password: "not the password" };
  const refused = await request(t, "POST", "/api/admin/login", guess, undefined, "198.51.100.20");
  assert.equal(refused.status, 401);
  // A password reset link and a browser confirmation link, with their counts.
  for (const path of ["/api/admin/password-reset", "/api/admin/device-link"]) {
    assert.equal((await request(t, "POST", path, { email: main.email })).status, 202);
  }
  await mailsSent();
  // A visitor's view of the job and search: the day's salt and the per-visitor markers.
  const visitor = { headers: { "user-agent": CHROME_DESKTOP } };
  const job = created.body.job;
  for (const path of [`/jobs/${job._id}`, "/api/jobs?keywords=python"]) {
    await t.app.request(path, visitor, from("192.0.2.44"));
  }
  await t.services.counter.flush();
  // A pending job alert: its address, link token and counts.
  await t.services.alerts.request({ email: "pending@example.com", query: {}, frequency: "daily" });
  await t.services.alerts.countRequest("203.0.113.0");

  const expiring = new Set(
    [...written.expiries!].flatMap(([key, ms]) => ms === undefined ? [] : [JSON.parse(key)[0]]),
  );
  for (
    const table of [
      ...shortLived,
      "sessions",
      "sessions_by_admin",
      "known_devices",
      "activity",
      "activity_by_job",
      "alerts",
      "alert_addresses",
      "alert_address_ids",
      "alert_tokens",
      "alert_confirmations",
      "alert_requests",
    ]
  ) {
    assert.ok(expiring.has(table), `the setup wrote no ${table} to expire`);
    let held = false;
    for await (const _ of t.kv.list({ prefix: [table] }, { limit: 1 })) held = true;
    assert.ok(held, `the database holds no ${table}`);
  }

  const tables = (text: string) =>
    new Set(text.trimEnd().split("\n").map((line) => JSON.parse(line).key[0]));
  const plain = await dumpText(t.kv);
  const full = await dumpText(t.kv, { withSecrets: true, withAlerts: true });
  for (const table of shortLived) {
    assert.ok(!tables(plain.text).has(table), `${table} in a dump`);
    assert.ok(!tables(full.text).has(table), `${table} in a dump with secrets and alerts`);
  }

  const elapsed = 10 * 60_000;
  const restored: Trap = { mode: null, expireIns: [], expiries: new Map() };
  await using target = await testApp();
  await restoreDatabase(trappedKv(target.kv, restored), new Blob([full.text]).stream(), {
    ...RESTORE,
    now: new Date(at.getTime() + elapsed),
  });
  assert.deepEqual(await everything(target.kv), await everything(t.kv));
  const forever = new Set<string>();
  const longer: string[] = [];
  for (const [key, ms] of restored.expiries!) {
    const table = JSON.parse(key)[0];
    const life = written.expiries!.get(key);
    if (life === undefined) {
      assert.equal(ms, undefined, `${key} was kept for good and restored to expire`);
    } else if (ms === undefined) {
      forever.add(table);
    } else if (ms > (FULL_TIME_AGAIN.has(table) ? life : life - elapsed)) {
      longer.push(`${key}: ${ms} ms, written for ${life} ms ${elapsed} ms before`);
    }
  }
  assert.deepEqual([...forever], [], "written to expire, restored to live for good");
  assert.deepEqual(longer, [], "restored to live longer than written to");
  for (const table of ["jobs", "admins", "job_counter", "analytics_day"]) {
    assert.ok(tables(full.text).has(table), table);
  }
});
