/**
 * The portal shows a date as the calendar day in the site's time zone, and a moment with its time
 * there, as the public pages do, whatever the zone of the admin's browser.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import { createJob, openAs } from "./helpers.ts";

Deno.test("the shell names the site's time zone", async () => {
  await using t = await testApp({ config: { TIMEZONE: "Asia/Kolkata" } });
  const html = await (await t.app.request("/admin/jobs")).text();
  assert.ok(html.includes('<meta name="site-time-zone" content="Asia/Kolkata"/>'));
});

Deno.test(
  {
    name: "a job posted at 20:00 UTC reads as the next day with TIMEZONE=Asia/Kolkata",
    ...browserTest,
  },
  async () => {
    // 20:00 UTC on 10 March is 01:30 on 11 March in India.
    await using s = await testServer({
      now: new Date("2026-03-10T20:00:00Z"),
      config: { TIMEZONE: "Asia/Kolkata" },
    });
    const main = await signIn(s, { main: true });
    const job = await createJob(s, main, sampleJob({ role: "Night Shift Engineer" }));
    await using browser = await launchBrowser();
    // A browser in New York, where that moment is still 10 March.
    const context = await browser.newContext({ timezoneId: "America/New_York" });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await openAs(page, s, main, "/admin/jobs");
    const row = page.getByRole("row").filter({ hasText: job.role });
    await row.getByText("Mar 11, 2026").waitFor();
    assert.equal(await row.getByText("Mar 10, 2026").count(), 0);

    // The activity log gives the moment with its time there too: 01:30 in India.
    await page.goto(`${s.url}/admin/activity`);
    const created = page.getByRole("row").filter({ hasText: "Job created" });
    // In the en-US form of every date the site shows.
    await created.getByText("Mar 11, 2026, 1:30:00 AM", { exact: true }).waitFor();
    await context.close();
  },
);
