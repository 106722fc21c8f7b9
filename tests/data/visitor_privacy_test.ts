/** What could re-identify a visitor or a person who mistyped a sign-in is kept no longer than needed. */
import assert from "node:assert/strict";
import { visitorSalt } from "../../kv/analytics/recording.ts";
import { dumpDatabase } from "../../kv/backup.ts";
import { keys } from "../../kv/keys.ts";
import { startOfDayAfter } from "../../kv/days.ts";
import { activityExpiry } from "../../kv/activity.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { encodeHex } from "../../kv/hex.ts";
import { testApp } from "../helpers/server.ts";
import { mainBody, request } from "../helpers/admins.ts";

async function dumpText(kv: Deno.Kv, withSecrets: boolean): Promise<string> {
  const chunks: Uint8Array[] = [];
  await dumpDatabase(kv, new WritableStream({ write: (chunk) => void chunks.push(chunk) }), {
    withSecrets,
  });
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
}

Deno.test("the visitor salt is never written into a dump, even one with secrets", async () => {
  await using kv = await Deno.openKv(":memory:");
  const salt = await visitorSalt(kv, "2026-06-01", new Date("2026-06-01T10:00:00Z"), "UTC");
  await kv.set(keys.analyticsDayTotal("2026-06-01", "visits"), new Deno.KvU64(1n));
  assert.ok((await kv.get(keys.analyticsSalt("2026-06-01"))).value);
  for (const withSecrets of [false, true]) {
    const text = await dumpText(kv, withSecrets);
    assert.match(text, /analytics_day/);
    assert.doesNotMatch(text, /analytics_salt/);
    assert.ok(!text.includes(btoa(String.fromCharCode(...salt))), "the salt's bytes");
  }
});

Deno.test("a day's salt lives until its day is older than yesterday", () => {
  const end = (now: string, day: string, zone: string) =>
    startOfDayAfter(new Date(now), day, zone).toISOString();
  // Made at 10:00 on June 1st (UTC): gone when June 3rd begins.
  assert.equal(end("2026-06-01T10:00:00Z", "2026-06-03", "UTC"), "2026-06-03T00:00:00.000Z");
  // In Kolkata (UTC+05:30) June 3rd begins at 18:30 UTC on June 2nd.
  assert.equal(
    end("2026-06-01T10:00:00Z", "2026-06-03", "Asia/Kolkata"),
    "2026-06-02T18:30:00.000Z",
  );
});

Deno.test("a restored failed sign-in keeps 30 days from when it happened, other records the full time", () => {
  const now = new Date("2026-06-11T00:00:00Z");
  const written = Date.parse("2026-06-01T00:00:00Z");
  const key = ["activity", `${written.toString(36).padStart(9, "0")}0000-abcdef12`];
  const expiry = activityExpiry(365, now);
  assert.equal(expiry(key, { action: "auth.sign_in_failed" }), 20 * DAY_MS);
  assert.equal(expiry(key, { action: "job.create" }), 355 * DAY_MS);
});

Deno.test("failed sign-ins keep a typed e-mail nowhere in KV unless it names an account, and then only with the account and in its log", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const typo = "asha.typo@mistyped.example";
  const known = mainBody.email.toLowerCase();
  for (const email of [typo, "Asha.Typo@Mistyped.example", mainBody.email]) {
    const answer = await request(t, "POST", "/api/admin/login", { email, password: "guess" });
    assert.equal(answer.status, 401);
  }

  const entries: Deno.KvEntry<unknown>[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) entries.push(entry);
  const holding = (text: string) =>
    entries.filter((entry) => JSON.stringify([entry.key, entry.value]).toLowerCase().includes(text))
      .map((entry) => entry.key[0]);
  const perAccount = entries.filter((entry) =>
    entry.key[0] === "login_failures" && entry.key[1] === "account"
  );
  assert.deepEqual(
    perAccount.map((entry) => (entry.value as { count: number }).count).sort(),
    [1, 2],
    "the typo's two spellings still count as one account",
  );
  assert.deepEqual(holding(typo), []);
  const plainHash = encodeHex(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(typo)),
  );
  assert.deepEqual(
    holding(plainHash),
    [],
    "nor its plain SHA-256, which a list of addresses finds",
  );
  assert.deepEqual(new Set(holding(known)), new Set(["admins", "admins_by_email", "activity"]));
  const { records } = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "auth.sign_in_failed",
  });
  assert.deepEqual(records.map((record) => record.change), [{ email: known }, null, null]);
});
