/** The activity log in Chromium: main admin only, filters, paging, CSV export, a job's history. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  apiCall,
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  newPage,
  openAs,
  press,
} from "./helpers.ts";

Deno.test({ name: "Activity Log", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const editor = await signIn(s, {
    permissions: { canCreateJobs: true, canManageAdmins: true },
    username: "Editor Esha",
  });
  const formula = await createJob(s, editor, sampleJob({ role: '=HYPERLINK("evil")' }));
  for (let i = 0; i < 22; i++) await createJob(s, main, sampleJob({ role: `Filler ${i}` }));
  const moved = await createJob(s, editor, sampleJob({ role: "History Role" }));
  await apiCall(s, editor, "PUT", `/api/jobs/${moved._id}/status`, { status: "dump" });

  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const rows = page.locator("tbody tr");

  await t.step("an admin who is not the main admin is denied and has no link", async () => {
    await openAs(page, s, editor, "/admin/activity");
    await expectHeading(page, "Access Denied");
    await expectText(page, "Only main admin can view the activity log");
    assert.equal(await page.getByRole("link", { name: "Activity Log" }).count(), 0);
    assert.equal(await page.getByRole("table").count(), 0);
  });

  await t.step(
    "the main admin's sidebar link opens the log, newest first, page by page",
    async () => {
      await openAs(page, s, main, "/admin/dashboard");
      await page.getByRole("link", { name: "Activity Log" }).first().click();
      await expectHeading(page, "Activity Log");
      await page.waitForURL(/\/admin\/activity$/);
      for (const column of ["When", "Admin", "Action", "Target", "Change", "Address"]) {
        await page.getByRole("columnheader", { name: column, exact: true }).waitFor();
      }
      await rows.first().getByText("Job status changed").waitFor();
      await rows.first().getByText("History Role at Acme Corp").waitFor();
      assert.equal(await rows.count(), 20);
      // Numbered like Manage Jobs: where this page is among all the records.
      const { pagination } = await apiCall<{ pagination: { totalRecords: number } }>(
        s,
        main,
        "GET",
        "/api/admin/activity",
      );
      const total = pagination.totalRecords;
      assert.ok(total > 20 && total <= 40, `${total} records`);
      await expectText(page, `Showing 1 to 20 of ${total} records`);
      await expectText(page, "Page 1 of 2");
      await expectAccessible(page);
      await page.getByRole("button", { name: "Next" }).click();
      await expectText(page, `Showing 21 to ${total} of ${total} records`);
      await expectText(page, "Page 2 of 2");
      assert.equal(await rows.count(), total - 20);
      await page.getByRole("button", { name: "Previous" }).click();
      await expectText(page, "Page 1 of 2");
    },
  );

  await t.step("filters by admin, by action and by job", async () => {
    await page.getByRole("combobox", { name: "Admin" }).selectOption({ label: "Editor Esha" });
    await rows.filter({ hasText: "Filler" }).first().waitFor({ state: "detached" });
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 4);
    for (const row of await rows.all()) assert.match(await row.innerText(), /Editor Esha/);
    await page.getByLabel("Action").selectOption({ label: "Job created" });
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 2);
    await page.getByRole("combobox", { name: "Admin" }).selectOption({ label: "All admins" });
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 20);
    await page.getByLabel("Action").selectOption({ label: "All actions" });
    await page.getByLabel("Job number").fill(moved.jobId);
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 2);
    await rows.nth(0).getByText("Job status changed").waitFor();
    await rows.nth(0).getByText('status: "active" → "dump"').waitFor();
    await rows.nth(1).getByText("Job created").waitFor();
  });

  await t.step("the export downloads the filtered records as formula-safe CSV", async () => {
    await page.getByLabel("Job number").fill(formula.jobId);
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
    const download = page.waitForEvent("download");
    await press(page.getByRole("button", { name: "Export CSV" }));
    const file = await download;
    assert.equal(file.suggestedFilename(), "activity.csv");
    await expectToast(page, "Activity exported as CSV");
    const text = await Deno.readTextFile((await file.path())!);
    // A byte-order mark first, so that Excel reads the UTF-8 as UTF-8.
    assert.equal(text[0], "\uFEFF");
    const lines = text.slice(1).trimEnd().split("\r\n");
    assert.equal(lines[0], "Time,Admin,Admin id,Action,Target,Job,Change,Address");
    assert.equal(lines.length, 2);
    assert.match(lines[1], /,"'=HYPERLINK\(""evil""\) at Acme Corp",/);
  });

  await t.step("a job's detail view shows its history", async () => {
    await openAs(page, s, main, "/admin/jobs/dump");
    await rows.filter({ hasText: "History Role" }).getByText("Acme Corp").first().click();
    const dialog = page.getByRole("dialog", { name: "History Role" });
    await dialog.waitFor();
    const history = dialog.getByRole("region", { name: "History" });
    await history.getByText("Job status changed").waitFor();
    await history.getByText("Job created").waitFor();
    assert.equal(await history.locator("tbody tr").count(), 2);
  });
});
