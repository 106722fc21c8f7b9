/** What could re-identify a visitor or a person who mistyped a sign-in is kept no longer than needed. */
import assert from "node:assert/strict";
import { visitorSalt } from "../../kv/analytics/recording.ts";
import { dumpDatabase } from "../../kv/backup.ts";
import { keys } from "../../kv/keys.ts";
import { startOfDayAfter } from "../../kv/days.ts";
import { activityExpiry } from "../../kv/activity.ts";
import { DAY_MS } from "../../kv/constants.ts";

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
