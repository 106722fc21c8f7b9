/**
 * The admin portal at its edges: a selection never outlives the rows it was made on (and a refetch
 * of them keeps it), a page past the end shows the last page, a partly failed bulk delete says what
 * happened, and a failure or a refusal never reads as empty data.
 */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  apiCall,
  createJob,
  expectAccessible,
  expectText,
  expectToast,
  failAll,
  failNext,
  newPage,
  openAs,
  press,
  publicStatus,
  selectTab,
} from "./helpers.ts";
import type { JobWithAnalytics } from "../../kv/schemas.ts";

Deno.test({ name: "admin portal edges: data safety and failures", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const jobs: JobWithAnalytics[] = [];
  for (let i = 1; i <= 16; i++) {
    const number = String(i).padStart(2, "0");
    const companyName = i <= 4 ? "Globex" : "Acme Corp";
    jobs.push(await createJob(s, main, sampleJob({ role: `Role ${number}`, companyName })));
  }
  for (const job of jobs.slice(14)) {
    await apiCall(s, main, "PUT", `/api/jobs/${job._id}/status`, { status: "dump" });
  }
  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const rows = () => page.locator("tbody tr:not([data-skeleton])");

  await t.step("the selection is cleared whenever the rows in view change", async () => {
    await openAs(page, s, main, "/admin/jobs");
    await expectText(page, "Showing 1 to 10 of 14 jobs");
    await press(page.getByRole("button", { name: "Bulk Actions" }));
    await page.getByLabel("Company").fill("Globex");
    await expectText(page, "Showing 1 to 4 of 4 jobs");
    await page.getByRole("button", { name: "Select All" }).click();
    await expectText(page, "4 selected");
    await page.getByLabel("Company").fill("");
    await expectText(page, "Showing 1 to 10 of 14 jobs");
    await expectText(page, "0 selected");
    await rows().first().getByRole("checkbox").check();
    await expectText(page, "1 selected");
    await page.getByRole("button", { name: "Next" }).click();
    await expectText(page, "Showing 11 to 14 of 14 jobs");
    await expectText(page, "0 selected");
    await page.getByRole("button", { name: "Select All" }).click();
    await expectText(page, "4 selected");
    await selectTab(page, /^Dump/);
    await expectText(page, "Showing 1 to 2 of 2 jobs");
    await expectText(page, "0 selected");
    await selectTab(page, /^Active/);
    await expectText(page, "Showing 1 to 10 of 14 jobs");
    await expectText(page, "0 selected");
  });

  await t.step("a refetch of the rows in view keeps the picks", async () => {
    await rows().first().getByRole("checkbox").check();
    const label = await rows().nth(2).getByRole("checkbox").getAttribute("aria-label");
    const closed = jobs.find((job) => label === `Select ${job.role} at ${job.companyName}`)!;
    // Closing another row refetches the same view with other rows under it.
    await press(page.getByRole("button", { name: `Close ${closed.role} at` }));
    await expectToast(page, "Job closed");
    await expectText(page, "Showing 1 to 10 of 13 jobs");
    await expectText(page, "1 selected");
    assert.ok(await rows().first().getByRole("checkbox").isChecked());
    await rows().first().getByRole("checkbox").uncheck();
    await apiCall(s, main, "PUT", `/api/jobs/${closed._id}/status`, { status: "active" });
    await page.reload();
    await expectText(page, "Showing 1 to 10 of 14 jobs");
    await press(page.getByRole("button", { name: "Bulk Actions" }));
  });

  await t.step("the confirmation names how many and which", async () => {
    for (let i = 0; i < 5; i++) await rows().nth(i).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Delete Selected" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 5 jobs?" });
    await dialog.getByText(
      /^Role \d\d at [\w ]+, Role \d\d at [\w ]+, Role \d\d at [\w ]+ and 2 more$/,
    )
      .waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    for (let i = 1; i < 5; i++) await rows().nth(i).getByRole("checkbox").uncheck();
    await page.getByRole("button", { name: "Delete Selected" }).click();
    await page.getByRole("dialog", { name: "Delete 1 job?" }).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    for (const job of jobs) {
      assert.notEqual(await publicStatus(s, job._id), 404, `${job.role} still there`);
    }
  });

  await t.step("a partly failed bulk delete says how many went and which failed", async () => {
    await page.getByRole("button", { name: "Select All" }).click();
    await page.getByRole("button", { name: "Deselect All" }).click();
    const picked: JobWithAnalytics[] = [];
    for (const row of [rows().nth(0), rows().nth(1)]) {
      const label = await row.getByRole("checkbox").getAttribute("aria-label");
      picked.push(jobs.find((job) => label === `Select ${job.role} at ${job.companyName}`)!);
      await row.getByRole("checkbox").check();
    }
    const [kept, deleted] = picked;
    await failNext(page, "DELETE", new RegExp(`/api/jobs/${kept._id}$`));
    await page.getByRole("button", { name: "Delete Selected" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(
      page,
      `1 job deleted; could not delete ${kept.role} at ${kept.companyName}`,
    );
    assert.equal(await publicStatus(s, deleted._id), 404);
    assert.equal(await publicStatus(s, kept._id), 200);
    await page.getByRole("tab", { name: "Active (13)" }).waitFor();
  });

  await t.step("a page past the end shows the last page", async () => {
    await page.goto(`${s.url}/admin/jobs?page=99`);
    await expectText(page, "Showing 11 to 13 of 13 jobs");
    await expectText(page, "Page 2 of 2");
    await page.goto(`${s.url}/admin/jobs/dump?page=7`);
    await page.waitForURL(`${s.url}/admin/jobs/dump`);
    await rows().nth(1).waitFor();
    assert.equal(await rows().count(), 2);
    assert.equal(await page.getByText("No jobs in dump").count(), 0);
  });

  await t.step("a failed list shows an error with Retry, and no counts", async () => {
    const restore = await failAll(page, "GET", /\/api\/jobs\/admin\/all/);
    await page.goto(`${s.url}/admin/jobs`);
    await expectToast(page, "Error fetching jobs");
    await expectText(page, "Could not load the jobs");
    await page.getByRole("tab", { name: "All (…)" }).waitFor();
    assert.equal(await page.getByText("No jobs found.").count(), 0);
    assert.equal(await page.getByRole("link", { name: "Create your first job" }).count(), 0);
    await restore();
    await page.getByRole("button", { name: "Retry" }).click();
    await expectText(page, "Showing 1 to 10 of 13 jobs");
    await page.getByRole("tab", { name: "All (15)" }).waitFor();
  });

  await t.step("a failed dashboard stops loading and offers Retry", async () => {
    const restore = await failAll(page, "GET", /\/api\/analytics\/dashboard/);
    await page.goto(`${s.url}/admin/dashboard`);
    await expectText(page, "Could not load the traffic figures");
    assert.equal(
      await page.getByRole("main").getByRole("status", { name: /^Loading/ }).count(),
      0,
    );
    await restore();
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByText("Total Website Visits").waitFor();
  });

  await t.step("Dump Jobs refused to an account says so, not 'No jobs in dump'", async () => {
    const viewer = await signIn(s, { permissions: {} });
    await openAs(page, s, viewer, "/admin/jobs/dump");
    await expectText(page, "You don't have access to the dump jobs");
    assert.equal(await page.getByText("No jobs in dump").count(), 0);
  });

  await t.step("no empty Quick Actions card without permissions", async () => {
    const viewer = await signIn(s, { permissions: {} });
    await openAs(page, s, viewer, "/admin/dashboard");
    await page.getByRole("heading", { name: "Performance" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: "Quick Actions" }).count(), 0);
  });
});

Deno.test({ name: "admin portal edges: workflows and layout", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const retired = await createJob(s, main, sampleJob({ role: "Retired Role" }));
  const clashing = await createJob(s, main, sampleJob({ role: "Clashing Role" }));
  for (const job of [retired, clashing]) {
    await apiCall(s, main, "PUT", `/api/jobs/${job._id}/status`, { status: "inactive" });
  }
  const holder = await createJob(
    s,
    main,
    sampleJob({ role: "Link Holder", companyName: "Initech", hiringLink: clashing.hiringLink }),
  );
  await using browser = await launchBrowser();
  const { page } = await newPage(browser, 1366);

  await t.step(
    "Details opens the admin detail from any tab; inactive moves back to active",
    async () => {
      await openAs(page, s, main, "/admin/jobs?status=inactive");
      await expectText(page, "Showing 1 to 2 of 2 jobs");
      await page.getByRole("button", { name: "Details of Retired Role at Acme Corp" }).click();
      const dialog = page.getByRole("dialog", { name: "Retired Role" });
      await dialog.getByRole("heading", { name: "Job Description" }).waitFor();
      assert.equal(page.url(), `${s.url}/admin/jobs?status=inactive`);
      await dialog.getByRole("button", { name: "Move to Active" }).click();
      await expectToast(page, "Job moved to active");
      await expectText(page, "Showing 1 to 1 of 1 job");
      assert.equal(await publicStatus(s, retired._id), 200);
    },
  );

  await t.step("a move refused for a clashing hiring link explains the clash", async () => {
    await page.getByRole("button", { name: "Details of Clashing Role at Acme Corp" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Move to Active" }).click();
    await expectToast(
      page,
      `Duplicate hiring link! This link is already used by "${holder.role}" at ${holder.companyName}`,
    );
    assert.equal(await publicStatus(s, clashing._id), 410);
    await expectAccessible(page);
  });

  for (const width of [1366, 390]) {
    await t.step(`toasts start below the header's buttons (${width} px)`, async () => {
      const { page, context } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs");
      const bulk = page.getByRole("button", { name: "Bulk Actions" });
      await bulk.click();
      await page.getByRole("button", { name: "Delete Selected" }).click();
      const toast = page.locator("[data-sonner-toast]").filter({
        hasText: "Please select jobs to delete",
      });
      await toast.waitFor();
      // The toast slides in from above: measure where it comes to rest.
      await toast.evaluate((el) =>
        Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished))
      );
      const button = (await bulk.boundingBox())!;
      const box = (await toast.boundingBox())!;
      assert.ok(box.y >= button.y + button.height, `toast at ${box.y}, button ends lower`);
      // A real click on the button while the toast shows reaches the button.
      await bulk.click();
      await page.getByRole("button", { name: "Delete Selected" }).waitFor({ state: "detached" });
      await context.close();
    });
  }

  await t.step("at 390 px the navigation is a drawer from the side", async () => {
    const { page, context } = await newPage(browser, 390);
    await openAs(page, s, main, "/admin/jobs/dump");
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await drawer.getByRole("link", { name: "Manage Jobs" }).waitFor();
    const box = (await drawer.boundingBox())!;
    assert.equal(Math.round(box.x), 0);
    assert.ok(box.height >= 800, `drawer ${box.height} px tall`);
    assert.equal(await drawer.getByText("CareerEdge", { exact: true }).count(), 0);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    for (const aside of await page.locator("aside").all()) {
      assert.ok(await aside.getAttribute("aria-label"), "every aside is labelled");
    }
    await context.close();
  });
});
