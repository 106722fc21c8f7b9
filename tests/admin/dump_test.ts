/** Dump Jobs in Chromium: the table, day chips, the detail modal, moves, processing, pages of 20. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
  DUMP_DANGER_DAYS,
  DUMP_WARNING_DAYS,
} from "../../kv/constants.ts";

// Days in the dump for each chip colour, and past the lifecycle's limits, from its settings.
const WARNED_DAYS = Math.floor((DUMP_WARNING_DAYS + DUMP_DANGER_DAYS) / 2);
const URGENT_DAYS = DAYS_IN_DUMP_BEFORE_INACTIVE - 3;
import {
  ACCOUNT_KINDS,
  apiCall,
  backgroundColour,
  closeByEscape,
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  flagsOf,
  newPage,
  openAs,
  press,
} from "./helpers.ts";
import type { JobInput, JobWithAnalytics } from "../../kv/schemas.ts";

Deno.test({ name: "Dump Jobs", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const realNow = Date.now();
  /** A job created `daysAgo` days back and, unless told otherwise, put in the dump right then. */
  const jobAt = async (daysAgo: number, input: Partial<JobInput>, dump = true) => {
    s.clock.now = new Date(realNow - daysAgo * DAY_MS - 60_000);
    const job = await createJob(s, main, sampleJob(input));
    if (dump) await apiCall(s, main, "PUT", `/api/jobs/${job._id}/status`, { status: "dump" });
    return job;
  };
  for (let i = 0; i < 19; i++) await jobAt(2, { role: `Filler ${i}` });
  const fresh = await jobAt(3, { role: "Fresh Dump", companyName: "Initech" });
  const warned = await jobAt(WARNED_DAYS, { role: "Warned Dump", companyName: "Globex" });
  const urgent = await jobAt(URGENT_DAYS, { role: "Urgent Dump", companyName: "Umbrella" });
  await jobAt(DAYS_IN_DUMP_BEFORE_INACTIVE + 1, { role: "Expired Dump" });
  await jobAt(DAYS_ACTIVE_BEFORE_DUMP + 3, { role: "Stale Active" }, false);
  s.clock.now = new Date(realNow);

  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const row = (role: string) => page.locator("tbody tr").filter({ hasText: role });

  await t.step("without canCreateJobs the list is refused and so is processing", async () => {
    for (const kind of ACCOUNT_KINDS) {
      if (kind.main || kind.permissions!.includes("canCreateJobs")) continue;
      const account = await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, "/admin/jobs/dump");
      await expectToast(page, "Error fetching dump jobs");
      await expectText(page, "You don't have access to the dump jobs");
      await press(page.getByRole("button", { name: "Process Status Changes" }));
      await expectToast(page, "You do not have permission to process status changes");
    }
  });

  await t.step(
    "the table, newest in the dump first, 20 a page, with the rules explained",
    async () => {
      const editor = await signIn(s, { permissions: { canCreateJobs: true } });
      await openAs(page, s, editor, "/admin/jobs/dump");
      await expectHeading(page, "Dump Jobs");
      await expectText(page, "Jobs waiting for review before becoming inactive");
      for (
        const column of [
          "Job Details",
          "Company",
          "Posted Date",
          "Days in Dump",
          "Analytics",
          "Actions",
        ]
      ) {
        await page.getByRole("columnheader", { name: column }).waitFor();
      }
      await expectText(page, "Showing 1-20 of 23");
      await expectText(page, "Page 1 of 2");
      assert.equal(await page.locator("tbody tr").count(), 20);
      await page.getByText(new RegExp(`moves to the dump after ${DAYS_ACTIVE_BEFORE_DUMP}\\s+days`))
        .waitFor();
      await page.getByText(
        new RegExp(`in the dump for ${DAYS_IN_DUMP_BEFORE_INACTIVE}\\s+days becomes inactive`),
      ).waitFor();
      await row("Fresh Dump").getByText("3 days", { exact: true }).waitFor();
      await expectAccessible(page);
      await page.getByRole("button", { name: "Next" }).click();
      await expectText(page, "Showing 21-23 of 23");
      await expectText(page, "Page 2 of 2");
    },
  );

  await t.step(
    `day chips turn yellow from ${DUMP_WARNING_DAYS} days and red from ${DUMP_DANGER_DAYS} with the days left`,
    async () => {
      const yellow = row("Warned Dump").getByText(`${WARNED_DAYS} days`, { exact: true });
      assert.equal(await backgroundColour(yellow), "yellow");
      const red = row("Urgent Dump").getByText(`${URGENT_DAYS} days · 3d left`, { exact: true });
      assert.equal(await backgroundColour(red), "red");
      await page.getByRole("button", { name: "Previous" }).click();
      const plain = row("Fresh Dump").getByText("3 days", { exact: true });
      assert.equal(await backgroundColour(plain), "grey");
    },
  );

  await t.step("a row opens every detail, with the moves and the apply link", async () => {
    await openAs(page, s, main, "/admin/jobs/dump");
    await row("Fresh Dump").getByText("Initech").click();
    const dialog = page.getByRole("dialog", { name: "Fresh Dump" });
    await dialog.waitFor();
    for (
      const text of [
        "Initech",
        fresh.location,
        fresh.experience,
        fresh.employmentType,
        "Posted Date",
        "Days in Dump",
        "Views/Clicks",
        "0/0",
        "₹ 8-12 LPA",
        "Job Description",
        "Required Qualifications",
        fresh.requiredDegree,
        "Required Skills",
        "Programming Languages",
        "TypeScript",
        "Other Skills",
      ]
    ) {
      await dialog.getByText(text, { exact: true }).first().waitFor();
    }
    await dialog.getByText("IN", { exact: true }).waitFor();
    const apply = dialog.getByRole("link", { name: "Apply Link" });
    assert.equal(await apply.getAttribute("href"), fresh.hiringLink);
    assert.equal(await apply.getAttribute("target"), "_blank");
    await expectAccessible(page);
    await closeByEscape(page);
    await row("Fresh Dump").getByRole("button", { name: "Review Fresh Dump at Initech" }).focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    // The browser fires a dialog's close event some time after it closed: one that comes in only
    // after the dialog was opened again (a busy machine, a quick person) must leave it open.
    await page.evaluate(async () => {
      document.querySelector("dialog[open]")!.dispatchEvent(new Event("close"));
      for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
    });
    assert.ok(await dialog.isVisible(), "a late close event shut the reopened dialog");
  });

  await t.step("Move to Active renews the job and it leaves the dump", async () => {
    await page.getByRole("dialog").getByRole("button", { name: "Move to Active" }).click();
    await expectToast(page, "Job moved to active");
    await expectText(page, "Showing 1-20 of 22");
    assert.equal(await row("Fresh Dump").count(), 0);
    const job = await apiCall<JobWithAnalytics>(s, main, "GET", `/api/jobs/${fresh._id}`);
    assert.equal(job.status, "active");
    assert.ok(Date.parse(job.datePosted) >= realNow - 60_000, "datePosted renewed");
  });

  await t.step("Move to Inactive; the Manage Jobs counts follow", async () => {
    // Fresh Dump left page 1, so Warned Dump moved up onto it.
    await row("Warned Dump").click();
    await page.getByRole("dialog").getByRole("button", { name: "Move to Inactive" }).click();
    await expectToast(page, "Job moved to inactive");
    await expectText(page, "Showing 1-20 of 21");
    assert.equal(await row("Warned Dump").count(), 0);
    const job = await apiCall<JobWithAnalytics>(s, main, "GET", `/api/jobs/${warned._id}`);
    assert.equal(job.status, "inactive");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Manage Jobs" })
      .click();
    await page.getByRole("tab", { name: "Dump (21)" }).waitFor();
    await page.getByRole("tab", { name: "Inactive (1)" }).waitFor();
    await page.getByRole("tab", { name: "Active (2)" }).waitFor();
  });

  await t.step("Process Status Changes runs the rules and reports both counts", async () => {
    await page.getByRole("link", { name: "Dump Jobs" }).first().click();
    await press(page.getByRole("button", { name: "Process Status Changes" }));
    await expectToast(page, "Processed: 1 to dump, 1 to inactive");
    await expectText(page, "Showing 1-20 of 21");
    const job = await apiCall<JobWithAnalytics>(s, main, "GET", `/api/jobs/${urgent._id}`);
    assert.equal(job.status, "dump", `${URGENT_DAYS} days in the dump is not yet enough`);
  });
});
