/** Create Job in Chromium: the form, skills and keywords, the duplicate dialog, the JSON upload. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
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
  selectTab,
  untilFilled,
} from "./helpers.ts";
import { EXPERIENCE_OPTIONS, type JobWithAnalytics } from "../../kv/schemas.ts";

Deno.test({ name: "Create Job: form and JSON upload", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const existing = await createJob(
    s,
    main,
    sampleJob({ role: "Existing Role", companyName: "Initech" }),
  );
  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const role = () => page.getByRole("textbox", { name: "Role", exact: true });

  await t.step("only accounts with canCreateJobs get the form", async () => {
    for (const kind of ACCOUNT_KINDS) {
      const account = kind.main
        ? main
        : await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, "/admin/jobs/create");
      if (kind.main || kind.permissions!.includes("canCreateJobs")) {
        await expectHeading(page, "Create Job");
        await page.getByRole("tab", { name: "Form Input" }).waitFor();
        await page.getByRole("tab", { name: "JSON Upload" }).waitFor();
      } else {
        await expectHeading(page, "Access Denied");
        await expectText(page, "You don't have permission to create jobs");
        assert.equal(await page.getByRole("tab").count(), 0);
      }
    }
  });

  await t.step("the form: its sections, the notice, defaults, and what is missing", async () => {
    await openAs(page, s, main, "/admin/jobs/create");
    await page.getByRole("note").getByText(/duplicate hiring link/i).waitFor();
    for (const legend of ["Basic Information", "Job Details", "Skills & Keywords"]) {
      await page.getByRole("group", { name: legend }).waitFor();
    }
    assert.equal(await page.getByLabel("Employment Type").inputValue(), "Full-Time");
    assert.equal(await page.getByLabel("Job Description").getAttribute("rows"), "6");
    assert.equal(await page.getByLabel("Required Degree").getAttribute("rows"), "3");
    assert.equal(await page.getByLabel("Hiring Link").getAttribute("type"), "url");
    assert.equal(await page.getByLabel("Company Logo URL").getAttribute("type"), "url");
    await expectAccessible(page);
    await press(page.getByRole("button", { name: "Create Job" }));
    await expectToast(
      page,
      "Please fill in: Company Name, Role, Location, Experience, Job Description, Required Degree, Hiring Link",
    );
    // Each missing field says so itself, and focus goes to the first.
    const company = page.getByLabel("Company Name");
    assert.equal(await company.getAttribute("aria-invalid"), "true");
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      await company.getAttribute("id"),
    );
    for (const label of ["Company Name", "Location", "Job Description", "Hiring Link"]) {
      const field = page.getByLabel(label);
      assert.equal(await field.getAttribute("aria-invalid"), "true", label);
      const describedBy = await field.getAttribute("aria-describedby");
      assert.equal(
        await page.locator(`[id="${describedBy}"]`).textContent(),
        `${label} is required`,
      );
    }
    assert.equal(await page.getByLabel("Company Logo URL").getAttribute("aria-invalid"), null);
    await expectAccessible(page);
  });

  await t.step("skills and keywords: Enter or Add, trimmed, no empties or repeats", async () => {
    const keywords = page.getByRole("textbox", { name: "Keywords", exact: true });
    await keywords.fill("  cloud  ");
    await keywords.press("Enter");
    await keywords.fill("cloud");
    await page.getByRole("button", { name: "Add to Keywords" }).click();
    await keywords.fill("   ");
    await keywords.press("Enter");
    await keywords.fill("edge");
    await page.getByRole("button", { name: "Add to Keywords" }).click();
    const list = page.getByRole("list", { name: "Keywords" });
    assert.deepEqual(await list.getByRole("listitem").allInnerTexts(), ["cloud\n×", "edge\n×"]);
    await page.getByRole("button", { name: "Remove cloud" }).click();
    assert.deepEqual(await list.getByRole("listitem").allInnerTexts(), ["edge\n×"]);
    const languages = page.getByRole("textbox", { name: "Programming Languages", exact: true });
    await languages.fill("Rust");
    await languages.press("Enter");
    await page.getByRole("textbox", { name: "Databases", exact: true }).fill("Redis");
    await page.getByRole("button", { name: "Add to Databases" }).click();
    // Enter in a list input adds; it never submits the form.
    assert.equal(page.url(), `${s.url}/admin/jobs/create`);
  });

  const link = "https://careers.example.com/jobs/platform-engineer";

  await t.step("a complete form creates the job: listed, public, with its lists", async () => {
    await page.getByLabel("Company Name").fill("Umbrella");
    await role().fill("Platform Engineer");
    await page.getByLabel("Location").fill("Hyderabad");
    await page.getByLabel("Experience").selectOption("3+");
    await page.getByLabel("Estimated Package").fill("20-30 LPA");
    await page.getByLabel("Hiring Link").fill(link);
    await page.getByLabel("Job Description").fill("Run the platform.\nOn call one week in six.");
    await page.getByLabel("Required Degree").fill("Any degree");
    await press(page.getByRole("button", { name: "Create Job" }));
    await expectToast(page, "Job created successfully!");
    await page.waitForURL(`${s.url}/admin/jobs`);
    await page.locator("tbody").getByText("Platform Engineer", { exact: true }).waitFor();
    const { jobs } = await apiCall<{ jobs: JobWithAnalytics[] }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all?search=Platform",
    );
    assert.equal(jobs.length, 1);
    const [job] = jobs;
    assert.equal(job.employmentType, "Full-Time");
    assert.deepEqual(job.keywords, ["edge"]);
    assert.deepEqual(job.skills.languages, ["Rust"]);
    assert.deepEqual(job.skills.databases, ["Redis"]);
    assert.equal(job.estPackage, "20-30 LPA");
    assert.equal(await publicStatus(s, job.jobId), 200);
  });

  await t.step("a hiring link already in use opens the duplicate dialog and stops", async () => {
    await page.goto(`${s.url}/admin/jobs/create`);
    await page.getByLabel("Company Name").fill("Someone Else");
    await role().fill("Another Role");
    await page.getByLabel("Location").fill("Chennai");
    await page.getByLabel("Experience").selectOption("0-1");
    await page.getByLabel("Hiring Link").fill(existing.hiringLink);
    await page.getByLabel("Job Description").fill("Something");
    await page.getByLabel("Required Degree").fill("Something");
    await press(page.getByRole("button", { name: "Create Job" }));
    const dialog = page.getByRole("dialog", { name: "Duplicate Job Detected" });
    for (const text of ["Existing Role", "Initech", existing.location]) {
      await dialog.getByText(text, { exact: true }).waitFor();
    }
    await expectAccessible(page);
    await closeByEscape(page);
    await press(page.getByRole("button", { name: "Create Job" }));
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
    await press(page.getByRole("button", { name: "Create Job" }));
    await dialog.getByRole("button", { name: "View/Edit Existing Job" }).click();
    // The form still holds what was typed: leaving it asks first.
    await page.getByRole("dialog", { name: "Leave without saving?" })
      .getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(`${s.url}/admin/jobs/edit/${existing._id}`);
    const { statusCounts } = await apiCall<{ statusCounts: { all: number } }>(
      s,
      main,
      "GET",
      "/api/jobs/admin/all",
    );
    assert.equal(statusCounts.all, 2, "nothing was created");
  });

  await t.step("JSON upload: the guide, Use Example, and the format messages", async () => {
    await page.goto(`${s.url}/admin/jobs/create`);
    await selectTab(page, "JSON Upload");
    await expectHeading(page, "Format guide");
    await expectHeading(page, "Required fields");
    const box = page.getByLabel("Jobs (JSON or CSV)");
    assert.equal(await box.getAttribute("rows"), "20");
    await page.getByRole("button", { name: "Use Example" }).click();
    assert.ok(JSON.parse(await box.inputValue()).jobs.length > 0);
    await expectAccessible(page);
    await box.fill("{ not json");
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await expectToast(page, "Invalid JSON format");
    await box.fill('{ "items": [] }');
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await expectToast(page, 'JSON must contain a "jobs" array');
  });

  await t.step("switching between the tabs keeps what was typed in each", async () => {
    const box = page.getByLabel("Jobs (JSON or CSV)");
    await box.fill('{ "jobs": [');
    await selectTab(page, "Form Input");
    await page.getByLabel("Company Name").fill("Half Typed Ltd");
    await role().fill("Half Typed Role");
    await selectTab(page, "JSON Upload");
    assert.equal(await box.inputValue(), '{ "jobs": [');
    await selectTab(page, "Form Input");
    assert.equal(await page.getByLabel("Company Name").inputValue(), "Half Typed Ltd");
    assert.equal(await role().inputValue(), "Half Typed Role");
    await expectAccessible(page);
    // Emptied again, the form holds nothing to ask about when an upload leaves the page.
    await page.getByLabel("Company Name").fill("");
    await role().fill("");
    await selectTab(page, "JSON Upload");
  });

  await t.step(
    "50 jobs, 3 duplicate links, 2 invalid: 45 created, and the 5 rows not created listed",
    async () => {
      const taken = [existing];
      for (let i = 0; i < 2; i++) {
        taken.push(await createJob(s, main, sampleJob({ role: `Taken ${i}` })));
      }
      const upload = Array.from(
        { length: 45 },
        (_, i) => sampleJob({ role: `Bulk ${i}` }),
      ) as Record<string, unknown>[];
      upload.push(...taken.map((job) => sampleJob({ hiringLink: job.hiringLink })));
      upload.push({ ...sampleJob(), role: "" }, { ...sampleJob(), experience: "forever" });
      await page.getByLabel("Jobs (JSON or CSV)").fill(JSON.stringify({ jobs: upload }));
      await press(page.getByRole("button", { name: "Upload Jobs" }));
      await expectToast(page, "45 jobs created successfully!");
      await expectToast(page, "3 jobs rejected due to duplicate hiring links");
      await expectToast(page, "2 jobs failed to create");
      await expectText(page, "45 jobs created, 5 rows not created.");
      // The rows already posted are summed up, their list folded away until asked for.
      const summary = page.getByText("3 already posted", { exact: true });
      const firstDuplicate = page.getByText(
        'Row 46 · Software Engineer at Acme Corp — Duplicate hiring link! This link is already used by "Existing Role" at Initech',
      );
      assert.equal(await firstDuplicate.isVisible(), false);
      await summary.click();
      await firstDuplicate.waitFor();
      const rows = page.getByRole("table", { name: "Rows not created" }).getByRole("row");
      assert.equal(await rows.count(), 3, "a heading row and the two rows to fix");
      assert.deepEqual(await rows.nth(2).getByRole("cell").allInnerTexts(), [
        "50",
        `${sampleJob().role} at Acme Corp`,
        `Experience: must be one of ${EXPERIENCE_OPTIONS.join(", ")}`,
      ]);
      await page.getByRole("link", { name: "Go to Manage Jobs" }).click();
      await page.waitForURL(`${s.url}/admin/jobs`);
      await page.getByRole("tab", { name: "Active (49)" }).waitFor();
    },
  );

  await t.step(
    "a JSON file with good and bad rows at 390 px: what was not created, and why",
    async () => {
      const { page: phone, context } = await newPage(browser, 390);
      try {
        await openAs(phone, s, main, "/admin/jobs/create");
        await phone.getByRole("tab", { name: "JSON Upload" }).click();
        // The format guide's field names stay whole on a phone (they ran together into one word,
        // broken as "datab ases").
        await phone.getByRole("heading", { name: "Format guide" }).waitFor();
        const split = await phone.locator("code").evaluateAll((all) =>
          all.filter((code) => code.getClientRects().length > 1).map((code) => code.textContent)
        );
        assert.deepEqual(split, []);
        const rows = [
          sampleJob({ role: "Phone Good One", companyName: "Globex" }),
          { ...sampleJob(), companyName: "Hooli", role: "" },
          "just a string",
          sampleJob({ role: "Phone Good Two", hiringLink: "https://globex.example/jobs/two" }),
          sampleJob({ role: "Same Link", hiringLink: "https://globex.example/jobs/two/" }),
        ];
        await phone.getByLabel("JSON or CSV file").setInputFiles({
          name: "jobs.json",
          mimeType: "application/json",
          buffer: Buffer.from(JSON.stringify({ jobs: rows })),
        });
        const box = phone.getByLabel("Jobs (JSON or CSV)");
        // The file is read in the background; then its text is in the box.
        await untilFilled(box);
        assert.equal(JSON.parse(await box.inputValue()).jobs.length, 5, "the file is in the box");
        await press(phone.getByRole("button", { name: "Upload Jobs" }));
        await expectToast(phone, "2 jobs created successfully!");
        await expectHeading(phone, "Upload result");
        await expectText(phone, "2 jobs created, 3 rows not created.");
        const table = phone.getByRole("table", { name: "Rows not created" });
        assert.deepEqual(await table.getByRole("columnheader").allInnerTexts(), [
          "Row",
          "Job",
          "Problem",
        ]);
        const cells = async (i: number) =>
          await table.getByRole("row").nth(i).getByRole("cell").allInnerTexts();
        assert.deepEqual(await cells(1), ["2", "Hooli", "Please fill in: role"]);
        assert.deepEqual(await cells(2), ["3", "—", "Job must be a JSON object"]);
        assert.equal(await table.getByRole("row").count(), 3);
        await phone.getByText("1 already posted", { exact: true })
          .click();
        await expectText(
          phone,
          "Row 5 · Same Link at Acme Corp — Duplicate hiring link! Row 4 of this upload has the same link",
        );
        // The whole table is on screen at 390 px, nothing cut off to the side.
        const box390 = (await table.boundingBox())!;
        assert.ok(box390.x >= 0 && box390.x + box390.width <= 390, JSON.stringify(box390));
        assert.ok(
          await phone.evaluate(() => document.documentElement.scrollWidth <= 390),
          "no sideways scrolling",
        );
        await expectAccessible(phone);
        // The rows not created go back in the box, to be fixed and uploaded again.
        await press(phone.getByRole("button", { name: "Keep only the rows not created" }));
        assert.deepEqual(JSON.parse(await box.inputValue()).jobs, [rows[1], rows[2], rows[4]]);
        assert.equal(phone.url(), `${s.url}/admin/jobs/create`);
      } finally {
        await context.close();
      }
    },
  );

  await t.step("an upload that creates nothing stays on the page", async () => {
    await page.goto(`${s.url}/admin/jobs/create`);
    await selectTab(page, "JSON Upload");
    await page.getByLabel("Jobs (JSON or CSV)").fill(
      JSON.stringify({ jobs: [sampleJob({ hiringLink: existing.hiringLink })] }),
    );
    await press(page.getByRole("button", { name: "Upload Jobs" }));
    await expectToast(page, "1 jobs rejected due to duplicate hiring links");
    assert.equal(page.url(), `${s.url}/admin/jobs/create`);
    assert.equal(await page.getByText("jobs created successfully!").count(), 0);
  });
});
