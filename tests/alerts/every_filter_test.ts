/**
 * An alert takes every filter the job list has: company, pay and date posted too. The request keeps
 * them (JSON and the no-script form), the confirmation mail and the manage page say them in words,
 * and the digest honours them: a Date posted window is kept for the link to the search only, as a
 * digest holds nothing but jobs new since the last one.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { seedJobs } from "../public/fixtures.ts";
import { sendDigests } from "../../server/digests.ts";

const SITE = "https://jobs.example.com";
const at = (day: string, time: string) => new Date(`${day}T${time}:00.000Z`);

const ask = (t: Awaited<ReturnType<typeof testApp>>, body: unknown) =>
  t.app.request("/api/alerts", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, { remoteAddr: { hostname: "203.0.113.7", port: 1, transport: "tcp" } });

const WORDS = "“python” at Acme Labs · Remote · 10 LPA and up · Posted in the last 7 days";

Deno.test("company, pay and date posted are kept and said in words", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const response = await ask(t, {
    email: "all@example.com",
    keywords: "python",
    workMode: "Remote",
    company: " Acme Labs ",
    payMin: "1000000",
    postedWithin: "7",
    frequency: "daily",
  });
  assert.equal(response.status, 202);
  const [mail] = await smtp.received(1);
  assert.ok(mail.text.includes(`${WORDS} (daily)`), mail.text);
  assert.ok(mail.html.includes(WORDS));

  // A JSON client may send the numbers as numbers; pay that is not whole lakhs is said in rupees.
  await ask(t, { email: "all@example.com", payMin: 450_000, postedWithin: 1, frequency: "weekly" });
  const [, second] = await smtp.received(2);
  assert.ok(second.text.includes("4.5 LPA and up · Posted in the last 24 hours (weekly)"));
  await ask(t, { email: "odd@example.com", payMin: "123456", frequency: "weekly" });
  const [, , third] = await smtp.received(3);
  assert.ok(third.text.includes("₹1,23,456 a year and up (weekly)"));

  // The no-script form posts the same hidden fields as text.
  const form = new URLSearchParams({
    email: "form@example.com",
    company: "Acme Labs",
    payMin: "600000",
    postedWithin: "3",
    frequency: "daily",
  });
  assert.equal((await t.app.request("/alerts", { method: "POST", body: form })).status, 202);
  const [stored] = (await t.services.alerts.alertsOf("form@example.com")).alerts;
  assert.deepEqual(stored.query, { company: "Acme Labs", payMin: "600000", postedWithin: "3" });

  const [alert] = (await t.services.alerts.alertsOf("all@example.com")).alerts;
  assert.deepEqual(alert.query, {
    keywords: "python",
    workMode: "Remote",
    company: "Acme Labs",
    payMin: "1000000",
    postedWithin: "7",
  });
  const addressIds = await t.services.alerts.addressIds([alert.email]);
  const links = t.services.alerts.mailTokens(alert, addressIds.get(alert.email)!);
  await t.services.alerts.writeTokens(t.kv.atomic(), links).commit();
  const page = await (await t.app.request(`/alerts/manage?token=${links.manage}`)).text();
  assert.ok(page.includes(WORDS), "the manage page says the search in words");
  assert.ok(page.includes("4.5 LPA and up · Posted in the last 24 hours"));
  await smtp.received(4);
});

Deno.test("bad company, pay or date posted values are a 400 with a message", async () => {
  await using t = await testApp();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ payMin: "lots" }, /payMin.*whole number/],
    [{ payMin: -5 }, /payMin.*whole number/],
    [{ payMin: "1000000000" }, /payMin.*whole number/],
    [{ postedWithin: "2" }, /postedWithin.*must be one of 1, 3, 7, 14, 30/],
    [{ company: "x".repeat(201) }, /company.*at most 200/],
  ];
  for (const [filters, message] of cases) {
    const response = await ask(t, { email: "b@example.com", frequency: "daily", ...filters });
    assert.equal(response.status, 400, JSON.stringify(filters));
    assert.match((await response.json()).message, message);
  }
});

Deno.test("any search the job list takes becomes an alert: a pasted job title too", async () => {
  await using t = await testApp();
  // The list keeps the first 500 characters of each search box; its alert form sends them on.
  const pasted = "Senior Software Engineer, Payments Platform (Java, Kafka, AWS) – ".repeat(8)
    .slice(0, 499) + "s";
  const list = await t.app.request(
    `/jobs?${new URLSearchParams({ keywords: pasted, location: pasted })}`,
  );
  assert.equal(list.status, 200);
  const response = await ask(t, {
    email: "long@example.com",
    keywords: pasted,
    location: pasted,
    frequency: "daily",
  });
  assert.equal(response.status, 202, await response.text());
  const [alert] = (await t.services.alerts.alertsOf("long@example.com")).alerts;
  assert.deepEqual(alert.query, { keywords: pasted, location: pasted });
  const tooLong = await ask(t, {
    email: "long@example.com",
    keywords: `${pasted}x`,
    frequency: "daily",
  });
  assert.equal(tooLong.status, 400);
  assert.match((await tooLong.json()).message, /keywords.*at most 500/);
});

Deno.test("a digest honours company and pay; its Date posted window only shapes the link", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: at("2026-03-03", "12:00"),
  });
  const requested = await t.services.alerts.request({
    email: "w@example.com",
    query: { company: "acme labs", payMin: "1000000", postedWithin: "1" },
    frequency: "weekly",
  });
  await t.services.alerts.confirm(requested!.confirm);
  await seedJobs(
    t,
    [
      // Six days before the digest, outside a 24-hour window: still new to this alert.
      { role: "Well Paid Early", companyName: "Acme Labs", estPackage: "12-15 LPA" },
      { role: "Poorly Paid", companyName: "Acme Labs", estPackage: "4-6 LPA" },
      { role: "Pay Unknown", companyName: "Acme Labs", estPackage: "Competitive" },
      { role: "Elsewhere", companyName: "Other Co", estPackage: "20 LPA" },
      { role: "Well Paid Late", companyName: "ACME LABS", estPackage: "₹25,00,000 per annum" },
    ].map((spec, i) => ({ ...spec, datePosted: at("2026-03-03", `13:0${i}`).toISOString() })),
  );

  t.clock.now = at("2026-03-09", "08:00");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const [mail] = await smtp.received(1);
  const roles = [
    ...mail.text.matchAll(/^(Well Paid Early|Well Paid Late|Poorly Paid|Pay Unknown|Elsewhere)$/gm),
  ]
    .map((m) => m[1]);
  assert.deepEqual(roles, ["Well Paid Late", "Well Paid Early"]);
  assert.match(
    mail.header("Subject")!,
    /^2 new jobs at acme labs · 10 LPA and up · Posted in the last 24 hours \| CareerEdge$/,
  );
  assert.ok(
    mail.text.includes(
      `${SITE}/jobs?payMin=1000000&postedWithin=1&company=acme+labs&sortBy=datePosted`,
    ),
    mail.text,
  );
});

Deno.test("a digest mails only the jobs with every word, never a page of partial matches", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: at("2026-03-03", "12:00"),
  });
  for (const keywords of ["summer internship", "kotlin developer"]) {
    const requested = await t.services.alerts.request({
      email: `${keywords.replace(" ", ".")}@example.com`,
      query: { keywords },
      frequency: "daily",
    });
    await t.services.alerts.confirm(requested!.confirm);
  }
  const posted = at("2026-03-03", "13:00").toISOString();
  await seedJobs(t, [
    // An internship, but no job says summer: the page shows it as a partial match.
    {
      role: "Marketing Intern",
      employmentType: "Internship",
      experience: "intern",
      datePosted: posted,
    },
    { role: "Kotlin Developer", datePosted: posted },
  ]);
  const page = await t.app.request("/jobs?keywords=summer+internship");
  assert.match(await page.text(), /No job has every word you searched for/);

  t.clock.now = at("2026-03-04", "08:00");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const [mail] = await smtp.received(1);
  assert.equal(mail.header("To"), "kotlin.developer@example.com");
  assert.match(mail.text, /^Kotlin Developer$/m);
});
