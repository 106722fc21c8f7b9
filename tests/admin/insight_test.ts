/** The Analytics screen's Sources and Searches tabs and a job's Insight screen, at 1366 and 390 px. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { emptyDayCounts, recordDay, recordEngagements } from "../../kv/analytics/recording.ts";
import { recordDimensions } from "../../kv/analytics/dimensions.ts";
import { jobRef } from "../../kv/analytics/types.ts";
import { dayOf } from "../../kv/days.ts";
import {
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  newPage,
  openAs,
  selectTab,
} from "./helpers.ts";

/** The page is no wider than the window: nothing sits off screen without a way to scroll to it. */
async function expectNoSidewaysScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    globalThis.innerWidth,
  ]);
  assert.ok(scroll <= width, `the page is ${scroll} px wide in a ${width} px window`);
}

/** A table cell in the named table's row for `name` shows `value`. */
async function expectRow(page: Page, table: string, name: string, values: string[]) {
  const row = page.getByRole("region", { name: table }).locator("tr").filter({
    has: page.getByRole("cell", { name, exact: true }),
  });
  for (const value of values) {
    const cell = row.getByRole("cell", { name: value, exact: true });
    await cell.waitFor();
    // Readable where it is: inside the window, not clipped off to the right.
    const box = await cell.boundingBox();
    const width = page.viewportSize()!.width;
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${table}: ${name} ${value}`);
  }
}

Deno.test({ name: "Insight: sources, searches and a job's days", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Python Developer" }));
  const quiet = await createJob(s, main, sampleJob({ role: "Quiet Role" }));
  const older = await createJob(s, main, sampleJob({ role: "Older Role" }));
  // The server's today, whatever the time this runs.
  const day = dayOf(s.clock.now, s.services.config.TIMEZONE);
  // 40 views and 6 clicks, and 4 more views whose sources are known: 44 views.
  const counts = emptyDayCounts();
  counts.visits = 60;
  counts.views.set(job._id, 40);
  counts.clicks.set(job._id, 6);
  counts.jobs.set(job._id, jobRef(job));
  // Views from before sources were kept, and none since.
  counts.views.set(older._id, 9);
  counts.jobs.set(older._id, jobRef(older));
  await recordDay(s.kv, day, counts);
  await recordEngagements(s.kv, day, [
    ...Array.from({ length: 3 }, (_, i) => ({
      visitor: `google-${i}`,
      kind: "views" as const,
      ref: jobRef(job),
      source: "Google",
    })),
    { visitor: "whatsapp-0", kind: "views", ref: jobRef(job), source: "WhatsApp" },
  ]);
  await recordDimensions(s.kv, day, [
    { dimension: "sources", value: "Google", add: { n: 30 } },
    { dimension: "sources", value: "LinkedIn", add: { n: 12 } },
    { dimension: "sources", value: "WhatsApp", add: { n: 5 } },
    { dimension: "sources", value: "Direct / None", add: { n: 3 } },
    { dimension: "utm_source", value: "whatsapp", add: { n: 5 } },
    { dimension: "utm_campaign", value: "spring-hiring", add: { n: 4 } },
    { dimension: "searches", value: "python developer", add: { n: 25 }, latest: { results: 3 } },
    { dimension: "searches", value: "pyhton", add: { n: 7, zero: 7 }, latest: { results: 0 } },
  ]);
  const analyst = await signIn(s, { permissions: { canViewAnalytics: true, canCreateJobs: true } });
  const recruiter = await signIn(s, { permissions: { canCreateJobs: true } });

  await using browser = await launchBrowser();
  for (const width of [1366, 390]) {
    const { page, context } = await newPage(browser, width);

    await t.step(
      `${width} px: the Sources tab charts and lists where visits came from`,
      async () => {
        await openAs(page, s, analyst, "/admin/analytics");
        await selectTab(page, "Sources");
        await page.waitForURL(`${s.url}/admin/analytics?tab=sources`);
        await page.getByRole("img", { name: "Visits by source, last 7 days" }).waitFor();
        await expectRow(page, "Traffic Sources", "Google", ["30", "60%"]);
        await expectRow(page, "Traffic Sources", "LinkedIn", ["12", "24%"]);
        await expectRow(page, "Traffic Sources", "Direct / None", ["3", "6%"]);
        await expectRow(page, "Campaign Sources (utm_source)", "whatsapp", ["5"]);
        await expectRow(page, "Campaigns (utm_campaign)", "spring-hiring", ["4"]);
        await expectNoSidewaysScroll(page);
        await expectAccessible(page);
        await screenshot(page, `sources-${width}`);
      },
    );

    await t.step(
      `${width} px: the Searches tab shows top terms and those that found nothing`,
      async () => {
        await selectTab(page, "Searches");
        await page.waitForURL(`${s.url}/admin/analytics?tab=searches`);
        await page.getByRole("img", { name: "Searches by term, last 7 days" }).waitFor();
        await page.getByRole("img", { name: "Searches that found no job, by term, last 7 days" })
          .waitFor();
        await expectRow(page, "Search Terms", "python developer", ["25", "3"]);
        await expectRow(page, "Search Terms", "pyhton", ["7", "0"]);
        await expectRow(page, "Searches With No Results", "pyhton", ["7"]);
        assert.equal(
          await page.getByRole("region", { name: "Searches With No Results" })
            .getByRole("cell", { name: "python developer" }).count(),
          0,
        );
        await page.getByText("32 searches in all.").waitFor();
        await expectNoSidewaysScroll(page);
        await expectAccessible(page);
        await screenshot(page, `searches-${width}`);
      },
    );

    await t.step(`${width} px: Manage Jobs opens a job's Insight`, async () => {
      await openAs(page, s, analyst, "/admin/jobs");
      const link = page.getByRole("link", {
        name: `Insight: views and sources of ${job.role} at ${job.companyName}`,
      });
      await link.waitFor();
      await screenshot(page, `jobs-${width}`);
      await link.focus();
      await link.press("Enter");
      await page.waitForURL(`${s.url}/admin/jobs/insight/${job._id}`);
      await expectHeading(page, `Insight: ${job.role}`);
      const summary = page.locator("section[aria-label=Summary] > div");
      await summary.filter({ hasText: "Views" }).getByText("44", { exact: true }).waitFor();
      await summary.filter({ hasText: "Apply Clicks" }).getByText("6", { exact: true }).waitFor();
      await summary.filter({ hasText: "Conversion Rate" }).getByText("13.64%").waitFor();
      await page.getByRole("img", {
        name: "Views and apply clicks of this job per day, last 7 days",
      }).waitFor();
      await page.getByRole("img", { name: "Views of this job by source, last 7 days" }).waitFor();
      await expectRow(page, "Sources", "Google", ["3"]);
      await expectRow(page, "Sources", "WhatsApp", ["1", "2%"]);
      await expectRow(page, "Sources", "Not recorded", ["40", "91%"]);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await screenshot(page, `job-${width}`);

      await page.getByLabel("Period").selectOption("30");
      await page.waitForURL(`${s.url}/admin/jobs/insight/${job._id}?days=30`);
      await page.getByRole("img", { name: /per day, last 30 days/ }).waitFor();
    });

    await t.step(`${width} px: a job with no traffic, an unknown job, no permission`, async () => {
      await openAs(page, s, analyst, `/admin/jobs/insight/${quiet._id}`);
      await expectHeading(page, `Insight: ${quiet.role}`);
      await page.getByRole("region", { name: "Sources" }).getByText("No data for this period.")
        .waitFor();
      await openAs(page, s, analyst, `/admin/jobs/insight/${older._id}`);
      await expectRow(page, "Sources", "Not recorded", ["9", "100%"]);
      await page.getByText(
        "No source was recorded for these views: they were counted before sources were kept.",
      ).waitFor();
      await openAs(page, s, analyst, "/admin/jobs/insight/000000000000000000000000");
      await expectText(page, "Job not found");
      await openAs(page, s, recruiter, "/admin/jobs");
      await expectText(page, "Showing 1 to 3 of 3 jobs");
      assert.equal(await page.getByRole("link", { name: /^Insight:/ }).count(), 0);
      await openAs(page, s, recruiter, `/admin/jobs/insight/${job._id}`);
      await expectHeading(page, "Access Denied");
      await openAs(page, s, recruiter, "/admin/analytics?tab=sources");
      await expectHeading(page, "Access Denied");
    });
    await context.close();
  }
});
