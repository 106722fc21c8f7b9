/**
 * A digest the mail server accepted is not sent again after a crash: its send is marked in KV at
 * once. `deno task alerts:send` is killed (SIGKILL) while a second digest hangs at the server; once
 * the claims' hold is over, the next run sends the unanswered one and not the accepted one. The
 * one window left, a crash between the accept and the mark, sends the digest again with the same
 * Message-ID.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { cli } from "../helpers/cli.ts";
import { waitFor } from "../helpers/wait.ts";
import { openTestKv, type Trap, trappedKv } from "../helpers/kv.ts";
import { seedJobs } from "../public/fixtures.ts";
import { sendDigests } from "../../server/digests.ts";
import { type Alert, AlertStore } from "../../kv/alerts.ts";

const SITE = "https://jobs.example.com";
const MONDAY = new Date("2026-03-02T07:00:00Z");
/** Longer than a claim holds an alert. */
const AFTER_THE_HOLD = 11 * 60 * 1000;

async function alertOf(t: Awaited<ReturnType<typeof testApp>>, email: string): Promise<Alert> {
  return (await t.services.alerts.alertsOf(email)).alerts[0];
}

Deno.test("a digest accepted before a kill -9 is not sent again; the unanswered one is", async () => {
  await using smtp = await testSmtp();
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/alerts.kv`;
  try {
    {
      await using t = await testApp({ kvPath, now: MONDAY });
      for (const email of ["sent@example.com", "hung@example.com"]) {
        const requested = await t.services.alerts.request({
          email,
          query: { keywords: "welder" },
          frequency: "daily",
        });
        await t.services.alerts.confirm(requested!.confirm);
      }
      await seedJobs(t, [{ role: "Welder", datePosted: "2026-03-02T07:30:00.000Z" }]);
    }
    smtp.hold.add("hung@example.com");
    // At the real time, long after the alerts' 08:00 on 2 March 2026 (a CLI refuses a clock set
    // back, so the run's time of day is the machine's).
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, "send-alerts"],
      env: { DENO_KV_PATH: kvPath, SMTP_URL: smtp.url, SITE_URL: SITE, NODE_ENV: "production" },
      stdout: "null",
      stderr: "null",
    }).spawn();
    const startedAt = Date.now();
    await smtp.received(1);
    await smtp.held(1);
    {
      // The accepted digest's mark, as another process sees it.
      await using kv = await openTestKv({ path: kvPath });
      const alerts = new AlertStore(kv, () => new Date(), "UTC");
      await waitFor(
        "the accepted digest's mark",
        async () => (await alerts.alertsOf("sent@example.com")).alerts[0].sendingUntil === null,
        30_000,
      );
    }
    child.kill("SIGKILL");
    assert.equal((await child.status).signal, "SIGKILL");
    smtp.hold.clear();

    await using t = await testApp({
      kvPath,
      config: { SMTP_URL: smtp.url, SITE_URL: SITE },
      now: new Date(startedAt + AFTER_THE_HOLD),
    });
    const run = await sendDigests(t.services);
    // One digest to send. The accepted one's next is due too when the hold ends after the next
    // 08:00 (a run started within minutes of it): with no job since, it goes out empty, unsent.
    assert.deepEqual([run.due - run.empty, run.sent], [1, 1]);
    const mails = await smtp.received(2);
    assert.deepEqual(mails.map((mail) => mail.to[0]), ["sent@example.com", "hung@example.com"]);
    assert.equal((await alertOf(t, "hung@example.com")).sendingUntil, null);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a crash between the server's accept and the mark sends the digest again, with the same id", async () => {
  await using smtp = await testSmtp();
  const trap: Trap = { mode: null, expireIns: [] };
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: MONDAY,
    wrapKv: (kv) => trappedKv(kv, trap),
  });
  const requested = await t.services.alerts.request({
    email: "w@example.com",
    query: { keywords: "welder" },
    frequency: "daily",
  });
  await t.services.alerts.confirm(requested!.confirm);
  await seedJobs(t, [{ role: "Welder", datePosted: "2026-03-02T07:30:00.000Z" }]);

  // The claim is written; the mark after the accept is not (the process "dies" there).
  t.clock.now = new Date("2026-03-02T08:00:00Z");
  trap.after = 1;
  trap.mode = "crash";
  assert.equal((await sendDigests(t.services)).failed, 1);
  const [first] = await smtp.received(1);
  // Held by the claim for 10 minutes, then sent again: the same digest, the same Message-ID.
  t.clock.now = new Date("2026-03-02T08:05:00Z");
  assert.equal((await sendDigests(t.services)).due, 0);
  t.clock.now = new Date("2026-03-02T08:15:00Z");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const [, second] = await smtp.received(2);
  assert.equal(second.header("Message-ID"), first.header("Message-ID"));
  assert.match(second.text, /^Welder$/m);
  t.clock.now = new Date("2026-03-03T08:00:00Z");
  assert.equal((await sendDigests(t.services)).empty, 1);
  assert.equal(smtp.mails.length, 2);
});
