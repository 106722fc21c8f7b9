/** Drafts and duplicates in the portal: save a draft, find it under Drafts, publish it; copy a job. */
import assert from "node:assert/strict";
import { sampleJob, type TestServer, testServer } from "../helpers/server.ts";
import { type SignedInAdmin, signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import type { Job } from "../../kv/schemas.ts";
import {
  apiCall,
  closeByEscape,
  createJob,
  expectAccessible,
  expectHeading,
  expectToast,
  newPage,
  openAs,
  press,
  publicStatus,
} from "./helpers.ts";

async function draftsOf(s: TestServer, admin: SignedInAdmin): Promise<Job[]> {
  return (await apiCall<{ jobs: Job[] }>(s, admin, "GET", "/api/jobs/admin/all?status=draft"))
    .jobs;
}

Deno.test({ name: "Drafts: save, find under Drafts, publish", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: a draft from Create Job, published once complete`, async () => {
      const role = `Drafted Role ${width}`;
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs/create");
      await page.getByRole("textbox", { name: "Role", exact: true }).fill(role);
      await page.getByLabel("Company Name").fill("Umbrella");
      await press(page.getByRole("button", { name: "Save as draft" }));
      await expectToast(page, "Draft saved: find it under Drafts");
      await page.getByRole("tab", { name: /^Drafts \(\d+\)$/, selected: true }).waitFor();
      const row = (text: string) => page.locator("tbody tr").filter({ hasText: text });
      await row(role).getByText("Draft", { exact: true }).waitFor();
      const [draft] = (await draftsOf(s, main)).filter((job) => job.role === role);
      assert.equal(await publicStatus(s, draft._id), 404);
      await expectAccessible(page);

      // Published as it is, it is refused in the form's words.
      await press(row(role).getByRole("button", { name: `Publish ${role} at Umbrella` }));
      await expectToast(
        page,
        "Please fill in: Location, Experience, Job Description, Required Degree, Hiring Link",
      );
      assert.equal(await publicStatus(s, draft._id), 404);

      // Its details offer Publish, and no Apply Link while it has no link.
      await press(row(role).getByRole("button", { name: `Details of ${role} at Umbrella` }));
      const details = page.getByRole("dialog");
      await details.getByRole("button", { name: "Publish", exact: true }).waitFor();
      assert.equal(await details.getByRole("link", { name: "Apply Link" }).count(), 0);
      await closeByEscape(page);

      // Completed in the editor and published from there.
      await press(row(role).getByRole("link", { name: `Edit ${role} at Umbrella` }));
      await expectHeading(page, "Edit Draft");
      // The work mode read from the blank location is left to the location filled in now.
      assert.equal(await page.getByLabel("Work Mode").inputValue(), "");
      await page.getByLabel("Location").fill("Remote");
      await page.getByLabel("Experience").selectOption("3+");
      await page.getByLabel("Hiring Link").fill(`https://umbrella.example/jobs/${width}`);
      await page.getByLabel("Job Description").fill("Run the platform.");
      await page.getByLabel("Required Degree").fill("Any degree");
      await press(page.getByRole("button", { name: "Publish", exact: true }));
      await expectToast(page, "Job published");
      await expectHeading(page, "Manage Jobs");
      await row(role).getByText("Active", { exact: true }).waitFor();
      assert.equal(await publicStatus(s, draft._id), 200);
      assert.equal((await s.services.jobs.get(draft._id))?.workMode, "Remote");
      await context.close();
    });

    await t.step(
      `${width} px: publishing a draft whose link is taken shows the dialog`,
      async () => {
        const holder = await createJob(s, main, sampleJob({ role: `Link Holder ${width}` }));
        const body = {
          ...sampleJob({ role: `Late Draft ${width}` }),
          hiringLink: holder.hiringLink,
        };
        const draft = (await apiCall<{ job: Job }>(s, main, "POST", "/api/jobs", {
          ...body,
          status: "draft",
        })).job;
        const { context, page } = await newPage(browser, width);
        await openAs(page, s, main, "/admin/jobs?status=draft");
        const row = page.locator("tbody tr").filter({ hasText: draft.role });
        await press(row.getByRole("button", { name: `Publish ${draft.role} at` }));
        const dialog = page.getByRole("dialog", { name: "Duplicate Job Detected" });
        await dialog.getByText(holder.role).waitFor();
        await dialog.getByRole("button", { name: "Close" }).first().click();
        await dialog.waitFor({ state: "detached" });
        assert.equal(await publicStatus(s, draft._id), 404);
        await context.close();
      },
    );
  }
});

Deno.test({ name: "Manage Jobs: duplicate a job", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: the copy opens in the editor as a draft`, async () => {
      const original = await createJob(s, main, sampleJob({ role: `Original ${width}` }));
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs");
      const row = page.locator("tbody tr").filter({ hasText: original.role });
      await press(row.getByRole("button", { name: `Duplicate ${original.role} at` }));
      await expectToast(page, "Draft copy created: edit it, then publish it");
      await expectHeading(page, "Edit Draft");
      const roleField = page.getByRole("textbox", { name: "Role", exact: true });
      assert.equal(await roleField.inputValue(), `${original.role} (copy)`);
      assert.equal(await page.getByLabel("Hiring Link").inputValue(), original.hiringLink);
      const [copy] = (await draftsOf(s, main)).filter((job) =>
        job.role === `${original.role} (copy)`
      );
      assert.ok(page.url().endsWith(`/admin/jobs/edit/${copy._id}`), page.url());
      assert.equal(await publicStatus(s, copy._id), 404);
      await expectAccessible(page);

      // Renamed and saved again as a draft, it waits under Drafts; the original is untouched.
      await roleField.fill(`Copied ${width}`);
      await press(page.getByRole("button", { name: "Save draft" }));
      await expectToast(page, "Draft saved");
      await page.getByRole("tab", { name: /^Drafts/, selected: true }).waitFor();
      await page.locator("tbody tr").filter({ hasText: `Copied ${width}` }).waitFor();
      assert.equal(await publicStatus(s, original._id), 200);
      await context.close();
    });
  }
});
