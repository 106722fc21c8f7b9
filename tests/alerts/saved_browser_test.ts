/**
 * Saved jobs in Chromium: Save Job toggles and is counted in the header of every tab, `/saved`
 * lists saved and recently viewed jobs with their current data (a closed job as closed, removable),
 * and without JavaScript the button and the page say what they need. At 390 px wide.
 */
import assert from "node:assert/strict";
import { browserTest, launchBrowser, screenshot, wakeIslands } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { seedJobs } from "../public/fixtures.ts";
import { SAVED_JOBS_MAX } from "../../kv/constants.ts";

const PHONE = { width: 390, height: 844 };

Deno.test("saved jobs in Chromium", browserTest, async (t) => {
  await using server = await testServer();
  const base = server.url;
  const [writer, tester, cook] = await seedJobs(server, [
    { role: "Technical Writer", companyName: "Inkwell" },
    { role: "QA Tester", companyName: "Bugcatch" },
    { role: "Line Cook", companyName: "Tiffin Co" },
  ]);
  await using browser = await launchBrowser();

  await t.step("a page that is only read runs no island script", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(`${base}/jobs/${writer.jobId}`);
    await page.waitForLoadState("networkidle");
    assert.ok(!fetched.some((path) => path.startsWith("/assets/islands/")), fetched.join(" "));
    await context.close();
  });

  await t.step("Save Job toggles, the header counts it in every tab", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const other = await context.newPage();
    await other.goto(`${base}/jobs`);
    await wakeIslands(other);
    await page.goto(`${base}/jobs/${writer.jobId}`);
    await wakeIslands(page);
    const save = page.getByRole("button", { name: "Save Job" }).first();
    assert.equal(await save.getAttribute("aria-pressed"), "false");
    await save.click();
    assert.equal(await save.getAttribute("aria-pressed"), "true");
    await page.getByRole("link", { name: "Saved 1 job" }).waitFor();
    await other.getByRole("link", { name: "Saved 1 job" }).waitFor();
    await screenshot(page, "saved-job-390");

    await page.goto(`${base}/jobs/${tester.jobId}`);
    await wakeIslands(page);
    await page.getByRole("link", { name: "Saved 1 job" }).waitFor();

    // The saved job closes meanwhile.
    await server.services.jobs.setStatus(writer._id, "dump");
    await page.getByRole("link", { name: "Saved 1 job" }).click();
    // The lists wake as the page loads; the header's link when the visitor moves.
    await page.locator("[data-island^='saved-list:'][data-ready]").waitFor({ state: "attached" });
    await wakeIslands(page);
    const saved = page.getByRole("region", { name: /Saved Jobs/ });
    await saved.getByRole("heading", { name: "Saved Jobs (1)" }).waitFor();
    await saved.getByText("Technical Writer").waitFor();
    await saved.getByText("Closed: no longer taking applications").waitFor();
    const viewed = page.getByRole("region", { name: /Recently Viewed/ });
    await viewed.getByRole("heading", { name: "Recently Viewed (2)" }).waitFor();
    assert.deepEqual(await viewed.getByRole("link").allTextContents(), [
      "QA Tester",
      "Technical Writer",
    ]);
    await screenshot(page, "saved-page-390");
    const box = await page.locator("body").evaluate((body) => body.scrollWidth);
    assert.ok(box <= PHONE.width, "nothing is wider than the phone");

    // Removed from the keyboard, focus stays in the list: on the next job's Remove, else on the
    // list's heading.
    await viewed.getByRole("button", { name: "Remove QA Tester" }).press("Enter");
    await viewed.getByRole("heading", { name: "Recently Viewed (1)" }).waitFor();
    await viewed.getByRole("button", { name: "Remove Technical Writer" }).and(
      page.locator(":focus"),
    )
      .waitFor();
    await saved.getByRole("button", { name: "Remove Technical Writer" }).press("Enter");
    await saved.getByRole("heading", { name: "Saved Jobs (0)" }).and(page.locator(":focus"))
      .waitFor();
    await other.getByRole("link", { name: "Saved", exact: true }).waitFor();
    await context.close();
  });

  await t.step("without JavaScript the button and /saved say they need it", async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/jobs/${tester.jobId}`);
    await page.getByRole("button", { name: "Save Job (needs JavaScript)" }).first().waitFor();
    await page.getByRole("link", { name: "Saved", exact: true }).click();
    await page.getByText("showing them needs JavaScript").waitFor();
    assert.equal(await page.getByText("Loading...").isVisible(), false);
    await screenshot(page, "saved-nojs-390");
    await context.close();
  });

  await t.step(
    `at ${SAVED_JOBS_MAX} saved jobs, saving another drops none and says why`,
    async () => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${base}/jobs`);
      const kept = Array.from({ length: SAVED_JOBS_MAX }, (_, i) => ({
        id: `kept-${i}`,
        jobId: `JB-${9000 + i}`,
        role: `Kept Role ${i}`,
        companyName: "Kept",
        at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      }));
      await page.evaluate((list) => {
        localStorage.setItem("careeredge:saved-jobs", JSON.stringify(list));
      }, kept);
      await page.goto(`${base}/jobs/${cook.jobId}`);
      await wakeIslands(page);
      await page.getByRole("link", { name: `Saved ${SAVED_JOBS_MAX} jobs` }).waitFor();
      const save = page.getByRole("button", { name: "Save Job" }).first();
      await save.click();
      await page.getByRole("status").getByText(
        `You can keep ${SAVED_JOBS_MAX} saved jobs: remove one under Saved to save this one.`,
      ).waitFor();
      assert.equal(await save.getAttribute("aria-pressed"), "false");
      const stored = await page.evaluate(() => localStorage.getItem("careeredge:saved-jobs"));
      assert.deepEqual(JSON.parse(stored!), kept);
      await context.close();
    },
  );

  await t.step("a saved job deleted since shows as closed", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${base}/jobs/${tester.jobId}`);
    await wakeIslands(page);
    await page.getByRole("button", { name: "Save Job" }).first().click();
    await page.getByRole("link", { name: "Saved 1 job" }).waitFor();
    await server.services.jobs.delete(tester._id);
    await page.goto(`${base}/saved`);
    const saved = page.getByRole("region", { name: /Saved Jobs/ });
    await saved.getByRole("heading", { name: "Saved Jobs (1)" }).waitFor();
    await saved.getByText("QA Tester").waitFor();
    await saved.getByText("Closed: no longer taking applications").waitFor();
    await context.close();
  });
});

Deno.test("/saved is noindex and the saved-jobs call is bounded", async () => {
  await using server = await testServer();
  const [job] = await seedJobs(server, [{ role: "Welder" }]);
  const page = await server.app.request("/saved");
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<meta name="robots" content="noindex, follow"\/>/);

  const found = await server.app.request(`/api/saved-jobs?ids=${job._id},${"0".repeat(24)}`);
  assert.equal(found.status, 200);
  const { jobs } = await found.json();
  assert.deepEqual(jobs.map((j: { role: string; active: boolean }) => [j.role, j.active]), [[
    "Welder",
    true,
  ]]);

  const many = Array.from({ length: 121 }, (_, i) => i.toString(16).padStart(24, "0")).join(",");
  const tooMany = await server.app.request(`/api/saved-jobs?ids=${many}`);
  assert.equal(tooMany.status, 400);
  assert.match((await tooMany.json()).message, /at most 120/);
  assert.equal((await server.app.request("/api/saved-jobs?ids=<x>")).status, 400);
});
