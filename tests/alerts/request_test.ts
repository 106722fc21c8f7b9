/**
 * Asking for a job alert against a real SMTP server: one confirmation mail, with both parts, the
 * site's name and address and one-click unsubscribe; a GET of its link confirms nothing, the POST
 * does; the same answer whatever the address; the limits; bad input is a 400 with a message.
 */
import assert from "node:assert/strict";
import { mailsSent } from "../../server/mail.ts";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { keys } from "../../kv/keys.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";
import { describeSearch } from "../../routes/alerts/mail.tsx";
import type { AlertQuery } from "../../kv/alerts.ts";
import {
  ALERT_REQUESTS_PER_HOUR,
  DAY_MS,
  DIGEST_HOUR,
  MAIL_LINK_DAYS,
  MAX_ALERTS_PER_ADDRESS,
  MAX_EMAIL_LENGTH,
  PENDING_ALERT_DAYS,
} from "../../kv/constants.ts";

const SITE = "https://jobs.example.com";

async function setup() {
  const smtp = await testSmtp();
  const app = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  return { smtp, app };
}

const ask = (t: Awaited<ReturnType<typeof testApp>>, body: unknown, address = "203.0.113.5") =>
  t.app.request("/api/alerts", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, { remoteAddr: { hostname: address, port: 1, transport: "tcp" } });

const linkIn = (text: string, page: string) =>
  text.match(new RegExp(`${SITE}/alerts/${page}\\?token=[A-Za-z0-9_%-]+`))?.[0];

Deno.test("an alert is confirmed by the POST of its mail's link, never by a GET", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const started = performance.now();
  const response = await ask(t, {
    email: "  Seeker@Example.COM ",
    keywords: "python",
    location: "Pune",
    employmentType: "Full-Time",
    frequency: "weekly",
  });
  assert.equal(response.status, 202);
  assert.ok(performance.now() - started < 1000);
  const timing = Number(response.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1]);
  console.log(`POST /api/alerts server time: ${timing} ms`);
  const body = await response.json();
  assert.match(body.message, /Check your inbox/);

  const [mail] = await smtp.received(1);
  assert.deepEqual(mail.to, ["seeker@example.com"]);
  assert.match(mail.header("Subject")!, /Confirm your job alert on CareerEdge/);
  assert.match(mail.header("From")!, /CareerEdge <no-reply@jobs\.example\.com>/);
  assert.equal(mail.header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  assert.match(
    mail.header("List-Unsubscribe")!,
    /^<https:\/\/jobs\.example\.com\/alerts\/unsubscribe\?token=/,
  );
  assert.match(mail.text, /“python” in Pune · Full-Time \(weekly\)/);
  assert.match(mail.text, /42 MG Road, Indiranagar/);
  assert.match(mail.html, /<a href="https:\/\/jobs\.example\.com\/alerts\/confirm\?token=/);
  assert.match(mail.html, /CareerEdge, 42 MG Road/);
  assert.ok(mail.text.includes(`the request is deleted in ${PENDING_ALERT_DAYS} days.`));

  const confirm = linkIn(mail.text, "confirm")!;
  const path = confirm.slice(SITE.length);
  // A mail scanner fetches the link: nothing happens.
  const shown = await t.app.request(path);
  assert.equal(shown.status, 200);
  assert.equal(shown.headers.get("cache-control"), "no-store");
  assert.equal(shown.headers.get("referrer-policy"), "no-referrer");
  assert.match(await shown.text(), /Confirm the alert<\/button>/);
  const [alert] = await t.services.alerts.alertsOf("seeker@example.com").then((a) => a.alerts);
  assert.equal(alert.status, "pending");

  const confirmed = await t.app.request(path, { method: "POST" });
  assert.equal(confirmed.status, 200);
  const on = await confirmed.text();
  assert.match(on, /Your job alert is on/);
  assert.match(
    on,
    new RegExp(`New jobs come every Monday (morning|afternoon|evening) at ${DIGEST_HOUR % 12},`),
  );
  assert.equal((await t.services.alerts.get(alert.id))!.status, "active");
  // The link is used up.
  const used = await t.app.request(path);
  assert.equal(used.status, 404);
  assert.ok(
    (await used.text()).includes(
      `Links in our mails work for ${MAIL_LINK_DAYS} days, and a confirmation link for ` +
        `${PENDING_ALERT_DAYS} days.`,
    ),
  );
  // Stored: only the token's hash.
  const token = decodeURIComponent(path.split("token=")[1]);
  for await (const entry of t.kv.list({ prefix: ["alert_tokens"] })) {
    assert.ok(!JSON.stringify(entry.key).includes(token));
  }
  // The mail is counted once its send is done on this side (the server may have it before).
  await mailsSent();
  const totals = await t.services.alerts.totals([t.services.alerts.day()]);
  assert.equal(totals.confirmed, 1);
  assert.equal(totals.days[0].sent, 1);
});

Deno.test("the same answer whatever the address, and the limits per address", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const first = await ask(t, { email: "a@example.com", keywords: "one", frequency: "daily" });
  const again = await ask(t, { email: "a@example.com", keywords: "one", frequency: "daily" });
  assert.deepEqual(await again.json(), await first.json());
  await ask(t, { email: "a@example.com", keywords: "two", frequency: "daily" });
  // A fourth confirmation mail in a day is not sent, yet the answer is the same.
  const fourth = await ask(t, { email: "a@example.com", keywords: "three", frequency: "daily" });
  assert.equal(fourth.status, 202);
  // Every mail is handed to the sender before its answer goes out: once those sent after these
  // four answers are through, a fourth confirmation would have reached the SMTP server.
  await mailsSent();
  assert.equal(smtp.mails.length, 3);
  const { alerts } = await t.services.alerts.alertsOf("a@example.com");
  assert.deepEqual(alerts.map((a) => a.query.keywords).sort(), ["one", "two"]);
  // The same search written with other capitals and spaces is the same alert.
  const frontend = { email: "c@example.com", frequency: "daily" };
  await ask(t, { ...frontend, keywords: "frontend developer", location: "Bengaluru" });
  await ask(t, { ...frontend, keywords: "Frontend  Developer ", location: "bengaluru" });
  assert.equal((await t.services.alerts.alertsOf("c@example.com")).alerts.length, 1);

  // At most MAX_ALERTS_PER_ADDRESS alerts per address.
  for (let i = 0; i < MAX_ALERTS_PER_ADDRESS + 2; i++) {
    await t.services.alerts.request({
      email: "b@example.com",
      query: { keywords: `k${i}` },
      frequency: "daily",
    }).then(() => t.kv.delete(keys.alertConfirmations("b@example.com")));
  }
  assert.equal(
    (await t.services.alerts.alertsOf("b@example.com")).alerts.length,
    MAX_ALERTS_PER_ADDRESS,
  );
});

Deno.test("the frequency is read in any capitals, as the filters' options are", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  for (const [email, frequency] of [["w@example.com", "Weekly"], ["d@example.com", "DAILY"]]) {
    const response = await ask(t, { email, keywords: "chef", frequency });
    assert.equal(response.status, 202, frequency);
    const { alerts } = await t.services.alerts.alertsOf(email);
    assert.deepEqual(alerts.map((alert) => alert.frequency), [frequency.toLowerCase()]);
  }
  await mailsSent();
});

Deno.test("bad addresses are a 400 with a message; one client is limited per hour", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const cases: [unknown, RegExp][] = [
    [
      { email: `${"a".repeat(MAX_EMAIL_LENGTH - 4)}@x.io`, frequency: "daily" },
      new RegExp(`at most ${MAX_EMAIL_LENGTH} characters`),
    ],
    [{ email: "a\u0007b@example.com", frequency: "daily" }, /control characters/],
    [{ email: "someone@localhost", frequency: "daily" }, /domain must contain a dot/],
    [{ email: "not an address", frequency: "daily" }, /valid email/],
    [{ email: "a@example.com", frequency: "hourly" }, /daily or weekly/],
    [{ email: "a@example.com", frequency: "daily", experience: "Astronaut" }, /must be one of/],
  ];
  for (const [body, message] of cases) {
    const response = await ask(t, body, "198.51.100.9");
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match((await response.json()).message, message);
  }
  const statuses = [];
  for (let i = 0; i <= ALERT_REQUESTS_PER_HOUR; i++) {
    statuses.push((await ask(t, { email: `c${i}@example.com`, frequency: "daily" })).status);
  }
  assert.equal(statuses.at(-1), 429);
  assert.equal(statuses.filter((s) => s === 202).length, ALERT_REQUESTS_PER_HOUR);
  await smtp.received(ALERT_REQUESTS_PER_HOUR);
});

Deno.test("the no-script form posts to /alerts and gets a page; a refused one says why and leads back to its search", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const form = new URLSearchParams({ email: "n@example.com", keywords: "go", frequency: "daily" });
  const response = await t.app.request("/alerts", { method: "POST", body: form });
  assert.equal(response.status, 202);
  assert.match(await response.text(), /Check your inbox/);
  const bad = await t.app.request("/alerts", {
    method: "POST",
    body: new URLSearchParams({
      email: "n@localhost",
      keywords: "go & rust",
      workMode: "Remote",
      frequency: "daily",
    }),
  });
  assert.equal(bad.status, 400);
  const page = await bad.text();
  // The message as a person reads it (no field name before it), and the way back to the search.
  assert.match(
    page,
    /<p role="alert">Email&#x27;s domain must contain a dot, such as example.com<\/p>/,
  );
  assert.ok(
    page.includes('<a href="/jobs?keywords=go+%26+rust&amp;workMode=Remote">Back to the jobs</a>'),
  );
  await smtp.received(1);
});

Deno.test(`an unconfirmed alert expires after ${PENDING_ALERT_DAYS} days; a confirmed one is kept`, async () => {
  const trap: Trap = { mode: null, expireIns: [], expiries: new Map() };
  await using t = await testApp({ wrapKv: (kv) => trappedKv(kv, trap) });
  const requested = await t.services.alerts.request({
    email: "e@example.com",
    query: { keywords: "go" },
    frequency: "daily",
  });
  const alertKey = JSON.stringify(keys.alert(requested!.alert.id));
  const addressKey = JSON.stringify(keys.alertAddress("e@example.com"));
  assert.equal(trap.expiries!.get(alertKey), PENDING_ALERT_DAYS * DAY_MS);
  assert.equal(trap.expiries!.get(addressKey), PENDING_ALERT_DAYS * DAY_MS);
  const { id } = (await t.kv.get<{ id: string }>(keys.alertAddress("e@example.com"))).value!;
  const byIdKey = JSON.stringify(keys.alertAddressById(id));
  assert.equal(trap.expiries!.get(byIdKey), PENDING_ALERT_DAYS * DAY_MS);
  await t.services.alerts.confirm(requested!.confirm);
  assert.equal(trap.expiries!.get(alertKey), undefined);
  assert.equal(trap.expiries!.get(addressKey), undefined);
  assert.equal(trap.expiries!.get(byIdKey), undefined);
});

Deno.test("an alert's search reads as words after 'for' and at the start of a line", () => {
  const cases: [AlertQuery, string, string][] = [
    [{ company: "Orbitly" }, "jobs at Orbitly", "Jobs at Orbitly"],
    [{ location: "Pune" }, "jobs in Pune", "Jobs in Pune"],
    [{}, "all jobs", "All jobs"],
    [
      { keywords: "python", company: "Acme", location: "Pune", employmentType: "Full-Time" },
      "“python” at Acme in Pune · Full-Time",
      "“python” at Acme in Pune · Full-Time",
    ],
    [
      { workMode: "Remote", postedWithin: "7" },
      "Remote · Posted in the last 7 days",
      "Remote · Posted in the last 7 days",
    ],
  ];
  for (const [query, inSentence, atStart] of cases) {
    assert.equal(describeSearch(query), inSentence);
    assert.equal(describeSearch(query, true), atStart);
  }
});
