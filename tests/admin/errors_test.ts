/**
 * The admin screens' failure toasts and their busy and loading states, with
 * the API made to fail or to answer slowly by intercepting its calls in the browser.
 */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  apiCall,
  closeByEscape,
  createJob,
  dropNext,
  expectToast,
  failAll,
  failNext,
  hold,
  newPage,
  press,
  selectTab,
} from "./helpers.ts";
import type { JobWithAnalytics } from "../../kv/schemas.ts";

Deno.test({ name: "failure toasts, busy labels and loading states", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const jobs: JobWithAnalytics[] = [];
  for (let i = 0; i < 3; i++) jobs.push(await createJob(s, main, sampleJob({ role: `Role ${i}` })));
  await apiCall(s, main, "PUT", `/api/jobs/${jobs[2]._id}/status`, { status: "dump" });
  const other = await signIn(s, { username: "Other Admin" });
  await using browser = await launchBrowser();
  const { page } = await newPage(browser);

  await t.step("sign-in: busy label, no message, no answer", async () => {
    await page.goto(`${s.url}/admin/login`);
    await page.getByLabel("Email").fill(main.email);
    await page.getByLabel("Password", { exact: true }).fill(main.password);
    await failNext(page, "POST", /\/api\/admin\/login$/);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Login failed");
    await dropNext(page, "POST", /\/api\/admin\/login$/);
    await press(page.getByRole("button", { name: "Sign In" }));
    await expectToast(page, "Login failed. Please try again.");
    const release = await hold(page, /\/api\/admin\/login$/);
    await press(page.getByRole("button", { name: "Sign In" }));
    const busy = page.getByRole("button", { name: "Signing In..." });
    await busy.waitFor();
    assert.ok(await busy.isDisabled());
    await release();
    await expectToast(page, "Login successful!");
  });

  await t.step("loading: four skeleton cards, five skeleton rows", async () => {
    const release = await hold(page, /\/api\/analytics\/dashboard/);
    await page.goto(`${s.url}/admin/dashboard`);
    const summary = page.locator("section[aria-label=Summary]");
    const loading = summary.getByRole("status", { name: /^Loading / });
    await loading.first().waitFor();
    assert.deepEqual(
      await loading.evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label"))),
      [
        "Loading Total Website Visits",
        "Loading Unique Visitors",
        "Loading Job Views",
        "Loading Job Clicks",
      ],
    );
    await release();
    const releaseList = await hold(page, /\/api\/jobs\/admin\/all/);
    await page.goto(`${s.url}/admin/jobs`);
    await page.locator("tr[data-skeleton]").first().waitFor();
    assert.equal(await page.locator("tr[data-skeleton]").count(), 5);
    await releaseList();
    await page.locator("tr[data-skeleton]").first().waitFor({ state: "detached" });
  });

  await t.step("Manage Jobs: list, delete and bulk delete failures", async () => {
    const restoreList = await failAll(page, "GET", /\/api\/jobs\/admin\/all/);
    await page.reload();
    await expectToast(page, "Error fetching jobs");
    await page.getByText("Could not load the jobs").waitFor();
    await restoreList();
    await selectTab(page, /^Dump/);
    await selectTab(page, "Active (2)");
    await failNext(page, "DELETE", /\/api\/jobs\/[^/]+$/);
    await page.getByRole("button", { name: /^Delete Role 1/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Error deleting job");
    await press(page.getByRole("button", { name: "Bulk Actions" }));
    await page.getByRole("button", { name: "Select All" }).click();
    // Every delete fails, so the jobs the later steps use are all still there.
    const restore = await failAll(page, "DELETE", /\/api\/jobs\/[^/]+$/);
    const release = await hold(page, /\/api\/jobs\/[^/]+$/);
    await page.getByRole("button", { name: "Delete Selected" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    // While the deletes run, the same jobs cannot be sent for deleting (or moving) again.
    const busy = page.getByRole("button", { name: "Deleting..." });
    await busy.waitFor();
    assert.ok(await busy.isDisabled());
    assert.ok(await page.getByRole("button", { name: "Close Selected" }).isDisabled());
    await release();
    await expectToast(page, "Error deleting jobs");
    await page.getByRole("button", { name: "Delete Selected" }).waitFor();
    await restore();
  });

  await t.step("Create Job: busy labels, a failed duplicate check, failures", async () => {
    await page.goto(`${s.url}/admin/jobs/create`);
    await page.getByLabel("Company Name").fill("Hooli");
    await page.getByRole("textbox", { name: "Role", exact: true }).fill("Checked Role");
    await page.getByLabel("Location").fill("Remote");
    await page.getByLabel("Experience").selectOption("1-2");
    await page.getByLabel("Hiring Link").fill("https://hooli.example/jobs/1");
    await page.getByLabel("Job Description").fill("Work.");
    await page.getByLabel("Required Degree").fill("None");
    await failNext(page, "POST", /\/api\/jobs$/);
    await press(page.getByRole("button", { name: "Create Job" }));
    await expectToast(page, "Error creating job");
    await failNext(page, "POST", /\/api\/jobs\/check-duplicate$/);
    const release = await hold(page, /\/api\/jobs$/);
    await press(page.getByRole("button", { name: "Create Job" }));
    const busy = page.getByRole("button", { name: "Creating..." });
    await busy.waitFor();
    assert.ok(await busy.isDisabled());
    await release();
    await expectToast(page, "Job created successfully!");
    await page.goto(`${s.url}/admin/jobs/create`);
    await selectTab(page, "JSON Upload");
    await page.getByLabel("Jobs (JSON or CSV)").fill(JSON.stringify({ jobs: [sampleJob()] }));
    await failNext(page, "POST", /\/api\/jobs\/bulk$/);
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await expectToast(page, "Error creating jobs");
    const releaseBulk = await hold(page, /\/api\/jobs\/bulk$/);
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await page.getByRole("button", { name: "Uploading..." }).waitFor();
    await releaseBulk();
    await expectToast(page, "1 jobs created successfully!");
  });

  await t.step("Edit Job: loading text, busy label, failure", async () => {
    const release = await hold(page, new RegExp(`/api/jobs/${jobs[0]._id}$`));
    await page.goto(`${s.url}/admin/jobs/edit/${jobs[0]._id}`);
    await page.getByText("Loading job details...").waitFor();
    await release();
    await failNext(page, "PUT", /\/api\/jobs\/[^/]+$/);
    await page.getByRole("button", { name: "Update Job" }).click();
    await expectToast(page, "Error updating job");
    const releaseSave = await hold(page, /\/api\/jobs\/[^/]+$/);
    await press(page.getByRole("button", { name: "Update Job" }));
    const busy = page.getByRole("button", { name: "Saving..." });
    await busy.waitFor();
    assert.ok(await busy.isDisabled());
    await releaseSave();
    await expectToast(page, "Job updated successfully!");
  });

  await t.step("Dump Jobs: status change and processing failures", async () => {
    await page.goto(`${s.url}/admin/jobs/dump`);
    await page.getByRole("button", { name: /^Review Role 2/ }).click();
    await failNext(page, "PUT", /\/status$/);
    await page.getByRole("dialog").getByRole("button", { name: "Move to Active" }).click();
    await expectToast(page, "Error updating job status");
    await closeByEscape(page);
    await failNext(page, "POST", /process-status-changes$/);
    await press(page.getByRole("button", { name: "Process Status Changes" }));
    await expectToast(page, "Error processing status changes");
  });

  await t.step("Manage Admins: list, create, status and delete failures", async () => {
    await failNext(page, "GET", /\/api\/admin\/all$/);
    await page.goto(`${s.url}/admin/admins`);
    await expectToast(page, "Error fetching admins");
    await page.reload();
    const row = page.locator("tbody tr").filter({ hasText: "Other Admin" });
    await failNext(page, "PUT", /\/status$/);
    await row.getByRole("button", { name: "Deactivate Other Admin" }).click();
    await expectToast(page, "Error updating admin status");
    await failNext(page, "DELETE", new RegExp(`/api/admin/${other.admin._id}$`));
    await row.getByRole("button", { name: "Delete Other Admin" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Error deleting admin");
    await press(page.getByRole("button", { name: "Add Admin" }));
    const dialog = page.getByRole("dialog", { name: "Create New Admin" });
    await dialog.getByLabel("Username").fill("Fails");
    await dialog.getByLabel("Email").fill("fails@careeredge.test");
    await dialog.getByLabel("Password").fill("fails-password");
    await failNext(page, "POST", /\/api\/admin\/register$/);
    await dialog.getByRole("button", { name: "Create Admin" }).click();
    await expectToast(page, "Error creating admin");
    await closeByEscape(page);
  });

  await t.step("Analytics: report and export failures", async () => {
    await failNext(page, "GET", /\/api\/analytics\/trends/);
    await page.goto(`${s.url}/admin/analytics`);
    await expectToast(page, "Error fetching analytics");
    await failNext(page, "GET", /\/api\/analytics\/export/);
    await press(page.getByRole("button", { name: "Export CSV" }));
    await expectToast(page, "Error exporting analytics");
  });

  await t.step("profile: the fallback message", async () => {
    await page.getByRole("button", { name: "Edit Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    await dialog.getByLabel("Username").fill("Renamed");
    await failNext(page, "PUT", /\/api\/admin\/profile$/);
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await expectToast(page, "Profile update failed");
  });
});
