/** What a recruiter reads on the way: field errors in plain words, wide tables that say they scroll. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import { JOB_CSV_COLUMNS, NOT_UTF8 } from "../../kv/jobs/csv.ts";
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
  publicStatus,
  selectTab,
  untilFilled,
} from "./helpers.ts";

Deno.test({ name: "plain words and narrow screens", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Viewed Role" }));
  const visitor = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" };
  await (await s.app.request(`/api/jobs/${job._id}`, { headers: visitor })).body?.cancel();
  await s.services.counter.flush();
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: a bad link is explained in plain words`, async () => {
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs/create");
      await page.getByLabel("Company Name").fill("Umbrella");
      await page.getByRole("textbox", { name: "Role", exact: true }).fill("Platform Engineer");
      await page.getByLabel("Location").fill("Hyderabad");
      await page.getByLabel("Experience").selectOption("3+");
      await page.getByLabel("Hiring Link").fill("careers.umbrella.example/jobs/1");
      await page.getByLabel("Job Description").fill("Run the platform.");
      await page.getByLabel("Required Degree").fill("Any degree");
      await press(page.getByRole("button", { name: "Create Job" }));
      await expectToast(page, "Enter a full link starting with https://");
      const field = page.getByLabel("Hiring Link");
      assert.equal(await field.getAttribute("aria-invalid"), "true");
      await page.locator("form").getByText("Enter a full link starting with https://").waitFor();
      assert.equal(await page.getByText(/hiringLink:|scheme:\/\/host/).count(), 0);
      await expectAccessible(page);
      await context.close();
    });
  }

  await t.step("390 px: the analytics tables say they scroll sideways", async () => {
    const { context, page } = await newPage(browser, 390);
    await openAs(page, s, main, "/admin/analytics?tab=jobs");
    await expectHeading(page, "Top Performing Jobs");
    const region = page.getByRole("region", { name: "Top Performing Jobs" });
    await region.getByText("Viewed Role").waitFor();
    await expectText(page, "Scroll sideways for more columns →");
    // Scrolled to its end, the sign goes: nothing more is out of view.
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await page.getByText("Scroll sideways for more columns →").waitFor({ state: "detached" });
    await context.close();
  });

  await t.step("1366 px: a table that fits shows no sign", async () => {
    const { context, page } = await newPage(browser, 1366);
    await openAs(page, s, main, "/admin/analytics?tab=jobs");
    await page.getByRole("region", { name: "Top Performing Jobs" }).getByText("Viewed Role")
      .waitFor();
    assert.equal(await page.getByText("Scroll sideways for more columns →").count(), 0);
    await context.close();
  });

  await t.step("1366 px: Manage Jobs' views column keeps the word Insight whole", async () => {
    const { context, page } = await newPage(browser, 1366);
    // Long roles, companies and places, as on the demo board, where it read "Insig ht".
    for (let i = 0; i < 9; i++) {
      await createJob(
        s,
        main,
        sampleJob({
          role: `QA Automation Engineer ${i}`,
          companyName: "Brightpath EdTech",
          location: "Mumbai, Maharashtra",
          hiringLink: `https://example.com/careers/qa-${i}`,
        }),
      );
    }
    await openAs(page, s, main, "/admin/jobs");
    const links = page.getByRole("link", { name: /^Insight: views and sources of / });
    await links.first().waitFor();
    const lines = await links.evaluateAll((all) => all.map((link) => link.getClientRects().length));
    assert.deepEqual(lines, lines.map(() => 1), "an Insight link is split over lines");
    await context.close();
  });
});

Deno.test({ name: "Manage Admins: edit permissions", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(
      `${width} px: the main admin grants a flag; the admin's portal follows`,
      async () => {
        const editor = await signIn(s, {
          username: `Editor ${width}`,
          permissions: { canViewAnalytics: true },
        });
        const { context, page } = await newPage(browser, width);
        const { page: theirs } = await newPage(browser, width);
        await openAs(theirs, s, editor, "/admin/jobs");
        await expectText(theirs, "You don't have permission to manage jobs");

        await openAs(page, s, main, "/admin/admins");
        const row = page.getByRole("row").filter({ hasText: `Editor ${width}` });
        await press(row.getByRole("button", { name: `Edit permissions of Editor ${width}` }));
        const dialog = page.getByRole("dialog", { name: `Edit Permissions – Editor ${width}` });
        const box = (name: string) => dialog.getByRole("checkbox", { name });
        assert.equal(await box("View Analytics").isChecked(), true);
        assert.equal(await box("Create Jobs").isChecked(), false);
        await expectAccessible(page);
        await box("Create Jobs").check();
        await box("View Analytics").uncheck();
        await press(dialog.getByRole("button", { name: "Save Permissions" }));
        await expectToast(page, "Permissions updated successfully");
        await dialog.waitFor({ state: "detached" });
        await row.getByText("Jobs", { exact: true }).waitFor();
        assert.equal(await row.getByText("Analytics", { exact: true }).count(), 0);

        // Their next screen has the new flags: Manage Jobs opens, Analytics is gone from the menu.
        await theirs.reload();
        await expectHeading(theirs, "Manage Jobs");
        if (width < 768) await theirs.getByRole("button", { name: "Open menu" }).click();
        assert.equal(await theirs.getByRole("link", { name: "Analytics" }).count(), 0);

        await page.goto(`${s.url}/admin/activity`);
        const record = page.locator("tbody tr, li").filter({ hasText: "Permissions changed" })
          .filter({ hasText: `Editor ${width}` }).first();
        await record.getByText("granted Create Jobs; removed View Analytics").waitFor();
        await context.close();
        await theirs.context().close();
      },
    );
  }

  await t.step("the main admin's own row offers no edit", async () => {
    const { context, page } = await newPage(browser);
    await openAs(page, s, main, "/admin/admins");
    const row = page.getByRole("row").filter({ hasText: main.admin.email });
    await row.waitFor();
    assert.equal(await row.getByRole("button", { name: /^Edit permissions/ }).count(), 0);
    await context.close();
  });
});

Deno.test({ name: "Manage Jobs: close and reopen", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: a row and a selection close and reopen`, async () => {
      const closing = await createJob(s, main, sampleJob({ role: `Closing ${width}` }));
      const other = await createJob(s, main, sampleJob({ role: `Other ${width}` }));
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs");
      const row = (role: string) => page.locator("tbody tr").filter({ hasText: role });

      await press(row(closing.role).getByRole("button", { name: `Close ${closing.role} at` }));
      await expectToast(page, "Job closed");
      await row(closing.role).waitFor({ state: "detached" });
      assert.equal(await publicStatus(s, closing._id), 410);

      // Its link is free now; another job takes it, so reopening is refused with the dialog.
      const holder = await createJob(
        s,
        main,
        sampleJob({ role: `Holder ${width}`, hiringLink: closing.hiringLink }),
      );
      await selectTab(page, /^Inactive/);
      await press(row(closing.role).getByRole("button", { name: `Reopen ${closing.role} at` }));
      const dialog = page.getByRole("dialog", { name: "Duplicate Job Detected" });
      await dialog.getByText(holder.role).waitFor();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Close" }).first().click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await publicStatus(s, closing._id), 410);

      // In bulk: close one active job, then reopen both closed ones; one link is taken.
      await selectTab(page, /^Active/);
      await press(page.getByRole("button", { name: "Bulk Actions" }));
      await row(other.role).getByRole("checkbox").check();
      await press(page.getByRole("button", { name: "Close Selected" }));
      await expectToast(page, "1 job closed");
      await row(other.role).waitFor({ state: "detached" });
      await selectTab(page, /^Inactive/);
      await row(other.role).getByRole("checkbox").check();
      await row(closing.role).getByRole("checkbox").check();
      await press(page.getByRole("button", { name: "Reopen Selected" }));
      await expectToast(page, "1 job reopened");
      await expectToast(page, "1 job not reopened: an active job already uses its hiring link");
      assert.equal(await publicStatus(s, other._id), 200);
      assert.equal(await publicStatus(s, closing._id), 410);
      await context.close();
    });
  }
});

Deno.test({ name: "Create and Edit Job: unsaved changes", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Guarded Role" }));
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: leaving Create Job with typed work asks first`, async () => {
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs");
      await page.getByRole("main").getByRole("link", { name: "Add Job" }).click();
      await expectHeading(page, "Create Job");
      // Nothing typed: leaving asks nothing.
      await page.getByRole("link", { name: "← Back to Jobs" }).click();
      await expectHeading(page, "Manage Jobs");
      await page.getByRole("main").getByRole("link", { name: "Add Job" }).click();
      await page.getByLabel("Company Name").fill("Typed Company");

      await page.getByRole("link", { name: "← Back to Jobs" }).click();
      const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
      await dialog.getByText("The changes you made on this page will be lost.").waitFor();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(page.url(), `${s.url}/admin/jobs/create`);
      assert.equal(await page.getByLabel("Company Name").inputValue(), "Typed Company");

      // The browser's Back button asks too.
      await page.goBack();
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Leave" }).click();
      await expectHeading(page, "Manage Jobs");

      // Leaving the page: the browser's own prompt.
      await page.goForward();
      await expectHeading(page, "Create Job");
      await page.getByLabel("Company Name").fill("Typed again");
      const prompted = new Promise<string>((resolve) =>
        page.once("dialog", (prompt) => {
          resolve(prompt.type());
          void prompt.accept();
        })
      );
      const closed = new Promise((resolve) => page.once("close", resolve));
      await page.close({ runBeforeUnload: true });
      assert.equal(await prompted, "beforeunload");
      await closed;
      await context.close();
    });
  }

  await t.step("Edit Job: Cancel with a change asks; an update saves without asking", async () => {
    const { context, page } = await newPage(browser);
    await openAs(page, s, main, `/admin/jobs/edit/${job._id}`);
    await expectHeading(page, "Edit Job");
    await page.getByLabel("Location").fill("Pune");
    await page.getByRole("button", { name: "Cancel" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await press(page.getByRole("button", { name: "Update Job" }));
    await expectToast(page, "Job updated successfully!");
    await expectHeading(page, "Manage Jobs");
    assert.equal(await page.getByRole("dialog").count(), 0);
    await context.close();
  });
});

Deno.test({ name: "Create Job: a CSV upload", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const existing = await createJob(s, main, sampleJob({ role: "Posted Before" }));
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(
      `${width} px: the template, then a CSV file with new and posted rows`,
      async () => {
        const { context, page } = await newPage(browser, width);
        await openAs(page, s, main, "/admin/jobs/create");
        await selectTab(page, "JSON Upload");
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download CSV template" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "careeredge-jobs-template.csv");
        const template = await Deno.readTextFile(await download.path());
        assert.ok(template.startsWith(`${JOB_CSV_COLUMNS.join(",")}\r\n`), template);

        const header =
          "companyName,role,location,experience,description,requiredDegree,hiringLink,tools";
        const csv = [
          header,
          `"Umbrella, Ltd.",CSV Role ${width},Pune,2-3,"Line one\nLine two",Any,https://umbrella.example/${width},Git;Docker`,
          `Initech,Again,Pune,2-3,Text,Any,${existing.hiringLink},`,
          `Initech,Unknown Level,Pune,9-9,Text,Any,https://initech.example/${width},`,
          `Initech,Bad Link,Pune,2-3,Text,Any,initech dot example,`,
        ].join("\n");
        // Saved as Excel's plain CSV (Windows-1252): refused, with how to save it, not read broken.
        await page.getByLabel("JSON or CSV file").setInputFiles({
          name: "excel.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(
            `${header}\nCafé,Barista,Pune,0-1,x,y,https://cafe.example/1,\n`,
            "latin1",
          ),
        });
        await expectToast(page, NOT_UTF8);
        assert.equal(await page.getByLabel("Jobs (JSON or CSV)").inputValue(), "");
        await page.getByLabel("JSON or CSV file").setInputFiles({
          name: "jobs.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(csv),
        });
        await untilFilled(page.getByLabel("Jobs (JSON or CSV)"));
        await press(page.getByRole("button", { name: "Upload Jobs" }));
        await expectToast(page, "1 jobs created successfully!");
        await expectToast(page, "1 jobs rejected due to duplicate hiring links");
        await expectToast(page, "2 jobs failed to create");
        await expectText(page, "1 job created, 3 rows not created.");
        // Each row not created is named by its role and company, as the server read the file.
        await page.getByText("1 already posted", { exact: true }).click();
        await page.getByText(/^Row 2 · Again at Initech — Duplicate hiring link!/).waitFor();
        const notCreated = page.getByRole("table", { name: "Rows not created" }).getByRole("row");
        assert.deepEqual(
          (await notCreated.nth(1).getByRole("cell").allInnerTexts()).slice(0, 2),
          ["3", "Unknown Level at Initech"],
        );
        // Each problem in the form's words: the field's label, a link's in plain words.
        assert.match(await notCreated.nth(1).innerText(), /Experience: must be one of 0-1/);
        assert.deepEqual(await notCreated.nth(2).getByRole("cell").allInnerTexts(), [
          "4",
          "Bad Link at Initech",
          "Hiring Link: Enter a full link starting with https://",
        ]);
        await expectAccessible(page);
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
          "no sideways scrolling",
        );
        const { jobs } = await apiCall<{ jobs: { role: string; skills: { tools: string[] } }[] }>(
          s,
          main,
          "GET",
          `/api/jobs/admin/all?search=${encodeURIComponent(`CSV Role ${width}`)}`,
        );
        assert.deepEqual(jobs.map((job) => job.skills.tools), [["Git", "Docker"]]);
        await context.close();
      },
    );
  }

  await t.step("Excel's Unicode Text: a .txt the picker offers, UTF-16 with tabs", async () => {
    const { context, page } = await newPage(browser);
    await openAs(page, s, main, "/admin/jobs/create");
    await selectTab(page, "JSON Upload");
    const picker = page.getByLabel("JSON or CSV file");
    assert.ok((await picker.getAttribute("accept"))!.split(",").includes(".txt"));
    const text = [
      "companyName\trole\tlocation\texperience\tdescription\trequiredDegree\thiringLink",
      "Café, München\tTabbed Role\tPune\t2-3\tText\tAny\thttps://cafe.example/tabbed",
    ].join("\r\n");
    await picker.setInputFiles({
      name: "jobs.txt",
      mimeType: "text/plain",
      buffer: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    });
    await untilFilled(page.getByLabel("Jobs (JSON or CSV)"));
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await expectToast(page, "1 jobs created successfully!");
    const { jobs } = await apiCall<{ jobs: { companyName: string }[] }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all?search=Tabbed%20Role",
    );
    assert.deepEqual(jobs.map((job) => job.companyName), ["Café, München"]);
    await context.close();
  });

  await t.step("a CSV with an unknown column says which", async () => {
    const { context, page } = await newPage(browser);
    await openAs(page, s, main, "/admin/jobs/create");
    await selectTab(page, "JSON Upload");
    await page.getByLabel("Jobs (JSON or CSV)").fill("company,role\nAcme,Engineer");
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await page.locator("[data-sonner-toast]").filter({ hasText: 'Unknown column "company"' })
      .waitFor();
    await context.close();
  });
});

Deno.test({ name: "Manage Jobs: export as CSV", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await createJob(s, main, sampleJob({ role: "Exported Role", companyName: "Globex" }));
  await createJob(s, main, sampleJob({ role: "=Formula Role", companyName: "Initech" }));
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: the filter in view is what is exported`, async () => {
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs?company=Initech");
      await expectText(page, "Showing 1 to 1 of 1 job");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        press(page.getByRole("button", { name: "Export CSV" })),
      ]);
      await expectToast(page, "Jobs exported as CSV");
      assert.match(download.suggestedFilename(), /^careeredge-jobs-active-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await Deno.readTextFile(await download.path());
      const lines = text.trim().split("\r\n");
      assert.equal(lines.length, 2, text);
      assert.ok(lines[0].startsWith("jobId,status,datePosted,views,clicks,companyName"));
      assert.ok(lines[1].includes(",'=Formula Role,"), lines[1]);
      assert.ok(!text.includes("Exported Role"));
      await context.close();
    });
  }
});
