/**
 * Job alert digests against a real SMTP server: at 08:00 (Mondays for weekly), the jobs that
 * became active since the last digest and match the search, at most 20 with a link to the rest,
 * none when nothing is new; one mail however many runs overlap; a refused send is retried by the
 * next run and then sent once. Then the digest's one-click unsubscribe.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { seedJobs } from "../public/fixtures.ts";
import { sendDigests } from "../../server/digests.ts";
import { createServices } from "../../server/app.ts";
import { nextDigestAt } from "../../kv/alerts.ts";
import { keys } from "../../kv/keys.ts";
import { ClockCheck } from "../../kv/clock.ts";
import { DAY_MS } from "../../kv/constants.ts";

const SITE = "https://jobs.example.com";
/** A Monday. */
const MONDAY = "2026-03-02";
const at = (day: string, time: string) => new Date(`${day}T${time}:00.000Z`);

async function setup() {
  const smtp = await testSmtp();
  const t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: at(MONDAY, "07:00"),
  });
  return { smtp, t };
}

async function confirmedAlert(
  t: Awaited<ReturnType<typeof testApp>>,
  email: string,
  query: Record<string, string>,
  frequency: "daily" | "weekly",
) {
  const requested = await t.services.alerts.request({ email, query, frequency });
  return (await t.services.alerts.confirm(requested!.confirm))!;
}

const postedAt = (day: string, time: string, n: number) =>
  new Date(at(day, time).getTime() + n * 1000).toISOString();

Deno.test("a daily digest: new matching jobs only, at most 20, once, retried after a refusal", async () => {
  const { smtp, t } = await setup();
  await using _smtp = smtp;
  await using _t = t;
  const alert = await confirmedAlert(t, "dev@example.com", { keywords: "python" }, "daily");
  assert.equal(alert.dueAt, at(MONDAY, "08:00").getTime());
  await seedJobs(t, [
    { role: "Old Python Developer", datePosted: postedAt(MONDAY, "06:00", 0) },
    ...Array.from({ length: 23 }, (_, i) => ({
      role: `Python Developer ${i + 1}`,
      datePosted: postedAt(MONDAY, "07:30", i),
    })),
    { role: "Chef", datePosted: postedAt(MONDAY, "07:40", 0) },
  ]);

  t.clock.now = at(MONDAY, "07:59");
  assert.equal((await sendDigests(t.services)).due, 0);

  t.clock.now = at(MONDAY, "08:00");
  // Two processes run the cron at once: one mail.
  const other = createServices({ kv: t.kv, config: t.services.config, now: () => t.clock.now });
  const runs = await Promise.all([sendDigests(t.services), sendDigests(other)]);
  other.mailer.close();
  assert.equal(runs[0].sent + runs[1].sent, 1);
  const [mail] = await smtp.received(1);
  assert.deepEqual(mail.to, ["dev@example.com"]);
  assert.match(mail.header("Subject")!, /^20\+ new jobs for “python” \| CareerEdge$/);
  assert.equal(mail.header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  assert.match(
    mail.header("List-Unsubscribe")!,
    /^<https:\/\/jobs\.example\.com\/alerts\/unsubscribe\?token=[\w-]{43}>$/,
  );
  assert.match(mail.header("Message-ID")!, new RegExp(`<digest-${alert.id}-`));
  const roles = [...mail.text.matchAll(/^Python Developer \d+$/gm)].map((m) => m[0]);
  assert.equal(roles.length, 20);
  assert.equal(roles[0], "Python Developer 23");
  assert.ok(!mail.text.includes("Old Python Developer"));
  assert.ok(!mail.text.includes("Chef"));
  assert.match(
    mail.text,
    /More new jobs and all jobs for this search: https:\/\/jobs\.example\.com\/jobs\?keywords=python&sortBy=datePosted/,
  );
  assert.match(
    mail.text,
    /Manage your alerts: https:\/\/jobs\.example\.com\/alerts\/manage\?token=/,
  );
  assert.match(mail.text, /CareerEdge, 42 MG Road, Indiranagar/);
  assert.match(
    mail.html,
    /<a href="https:\/\/jobs\.example\.com\/jobs\/JB-\d+" style="font-weight:bold">Python Developer 23<\/a>/,
  );
  assert.match(mail.html, /CareerEdge, 42 MG Road/);

  // Again at 08:15: nothing is due.
  t.clock.now = at(MONDAY, "08:15");
  assert.deepEqual(await sendDigests(t.services), {
    due: 0,
    sent: 0,
    failed: 0,
    empty: 0,
    taken: 0,
  });

  // Tuesday: nothing new, no mail.
  t.clock.now = at("2026-03-03", "08:00");
  assert.equal((await sendDigests(t.services)).empty, 1);

  // A new job Tuesday; Wednesday the server refuses the mail, the next run sends it once.
  await seedJobs(t, [{ role: "Python Lead", datePosted: postedAt("2026-03-03", "09:00", 0) }]);
  smtp.refuse = 1;
  t.clock.now = at("2026-03-04", "08:00");
  assert.equal((await sendDigests(t.services)).failed, 1);
  assert.equal(smtp.mails.length, 1);
  t.clock.now = at("2026-03-04", "08:15");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const [, retried] = await smtp.received(2);
  assert.match(retried.header("Subject")!, /^1 new job for “python”/);
  assert.match(retried.text, /^Python Lead$/m);
  t.clock.now = at("2026-03-04", "08:30");
  assert.equal((await sendDigests(t.services)).due, 0);
  assert.equal(smtp.mails.length, 2);

  const totals = await t.services.alerts.totals(["2026-03-02", "2026-03-04"]);
  assert.deepEqual(totals.days.map((d) => [d.sent, d.failed]), [[1, 0], [1, 1]]);
});

Deno.test("weekly digests go on Mondays; the digest's one-click unsubscribe removes the address", async () => {
  const { smtp, t } = await setup();
  await using _smtp = smtp;
  await using _t = t;
  t.clock.now = at("2026-03-03", "12:00");
  const alert = await confirmedAlert(t, "w@example.com", { location: "Pune" }, "weekly");
  assert.equal(alert.dueAt, at("2026-03-09", "08:00").getTime());
  await seedJobs(t, [{
    role: "Analyst",
    location: "Pune, India",
    datePosted: postedAt("2026-03-04", "10:00", 0),
  }]);
  t.clock.now = at("2026-03-08", "08:00");
  assert.equal((await sendDigests(t.services)).due, 0);
  t.clock.now = at("2026-03-09", "08:00");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const [mail] = await smtp.received(1);
  assert.equal((await t.services.alerts.get(alert.id))!.dueAt, at("2026-03-16", "08:00").getTime());

  const url = mail.header("List-Unsubscribe")!.slice(1, -1);
  const path = url.slice(SITE.length);
  // A GET shows a button and changes nothing.
  const shown = await t.app.request(path);
  assert.match(await shown.text(), /Unsubscribe<\/button>/);
  assert.ok(await t.services.alerts.get(alert.id));
  // The mailbox provider's one-click POST (RFC 8058).
  const response = await t.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  assert.equal(response.status, 200);
  assert.equal(await t.services.alerts.get(alert.id), null);
  assert.equal((await t.kv.get(keys.alertAddress("w@example.com"))).value, null);
  const left = [];
  for await (const entry of t.kv.list({ prefix: ["alerts_due"] })) left.push(entry.key);
  assert.deepEqual(left, []);
  assert.equal((await t.services.alerts.totals(["2026-03-09"])).confirmed, 0);
});

Deno.test("a server whose clock is days fast sends no digest: every alert stays due for the right clocks", async () => {
  const { smtp, t } = await setup();
  await using _smtp = smtp;
  await using _t = t;
  const alert = await confirmedAlert(t, "dev@example.com", { keywords: "python" }, "daily");
  await seedJobs(t, [{ role: "Python Developer", datePosted: postedAt(MONDAY, "07:30", 0) }]);
  t.clock.now = at(MONDAY, "08:00");
  // Another server on the same database, eight days fast; it and a right one beat in turns.
  const fast = createServices({
    kv: t.kv,
    config: t.services.config,
    now: () => new Date(t.clock.now.getTime() + 8 * DAY_MS),
  });
  const right = new ClockCheck(t.kv, () => t.clock.now);
  for (let beat = 0; beat < 3; beat++) {
    await fast.clock.beat();
    await right.beat();
  }
  assert.match((await fast.clock.verify()).reason ?? "", /disagrees with 1 of the 1 other/);
  assert.deepEqual(await sendDigests(fast), { due: 0, sent: 0, failed: 0, empty: 0, taken: 0 });
  fast.mailer.close();
  assert.equal((await t.services.alerts.get(alert.id))!.dueAt, at(MONDAY, "08:00").getTime());
  assert.equal(smtp.mails.length, 0);
  // The right clock's run sends it, once.
  assert.equal((await sendDigests(t.services)).sent, 1);
  assert.match((await smtp.received(1))[0].header("Subject")!, /^1 new job for “python”/);
});

Deno.test("digest times follow the site's time zone", () => {
  const after = new Date("2026-03-02T00:00:00Z");
  assert.equal(
    nextDigestAt("daily", after, "Asia/Kolkata").toISOString(),
    "2026-03-02T02:30:00.000Z",
  );
  assert.equal(
    nextDigestAt("daily", after, "Asia/Kathmandu").toISOString(),
    "2026-03-02T02:15:00.000Z",
  );
  assert.equal(
    nextDigestAt("daily", after, "America/New_York").toISOString(),
    "2026-03-02T13:00:00.000Z",
  );
  // Berlin moves its clocks on Sunday 29 March 2026: 08:00 is 07:00 UTC before, 06:00 after.
  assert.equal(
    nextDigestAt("weekly", new Date("2026-03-24T00:00:00Z"), "Europe/Berlin").toISOString(),
    "2026-03-30T06:00:00.000Z",
  );
  assert.equal(
    nextDigestAt("weekly", new Date("2026-03-10T00:00:00Z"), "Europe/Berlin").toISOString(),
    "2026-03-16T07:00:00.000Z",
  );
});
