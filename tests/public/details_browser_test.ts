/**
 * Small things a visitor meets in Chromium: the copy toast above the share dialog, pagination on a
 * phone, a broken logo, the filters by pointer and by keyboard, Back to Jobs, a description's indentation.
 */
import assert from "node:assert/strict";
import { asPerson, browserTest, launchBrowser, wakeIslands } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

Deno.test("details of the public pages in Chromium", browserTest, async (t) => {
  await using server = await testServer();
  const base = server.url;
  const jobs = await seedJobs(
    server,
    Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? "Tester" : "Writer",
      companyName: `Company ${i}`,
      employmentType: i % 4 ? "Full-Time" as const : "Contract" as const,
      ...(i === 39
        ? {
          companyLogo: `${base}/no-such-logo.png`,
          description: "What you will do:\n    - indented point one\n        - nested point",
        }
        : {}),
    })),
  );
  const newest = jobs[39];
  await using browser = await launchBrowser();

  await t.step("the copy toast is shown above the share dialog and announced", async () => {
    const context = await browser.newContext({ ...asPerson() });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/jobs/${newest.jobId}`);
    await wakeIslands(page);
    await page.getByRole("button", { name: "Share Job" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Share this job" });
    await dialog.getByRole("button", { name: "Copy to Clipboard" }).click();
    const toast = page.getByRole("status").getByText("Job post copied to clipboard!");
    await toast.waitFor();
    // Topmost where it is drawn: nothing (no backdrop) covers it.
    const onTop = await toast.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && element.contains(hit);
    });
    assert.ok(onTop, "the toast is not covered");
    // In the accessibility tree, in a live region: the rest of the page is inert under the dialog.
    await page.getByRole("status").filter({ hasText: "Job post copied to clipboard!" }).waitFor();
    await context.close();
  });

  await t.step("Next stays on one line beside Previous on a 320 px phone", async () => {
    const context = await browser.newContext({
      ...asPerson(),
      viewport: { width: 320, height: 700 },
    });
    const page = await context.newPage();
    await page.goto(`${base}/jobs?page=2`);
    const nav = page.getByRole("navigation", { name: "Pagination" });
    const previous = await nav.getByRole("link", { name: "Previous" }).boundingBox();
    const next = await nav.getByRole("link", { name: "Next" }).boundingBox();
    assert.ok(previous && next);
    assert.equal(next.y, previous.y);
    assert.equal(next.height, previous.height);
    assert.ok(next.x + next.width <= 320);
    await context.close();
  });

  await t.step("a logo that fails to load shows the company's letter", async () => {
    const context = await browser.newContext({ ...asPerson() });
    const page = await context.newPage();
    await page.goto(`${base}/jobs`);
    // No island is woken: a broken logo is dropped as the page loads.
    // The logo is decorative (the company's name is beside it): what a person sees is its letter.
    const logo = page.getByRole("article").filter({ hasText: newest.companyName })
      .getByText("C", { exact: true });
    await logo.locator("img").waitFor({ state: "detached" });
    assert.ok(await logo.isVisible(), "the company's letter shows where the logo was");
    await context.close();
  });

  await t.step(
    "Tab goes from Filters into its choices, then Search; a keyboard choice waits for Search",
    async () => {
      const context = await browser.newContext({ ...asPerson() });
      const page = await context.newPage();
      await page.goto(`${base}/jobs`);
      await wakeIslands(page);
      const toggle = page.getByRole("button", { name: "Filters" });
      await toggle.focus();
      await page.keyboard.press("Enter");
      const stops: string[] = [];
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press("Tab");
        stops.push(
          await page.evaluate(() =>
            document.activeElement?.getAttribute("name") ??
              document.activeElement?.textContent?.trim() ?? ""
          ),
        );
      }
      assert.deepEqual(stops, [
        "category",
        "workMode",
        "experience",
        "employmentType",
        "payMin",
        "postedWithin",
        "company",
        "sortBy",
        "Search",
        "Clear Filters",
      ]);
      // Arrowing through a select changes its value at each key: nothing is sent until Search,
      // so the one page the visitor goes to is the one Search asks for.
      const visited: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) visited.push(frame.url());
      });
      const type = page.getByLabel("Employment Type");
      await type.focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      assert.equal(await type.inputValue(), "Contract");
      await page.getByRole("button", { name: "Search", exact: true }).press("Enter");
      await page.waitForURL(`${base}/jobs?employmentType=Contract`);
      await page.getByText("10 Jobs Found").waitFor();
      assert.deepEqual(visited, [`${base}/jobs?employmentType=Contract`]);
      page.removeAllListeners("framenavigated");
      // Chosen with the pointer, a filter applies at once.
      await wakeIslands(page);
      await page.getByLabel("Employment Type").selectOption("Full-Time");
      await page.waitForURL(`${base}/jobs?employmentType=Full-Time`);
      await page.getByText("30 Jobs Found").waitFor();
      await context.close();
    },
  );

  await t.step(
    "Back to Jobs returns to the visitor's search, scrolled where they left it",
    async () => {
      const context = await browser.newContext({ ...asPerson() });
      const page = await context.newPage();
      await page.goto(`${base}/jobs?role=Tester&page=2`);
      // The last card, down the page.
      const opened = page.getByRole("article").getByRole("heading", { level: 3 }).getByRole("link")
        .last();
      await opened.scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => scrollY);
      assert.ok(scrolled > 0);
      await opened.click();
      await page.waitForURL(/\/jobs\/JB-/);
      await wakeIslands(page);
      await page.getByRole("link", { name: "← Back to Jobs" }).click();
      await page.waitForURL(`${base}/jobs?role=Tester&page=2`);
      // Where the visitor left it, as the browser's Back returns.
      await page.waitForFunction((at) => Math.abs(scrollY - at) < 50, scrolled);
      await page.goto(`${base}/jobs/${newest.jobId}`);
      await wakeIslands(page);
      assert.equal(
        await page.getByRole("link", { name: "← Back to Jobs" }).getAttribute("href"),
        "/jobs",
      );
      await context.close();
    },
  );

  await t.step("a description keeps its indentation", async () => {
    const context = await browser.newContext({ ...asPerson() });
    const page = await context.newPage();
    await page.goto(`${base}/jobs/${newest.jobId}`);
    const description = page.getByRole("region", { name: "Job Description" }).locator("p");
    const text = await description.evaluate((element) => (element as HTMLElement).innerText);
    assert.ok(text.includes("\n    - indented point one\n        - nested point"), text);
    await context.close();
  });
});
