/** The main admin sees job alert totals (never an address); other admins get 403. */
import assert from "node:assert/strict";
import { testApp, testServer } from "../helpers/server.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { newPage, openAs } from "../admin/helpers.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { request, signIn } from "../helpers/admins.ts";

Deno.test("job alert totals: main admin only, totals only", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url } });
  const { alerts } = t.services;
  for (const email of ["a@example.com", "b@example.com"]) {
    const requested = await alerts.request({ email, query: {}, frequency: "daily" });
    await alerts.confirm(requested!.confirm);
  }
  await alerts.countDay("sent", 3);
  await alerts.countDay("failed");

  const main = await signIn(t, { main: true });
  const response = await request(t, "GET", "/api/admin/alerts?days=7", undefined, main.headers);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("cache-control"), "no-store");
  const totals = response.body;
  assert.ok(!JSON.stringify(totals).includes("@"), "no address");
  assert.equal(totals.confirmed, 2);
  assert.equal(totals.days.length, 7);
  assert.deepEqual(totals.days.at(-1), {
    day: alerts.day(),
    sent: 3,
    failed: 1,
    confirmed: 2,
  });

  const other = await signIn(t, { permissions: { canViewAnalytics: true, canManageAdmins: true } });
  assert.equal(
    (await request(t, "GET", "/api/admin/alerts", undefined, other.headers)).status,
    403,
  );
  assert.equal((await request(t, "GET", "/api/admin/alerts")).status, 401);
  const bad = await request(t, "GET", "/api/admin/alerts?days=0", undefined, main.headers);
  assert.equal(bad.status, 400);
});

Deno.test("the dashboard's Job Alerts card, for the main admin only", browserTest, async () => {
  await using s = await testServer();
  const requested = await s.services.alerts.request({
    email: "a@example.com",
    query: {},
    frequency: "daily",
  });
  await s.services.alerts.confirm(requested!.confirm);
  await s.services.alerts.countDay("sent", 2);
  await using browser = await launchBrowser();
  const main = await signIn(s, { main: true });
  const { page } = await newPage(browser);
  await openAs(page, s, main, "/admin/dashboard");
  const card = page.getByRole("region", { name: "Job Alerts" });
  // The figures show "—" until the totals are in; the table of days comes with them.
  await card.getByRole("table", { name: "Mails per day" }).waitFor();
  assert.equal(await card.locator("dd").first().textContent(), "1");
  await screenshot(card, "alerts-admin-card");

  const other = await signIn(s, { permissions: { canViewAnalytics: true } });
  const { page: second } = await newPage(browser);
  await openAs(second, s, other, "/admin/dashboard");
  await second.getByRole("heading", { name: "Performance" }).waitFor();
  assert.equal(await second.getByRole("region", { name: "Job Alerts" }).count(), 0);
});
