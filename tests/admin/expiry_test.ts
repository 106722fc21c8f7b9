/** The Expiry Date field of Create and Edit Job, and Manage Jobs showing it, at 390 px in Chromium. */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import {
  apiCall,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  newPage,
  openAs,
  press,
} from "./helpers.ts";
import type { JobWithAnalytics } from "../../kv/schemas.ts";
import { addDays, dayOf } from "../../kv/days.ts";

const TIMEZONE = "Asia/Kolkata";

const shortDay = (day: string) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));

Deno.test({
  name: "Expiry Date: the form field, its check and Manage Jobs at 390 px",
  ...browserTest,
}, async (t) => {
  // The server's clock stays at this moment; the browser's moves on, so the dates chosen are days
  // away from either end of the range and the test passes at any time of day.
  const now = new Date();
  await using s = await testServer({ now, config: { TIMEZONE } });
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();
  const { page } = await newPage(browser, 390);
  const today = dayOf(now, TIMEZONE);
  const expiry = page.getByLabel("Expiry Date");

  await t.step(
    "Create Job has a date field with its help text; a past day is refused",
    async () => {
      await openAs(page, s, main, "/admin/jobs/create");
      await expectHeading(page, "Create Job");
      assert.equal(await expiry.getAttribute("type"), "date");
      assert.match(
        await expiry.evaluate((input) =>
          document.getElementById(input.getAttribute("aria-describedby")!)!.textContent
        ) ?? "",
        /After this day the job closes on its own/,
      );
      const min = await expiry.getAttribute("min");
      assert.ok(min && min > addDays(today, -1) && min <= addDays(today, 2), `min ${min}`);
      await page.getByLabel("Company Name").fill("Umbrella");
      await page.getByRole("textbox", { name: "Role", exact: true }).fill("Expiring Engineer");
      await page.getByLabel("Location").fill("Hyderabad");
      await page.getByLabel("Experience").selectOption("3+");
      await page.getByLabel("Hiring Link").fill("https://careers.example.com/jobs/expiring");
      await page.getByLabel("Job Description").fill("Run the platform.");
      await page.getByLabel("Required Degree").fill("Any degree");
      await expiry.fill(addDays(today, -3));
      await press(page.getByRole("button", { name: "Create Job" }));
      await expectText(page, "Expiry Date must be from tomorrow to a year ahead");
      assert.equal(await expiry.getAttribute("aria-invalid"), "true");
      await expectAccessible(page);
    },
  );

  const day = addDays(today, 5);
  await t.step("a day ahead is saved as that day and shown in Manage Jobs", async () => {
    await expiry.fill(day);
    await press(page.getByRole("button", { name: "Create Job" }));
    await expectToast(page, "Job created successfully!");
    await page.waitForURL(`${s.url}/admin/jobs`);
    const row = page.locator("tbody tr").filter({ hasText: "Expiring Engineer" });
    await row.getByText(`Expires ${shortDay(day)}`).waitFor();
    const { jobs } = await apiCall<{ jobs: JobWithAnalytics[] }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all?search=Expiring",
    );
    assert.equal(jobs[0].expiresAt, `${day}T23:59:59.999+05:30`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await screenshot(page, "expiry-manage-390");
  });

  await t.step("Edit Job shows the day and can clear it", async () => {
    const { jobs } = await apiCall<{ jobs: JobWithAnalytics[] }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all?search=Expiring",
    );
    await openAs(page, s, main, `/admin/jobs/edit/${jobs[0]._id}`);
    assert.equal(await expiry.inputValue(), day);
    await screenshot(page, "expiry-edit-390");
    await expiry.fill("");
    await press(page.getByRole("button", { name: /^Update/ }));
    await expectToast(page, "Job updated successfully!");
    const after = await apiCall<{ jobs: JobWithAnalytics[] }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all?search=Expiring",
    );
    assert.equal(after.jobs[0].expiresAt, undefined);
  });
});
