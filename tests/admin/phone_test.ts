/**
 * At 390 pixels wide the tables keep each row's Status and Actions (and each activity record) in
 * view without scrolling sideways, and every tab of a tab row is visible; plus what the counts say
 * when there is one of them, and a second export straight after the first.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import { emptyDayCounts, recordDay } from "../../kv/analytics/recording.ts";
import { jobRef } from "../../kv/analytics/types.ts";
import { dayOf } from "../../kv/days.ts";
import {
  apiCall,
  createJob,
  expectHeading,
  expectText,
  expectToast,
  newPage,
  openAs,
} from "./helpers.ts";

const PHONE = 390;

/** The control is on screen as the page opened: no scrolling of the page or of its table. */
async function inView(page: Page, control: Locator, what: string) {
  await control.waitFor();
  const box = (await control.boundingBox())!;
  const scrolled = await page.evaluate(() => {
    const regions = [...document.querySelectorAll('[role="region"]')];
    return scrollX + regions.reduce((sum, region) => sum + region.scrollLeft, 0);
  });
  assert.equal(scrolled, 0, `${what}: nothing was scrolled sideways`);
  assert.ok(
    box.x >= 0 && box.x + box.width <= PHONE,
    `${what} spans ${box.x}..${box.x + box.width}`,
  );
}

Deno.test({ name: "the portal at 390 pixels", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Principal Platform Engineer" }));
  const dumped = await createJob(s, main, sampleJob({ role: "Senior Data Analyst" }));
  await apiCall(s, main, "PUT", `/api/jobs/${dumped._id}/status`, { status: "dump" });
  await signIn(s, { username: "Phone Editor", permissions: { canCreateJobs: true } });
  await using browser = await launchBrowser();
  const { page, context } = await newPage(browser, PHONE);

  await t.step("Manage Jobs: each row's status and actions are in view", async () => {
    await openAs(page, s, main, "/admin/jobs");
    await page.locator("[data-skeleton]").first().waitFor({ state: "detached" });
    const row = page.getByRole("row").filter({ hasText: job.role });
    await inView(page, row.getByText("Active", { exact: true }), "the Status badge");
    for (
      const [kind, name] of [
        ["link", `View ${job.role}`],
        ["button", `Details of ${job.role}`],
        ["link", `Edit ${job.role}`],
        ["button", `Delete ${job.role}`],
      ] as const
    ) {
      await inView(page, row.getByRole(kind, { name }), name);
    }
    for (const tab of await page.getByRole("tab").all()) await inView(page, tab, "a status tab");
  });

  await t.step("Dump Jobs: each row's Review button is in view", async () => {
    await page.goto(`${s.url}/admin/jobs/dump`);
    await expectHeading(page, "Dump Jobs");
    await inView(
      page,
      page.getByRole("button", { name: `Review ${dumped.role}` }),
      "the Review button",
    );
  });

  await t.step("Manage Admins: each admin's status and actions are in view", async () => {
    await page.goto(`${s.url}/admin/admins`);
    await expectHeading(page, "Manage Admins");
    const row = page.getByRole("row").filter({ hasText: "Phone Editor" });
    await inView(page, row.getByText("Active", { exact: true }), "the Status badge");
    await inView(page, row.getByRole("button", { name: "Deactivate Phone Editor" }), "Deactivate");
    await inView(page, row.getByRole("button", { name: "Delete Phone Editor" }), "Delete");
  });

  await t.step(
    "Activity Log: each record is a card in view, no word split across lines",
    async () => {
      await page.goto(`${s.url}/admin/activity`);
      await expectHeading(page, "Activity Log");
      const row = page.getByRole("row").filter({ hasText: "Job status changed" });
      await inView(page, row.getByText("Job status changed", { exact: true }), "the Action");
      await inView(page, row.getByText(dumped.jobId, { exact: true }), "the Target's job ID");
      const split = await page.evaluate(() => {
        const words: string[] = [];
        const cells = document.querySelector('[role="region"] tbody')!;
        const walker = document.createTreeWalker(cells, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          // A value written out (a URL, a timestamp) may break to fit; a word may not.
          for (const word of node.textContent!.matchAll(/(?<!\S)\p{L}+(?!\S)/gu)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (lines.size > 1) words.push(word[0]);
          }
        }
        return words;
      });
      assert.deepEqual(split, []);
    },
  );

  await t.step("Analytics: every tab is visible", async () => {
    await page.goto(`${s.url}/admin/analytics`);
    await expectHeading(page, "Analytics");
    const tabs = await page.getByRole("tab").all();
    assert.equal(tabs.length, 6);
    for (const tab of tabs) await inView(page, tab, `the tab ${await tab.textContent()}`);
  });

  await context.close();
});

Deno.test({ name: "one view, one click, and two exports in a row", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Solo Counted Role" }));
  const counts = emptyDayCounts();
  counts.visits = 1;
  counts.uniques = 1;
  counts.views.set(job._id, 1);
  counts.clicks.set(job._id, 1);
  counts.jobs.set(job._id, jobRef(job));
  // The server's today, whatever the time this runs.
  await recordDay(s.kv, dayOf(s.clock.now, s.services.config.TIMEZONE), counts);
  await using browser = await launchBrowser();
  const { page, context } = await newPage(browser, 1366);

  await t.step("the dashboard's recent jobs say 1 view", async () => {
    await openAs(page, s, main, "/admin/dashboard");
    const recent = page.getByRole("link").filter({ hasText: job.role });
    await recent.getByText("1 view", { exact: true }).waitFor();
  });

  await t.step("a second export straight after the first downloads too", async () => {
    await page.goto(`${s.url}/admin/analytics`);
    await expectHeading(page, "Analytics");
    const downloads: string[] = [];
    page.on("download", (download) => downloads.push(download.suggestedFilename()));
    const second = page.waitForEvent("download", (d) => d.suggestedFilename().endsWith(".csv"));
    await page.getByRole("button", { name: "Export JSON" }).click();
    await expectToast(page, "Analytics exported as JSON");
    await page.getByRole("button", { name: "Export CSV" }).click();
    await second;
    await expectToast(page, "Analytics exported as CSV");
    assert.deepEqual(downloads.toSorted(), ["analytics-7days.csv", "analytics-7days.json"]);
  });

  await t.step("the dump table says 1 view · 1 click", async () => {
    await apiCall(s, main, "PUT", `/api/jobs/${job._id}/status`, { status: "dump" });
    await page.goto(`${s.url}/admin/jobs/dump`);
    await expectHeading(page, "Dump Jobs");
    await expectText(page, "1 view · 1 click");
  });
  await context.close();
});
