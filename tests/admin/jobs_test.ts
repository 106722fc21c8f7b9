/** Manage Jobs and Edit Job in Chromium: tabs, counts, filters, delete, bulk delete, edit. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  ACCOUNT_KINDS,
  apiCall,
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
  publicStatus,
} from "./helpers.ts";
import type { JobWithAnalytics } from "../../kv/schemas.ts";
import type { Locator } from "playwright-core";

Deno.test({ name: "Manage Jobs and Edit Job", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const jobs: JobWithAnalytics[] = [];
  for (let i = 1; i <= 15; i++) {
    const number = String(i).padStart(2, "0");
    jobs.push(
      await createJob(
        s,
        main,
        sampleJob({
          role: `Engineer ${number}`,
          companyName: i % 3 === 0 ? "Globex" : "Acme Corp",
          location: i % 2 === 0 ? "Pune" : "Remote",
        }),
      ),
    );
  }
  const [dumpA, dumpB, gone] = jobs.slice(12);
  for (const [job, status] of [[dumpA, "dump"], [dumpB, "dump"], [gone, "inactive"]] as const) {
    await apiCall(s, main, "PUT", `/api/jobs/${job._id}/status`, { status });
  }

  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const rows = () => page.locator("tbody tr:not([data-skeleton])");
  const tab = (name: string) => page.getByRole("tab", { name: new RegExp(`^${name} \\(`) });

  await t.step("the active tab opens first, with server counts and pages of ten", async () => {
    await openAs(page, s, main, "/admin/jobs");
    await expectText(page, "Showing 1 to 10 of 12 jobs");
    for (const [name, count] of [["All", 15], ["Active", 12], ["Dump", 2], ["Inactive", 1]]) {
      await page.getByRole("tab", { name: `${name} (${count})` }).waitFor();
    }
    assert.equal(await tab("Active").getAttribute("aria-selected"), "true");
    assert.equal(await rows().count(), 10);
    await expectText(page, "Page 1 of 2");
    assert.ok(await page.getByRole("button", { name: "Previous" }).isDisabled());
    await page.getByRole("button", { name: "Next" }).click();
    await expectText(page, "Showing 11 to 12 of 12 jobs");
    await expectText(page, "Page 2 of 2");
    assert.ok(await page.getByRole("button", { name: "Next" }).isDisabled());
    await expectAccessible(page);
  });

  await t.step("a tab change goes back to page 1; only active jobs can be edited", async () => {
    await tab("Dump").click();
    await expectText(page, "Showing 1 to 2 of 2 jobs");
    await expectText(page, "Page 1 of 1");
    assert.equal(await rows().count(), 2);
    assert.equal(await rows().getByText("Dump", { exact: true }).count(), 2);
    assert.equal(await page.getByRole("link", { name: /^Edit / }).count(), 0);
    // A job that is not public has no public page to view; its details are one click away.
    assert.equal(await page.getByRole("link", { name: /^View / }).count(), 0);
    assert.equal(await page.getByRole("button", { name: /^Details of / }).count(), 2);
    await tab("All").click();
    await expectText(page, "Showing 1 to 10 of 15 jobs");
    await tab("Inactive").click();
    await expectText(page, "Showing 1 to 1 of 1 job");
    await rows().getByText("Inactive", { exact: true }).waitFor();
  });

  await t.step("the tabs are one Tab stop; arrow keys, Home and End switch them", async () => {
    const selected = () => page.locator('[role="tab"][aria-selected="true"]');
    assert.deepEqual(
      await page.getByRole("tab").evaluateAll((tabs) => tabs.map((tab) => tab.tabIndex)),
      [-1, -1, -1, 0, -1],
    );
    await tab("Inactive").focus();
    await page.keyboard.press("ArrowLeft");
    await expectText(page, "Showing 1 to 2 of 2 jobs");
    assert.match(await selected().textContent() ?? "", /^Dump/);
    await page.keyboard.press("Home");
    await expectText(page, "Showing 1 to 10 of 15 jobs");
    assert.match(await selected().textContent() ?? "", /^All/);
    await page.keyboard.press("ArrowLeft");
    await expectText(page, "No jobs found.");
    assert.match(await selected().textContent() ?? "", /^Drafts/);
    await page.keyboard.press("ArrowRight");
    await expectText(page, "Showing 1 to 10 of 15 jobs");
    await page.keyboard.press("End");
    await expectText(page, "No jobs found.");
    assert.match(await selected().textContent() ?? "", /^Drafts/);
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-selected")),
      "true",
    );
  });

  await t.step("search, company and location filter through the server", async () => {
    await tab("Active").click();
    await page.getByLabel("Company").fill("Globex");
    await expectText(page, "Showing 1 to 4 of 4 jobs");
    await page.getByLabel("Location").fill("Pune");
    await expectText(page, "Showing 1 to 2 of 2 jobs");
    await rows().filter({ hasText: "Engineer 06" }).waitFor();
    await rows().filter({ hasText: "Engineer 12" }).waitFor();
    await page.getByLabel("Company").fill("");
    await page.getByLabel("Location").fill("");
    await page.getByLabel("Search").fill("Engineer 07");
    await expectText(page, "Showing 1 to 1 of 1 job");
    await page.getByLabel("Search").fill("no such role anywhere");
    await expectText(page, "No jobs found.");
    await page.getByRole("link", { name: "Create your first job" }).waitFor();
    await page.getByLabel("Search").fill("");
    await expectText(page, "Showing 1 to 10 of 12 jobs");
  });

  await t.step(
    "the filter boxes follow the address: the Manage Jobs link, Back, Forward",
    async () => {
      await page.getByLabel("Company").fill("Globex");
      await expectText(page, "Showing 1 to 4 of 4 jobs");
      await page.getByRole("link", { name: "Manage Jobs" }).click();
      await expectText(page, "Showing 1 to 10 of 12 jobs");
      assert.equal(await page.getByLabel("Company").inputValue(), "");
      await page.goBack();
      await expectText(page, "Showing 1 to 4 of 4 jobs");
      assert.equal(await page.getByLabel("Company").inputValue(), "Globex");
      await page.goForward();
      await expectText(page, "Showing 1 to 10 of 12 jobs");
      assert.equal(await page.getByLabel("Company").inputValue(), "");
    },
  );

  /** The job a row's delete button names ("Delete {role} at {company}"). */
  const jobOfButton = async (button: Locator) => {
    const label = await button.getAttribute("aria-label");
    return jobs.find((job) => label === `Delete ${job.role} at ${job.companyName}`)!;
  };

  await t.step("delete asks first; Escape keeps the job; Delete removes it", async () => {
    await page.getByRole("button", { name: "Next" }).click();
    await expectText(page, "Showing 11 to 12 of 12 jobs");
    const button = rows().first().getByRole("button", { name: /^Delete / });
    const victim = await jobOfButton(button);
    await button.click();
    const dialog = page.getByRole("dialog", { name: "Delete Job" });
    await dialog.getByText("This action cannot be undone.").waitFor();
    await expectAccessible(page);
    await closeByEscape(page);
    assert.equal(await publicStatus(s, victim._id), 200);
    // By keyboard: the dialog opens on Enter with focus inside, and Escape gives focus back.
    await press(button);
    await dialog.waitFor();
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest("dialog[open]")));
    await closeByEscape(page);
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      await button.getAttribute("aria-label"),
    );
    await button.click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Job deleted successfully");
    await page.getByRole("tab", { name: "Active (11)" }).waitFor();
    await page.getByRole("tab", { name: "All (14)" }).waitFor();
    assert.equal(await publicStatus(s, victim._id), 404);
  });

  await t.step(
    "bulk delete: nothing selected, select all, the count, delete selected",
    async () => {
      await press(page.getByRole("button", { name: "Bulk Actions" }));
      await page.getByRole("button", { name: "Delete Selected" }).click();
      await expectToast(page, "Please select jobs to delete");
      await page.getByRole("button", { name: "Select All" }).click();
      await expectText(page, "1 selected");
      await page.getByRole("button", { name: "Deselect All" }).click();
      await expectText(page, "0 selected");
      await page.getByRole("button", { name: "Previous" }).click();
      await expectText(page, "Showing 1 to 10 of 11 jobs");
      const picked: JobWithAnalytics[] = [];
      for (const row of [rows().nth(0), rows().nth(1)]) {
        picked.push(
          await jobOfButton(row.getByRole("button", { name: /^Delete / })),
        );
        await row.getByRole("checkbox").check();
      }
      await expectText(page, "2 selected");
      await page.getByRole("button", { name: "Delete Selected" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expectToast(page, "2 jobs deleted successfully");
      await page.getByRole("tab", { name: "Active (9)" }).waitFor();
      for (const job of picked) assert.equal(await publicStatus(s, job._id), 404);
      await press(page.getByRole("button", { name: "Bulk Actions" }));
    },
  );

  await t.step("what each kind of account may do on the list", async () => {
    for (const kind of ACCOUNT_KINDS) {
      const account = kind.main
        ? main
        : await signIn(s, { permissions: flagsOf(kind.permissions) });
      const creates = kind.main || kind.permissions!.includes("canCreateJobs");
      const deletes = kind.main || kind.permissions!.includes("canDeleteJobs");
      await openAs(page, s, account, "/admin/jobs");
      if (!creates) {
        // Manage Jobs needs canCreateJobs: no list, no counts, the reason instead.
        await expectHeading(page, "Access Denied");
        await expectText(page, "You don't have permission to manage jobs");
        assert.equal(await page.getByRole("tab").count(), 0, kind.name);
        assert.equal(await page.locator("tbody tr").count(), 0, kind.name);
        continue;
      }
      await expectText(page, "Showing 1 to 9 of 9 jobs");
      for (const name of ["Add Job", "Dump Jobs"]) {
        assert.equal(
          await page.getByRole("main").getByRole("link", { name, exact: true }).count(),
          1,
          `${kind.name}: ${name}`,
        );
      }
      assert.equal(await page.getByRole("button", { name: "Bulk Actions" }).count(), 1);
      assert.equal(await page.getByRole("link", { name: /^Edit / }).count(), 9);
      assert.equal(await page.getByRole("button", { name: /^Delete / }).count(), deletes ? 9 : 0);
      assert.equal(await page.getByRole("button", { name: /^Details of / }).count(), 9);
      const views = page.getByRole("link", { name: /^View .* \(opens in a new tab\)$/ });
      assert.equal(await views.count(), 9);
      assert.equal(await views.first().getAttribute("target"), "_blank");
      assert.match(await views.first().getAttribute("href") ?? "", /^\/jobs\/JB-/);
    }
  });

  await t.step("view opens the public page in a new tab; Details opens the modal", async () => {
    await openAs(page, s, main, "/admin/jobs");
    const first = page.locator("tbody tr").first();
    const role = (await first.locator("td").first().locator("p").first().textContent())!;
    const [publicPage] = await Promise.all([
      page.context().waitForEvent("page"),
      first.getByRole("link", { name: /^View / }).click(),
    ]);
    await publicPage.waitForLoadState();
    await publicPage.getByRole("heading", { name: role, level: 1 }).waitFor();
    assert.match(publicPage.url(), /\/jobs\/JB-/);
    await publicPage.close();
    assert.equal(page.url(), `${s.url}/admin/jobs`);
    await first.getByRole("button", { name: /^Details of / }).click();
    await page.getByRole("dialog", { name: role }).getByRole("heading", { name: "Job Description" })
      .waitFor();
    await closeByEscape(page);
  });

  await t.step("Bulk Actions offers Delete Selected only with canDeleteJobs", async () => {
    const editor = await signIn(s, { permissions: { canCreateJobs: true } });
    await openAs(page, s, editor, "/admin/jobs");
    await page.getByRole("button", { name: "Bulk Actions" }).click();
    await page.getByRole("checkbox").first().check();
    await expectText(page, "1 selected");
    assert.equal(await page.getByRole("button", { name: "Delete Selected" }).count(), 0);
    await page.getByRole("tab", { name: "Active (9)" }).waitFor();
  });

  const active = await apiCall<{ jobs: JobWithAnalytics[] }>(
    s,
    main,
    "GET",
    "/api/jobs/admin/all?status=active&limit=100",
  );

  await t.step(
    "edit: prefilled sections, Update Job, back to the list with the change",
    async () => {
      const job = active.jobs[0];
      await openAs(page, s, main, "/admin/jobs");
      await page.getByRole("link", { name: `Edit ${job.role} at ${job.companyName}` }).click();
      await page.waitForURL(`${s.url}/admin/jobs/edit/${job._id}`);
      await expectHeading(page, "Edit Job");
      for (const legend of ["Basic Information", "Job Details", "Skills & Keywords"]) {
        await page.getByRole("group", { name: legend }).waitFor();
      }
      assert.equal(await page.getByLabel("Company Name").inputValue(), job.companyName);
      assert.equal(await page.getByLabel("Hiring Link").inputValue(), job.hiringLink);
      assert.equal(await page.getByLabel("Experience").inputValue(), job.experience);
      await page.getByRole("list", { name: "Programming Languages" }).getByText("TypeScript")
        .waitFor();
      await expectAccessible(page);
      // The work mode read from the location is left to it: a location made Hybrid makes it so.
      assert.notEqual(job.workMode, "Hybrid");
      assert.equal(await page.getByLabel("Work Mode").inputValue(), "");
      await page.getByLabel("Location").fill("Hybrid - Pune");
      await page.getByRole("textbox", { name: "Role", exact: true }).fill("Staff Engineer");
      await page.getByRole("button", { name: "Update Job" }).click();
      await expectToast(page, "Job updated successfully!");
      await page.waitForURL(`${s.url}/admin/jobs`);
      await rows().getByText("Staff Engineer", { exact: true }).waitFor();
      const stored = await apiCall<JobWithAnalytics>(s, main, "GET", `/api/jobs/${job._id}`);
      assert.equal(stored.role, "Staff Engineer");
      assert.equal(stored.workMode, "Hybrid");
    },
  );

  await t.step("edit: a hiring link used by another active job names that job", async () => {
    const [job, other] = active.jobs.slice(1, 3);
    await page.goto(`${s.url}/admin/jobs/edit/${job._id}`);
    await page.getByLabel("Hiring Link").fill(other.hiringLink);
    await page.getByRole("button", { name: "Update Job" }).click();
    await expectToast(
      page,
      `Duplicate hiring link! This link is already used by "${other.role}" at ${other.companyName}`,
    );
    assert.equal(page.url(), `${s.url}/admin/jobs/edit/${job._id}`);
    await page.getByRole("textbox", { name: "Role", exact: true }).fill("");
    await page.getByRole("button", { name: "Update Job" }).click();
    await expectToast(page, "Please fill in: Role");
    await page.getByRole("button", { name: "Cancel" }).click();
    // The changes were never saved: leaving asks first.
    await page.getByRole("dialog", { name: "Leave without saving?" })
      .getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(`${s.url}/admin/jobs`);
    const stored = await apiCall<JobWithAnalytics>(s, main, "GET", `/api/jobs/${job._id}`);
    assert.equal(stored.hiringLink, job.hiringLink);
  });

  await t.step(
    "edit and insight go back to the tab and filters they were opened from",
    async () => {
      const view = `${s.url}/admin/jobs?status=all&company=Globex`;
      // Jobs posted in one instant list in any order, and an inactive job has no Edit.
      const editFirst = () => rows().getByRole("link", { name: /^Edit / }).first().click();
      await page.goto(view);
      await editFirst();
      await expectHeading(page, "Edit Job");
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL(view);
      await editFirst();
      await page.getByRole("textbox", { name: "Role", exact: true }).fill("Principal Engineer");
      await page.getByRole("button", { name: "Update Job" }).click();
      await expectToast(page, "Job updated successfully!");
      await page.waitForURL(view);
      await rows().getByText("Principal Engineer", { exact: true }).waitFor();
      await rows().first().getByRole("link", { name: /^Insight: / }).click();
      await page.getByRole("link", { name: "Back to Manage Jobs" }).click();
      await page.waitForURL(view);
      assert.equal(await page.getByLabel("Company").inputValue(), "Globex");
    },
  );

  await t.step("edit: an unknown job goes back to the list with its message", async () => {
    await page.goto(`${s.url}/admin/jobs/edit/no-such-job`);
    await expectToast(page, "Error loading job details");
    await page.waitForURL(`${s.url}/admin/jobs`);
  });

  await t.step("edit: only accounts with canCreateJobs get the form", async () => {
    const job = active.jobs[0];
    for (const kind of ACCOUNT_KINDS) {
      const account = kind.main
        ? main
        : await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, `/admin/jobs/edit/${job._id}`);
      if (kind.main || kind.permissions!.includes("canCreateJobs")) {
        await expectHeading(page, "Edit Job");
        await page.getByRole("button", { name: "Update Job" }).waitFor();
      } else {
        await expectHeading(page, "Access Denied");
        await expectText(page, "You don't have permission to edit jobs");
        assert.equal(await page.getByRole("button", { name: "Update Job" }).count(), 0);
      }
    }
  });
});
