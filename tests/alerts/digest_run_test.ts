/**
 * A digest run's economy, against a real SMTP server: alerts with the same search and jobs share
 * one rendered mail yet each gets its own links; claims and ends of sends are written in groups of
 * ten, and an alert changed meanwhile is left to the store's own finish.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";
import { seedJobs } from "../public/fixtures.ts";
import { sendDigests } from "../../server/digests.ts";

const SITE = "https://jobs.example.com";
const MONDAY = new Date("2026-03-02T07:00:00Z");
const AT_EIGHT = new Date("2026-03-02T08:00:00Z");

async function confirmed(t: Awaited<ReturnType<typeof testApp>>, count: number, keywords = "go") {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const requested = await t.services.alerts.request({
      email: `seeker${i}@example.com`,
      query: { keywords },
      frequency: "daily",
    });
    ids.push((await t.services.alerts.confirm(requested!.confirm))!.id);
  }
  return ids;
}

Deno.test("alerts with the same jobs share a mail, each with its own working links", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE }, now: MONDAY });
  const ids = await confirmed(t, 3);
  await seedJobs(t, [{ role: "Go Developer", datePosted: "2026-03-02T07:30:00.000Z" }]);
  t.clock.now = AT_EIGHT;
  assert.equal((await sendDigests(t.services)).sent, 3);
  const mails = await smtp.received(3);
  const unsubscribes = mails.map((mail) => mail.header("List-Unsubscribe")!.slice(1, -1));
  assert.equal(new Set(unsubscribes).size, 3);
  const token = /token=[\w-]{43}/g;
  const messageIds = new Set(mails.map((mail) => mail.header("Message-ID")));
  assert.equal(messageIds.size, 3);
  for (const [i, mail] of mails.entries()) {
    // Each copy of the shared message has its own address and id in its headers too.
    assert.equal(mail.header("To"), mail.to[0]);
    assert.match(mail.header("Message-ID")!, /^<digest-[\w-]+-\d+@jobs\.example\.com>$/);
    assert.match(mail.header("From")!, /CareerEdge <no-reply@jobs\.example\.com>/);
    assert.match(mail.header("Subject")!, /^1 new job for “go” \| CareerEdge$/);
    assert.ok(mail.header("Date"));
    assert.match(mail.raw, /^Content-Type: multipart\/alternative;/m);
    assert.ok(!mail.raw.includes("stand-in"));
    assert.ok(mail.text.includes(`Unsubscribe: ${unsubscribes[i]}`));
    assert.ok(mail.html.includes(`href="${unsubscribes[i]}"`));
    assert.equal(mail.text.replace(token, ""), mails[0].text.replace(token, ""));
    assert.match(mail.text, /^Go Developer$/m);
  }
  // Each link is its own alert's.
  const to = mails[1].to[0];
  const unsubscribed = await t.app.request(unsubscribes[1].slice(SITE.length), { method: "POST" });
  assert.equal(unsubscribed.status, 200);
  const left = await Promise.all(ids.map((id) => t.services.alerts.get(id)));
  assert.deepEqual(left.map((alert) => alert?.email ?? null).filter((email) => email === to), []);
  assert.equal(left.filter(Boolean).length, 2);
  // Each manage link shows its own address.
  for (const mail of mails.filter((mail) => mail.to[0] !== to)) {
    const manage = mail.text.match(/Manage your alerts: (\S+)/)![1].slice(SITE.length);
    assert.match(await (await t.app.request(manage)).text(), new RegExp(mail.to[0]));
  }
});

Deno.test("claims and ends of sends go ten to a write; a changed alert is left to the store", async () => {
  const trap: Trap = { mode: null, expireIns: [] };
  await using t = await testApp({ now: MONDAY, wrapKv: (kv) => trappedKv(kv, trap) });
  const { alerts } = t.services;
  const ids = await confirmed(t, 12);
  const writes = alerts.digestWrites();
  const held = await writes.read(ids);
  assert.equal(held.length, 12);

  const addressIds = await alerts.addressIds(held.map((one) => one.alert.email));
  const links = held.map((one) => alerts.mailTokens(one.alert, addressIds.get(one.alert.email)!));
  trap.commits = 0;
  const claimed = await Promise.all(
    held.map((one, i) => writes.claim(one, AT_EIGHT, 60_000, links[i])),
  );
  assert.equal(claimed.filter(Boolean).length, 12);
  assert.equal(trap.commits, 2, "twelve claims in two writes");
  // Claimed again from the same reads: each has changed, none is taken twice.
  const again = await Promise.all(
    held.map((one, i) => writes.claim(one, AT_EIGHT, 60_000, links[i])),
  );
  assert.deepEqual(again.filter(Boolean), []);

  // Its owner pauses one while its mail goes.
  await alerts.setPaused((await alerts.get(ids[3]))!, true);
  trap.commits = 0;
  const next = new Date("2026-03-03T08:00:00Z");
  await Promise.all(claimed.map((one) => writes.finish(one!, AT_EIGHT, next)));
  // The group with the paused alert fails its check, and its writes go one by one.
  assert.equal(trap.commits, 1 + 10 + 1);
  const after = await Promise.all(ids.map((id) => alerts.get(id)));
  for (const [i, alert] of after.entries()) {
    if (i === 3) {
      assert.deepEqual([alert!.status, alert!.dueAt], ["paused", null]);
      continue;
    }
    assert.deepEqual([alert!.sendingUntil, alert!.since, alert!.dueAt], [
      null,
      AT_EIGHT.toISOString(),
      next.getTime(),
    ]);
  }
  assert.deepEqual(
    (await alerts.due(new Date("2026-03-04T00:00:00Z"))).sort(),
    ids.filter((_, i) => i !== 3).sort(),
  );
  assert.equal((await alerts.totals([alerts.day()])).days[0].sent, 11);
});
