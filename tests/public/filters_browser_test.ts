/**
 * The Salary, Work Mode, Role Category, Date Posted and Company filters and the pay order in
 * Chromium at a phone's width (390 px), with JavaScript on and off: each choice lands in the URL
 * and narrows the cards, and the page never grows wider than the screen.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  asPerson,
  browserTest,
  launchBrowser,
  screenshot,
  SCREENSHOTS,
  wakeIslands,
} from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

const PHONE = { width: 390, height: 844 };
const DAY = 86_400_000;

const cards = (page: Page) => page.getByRole("article");
const cardRoles = (page: Page) =>
  cards(page).getByRole("heading", { level: 3 }).getByRole("link").allTextContents();
const select = (page: Page, name: string) => page.locator(`select[name="${name}"]`);
const search = (page: Page) => new URL(page.url()).search;

async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the page is ${width} px wide`);
}

Deno.test("the new filters at 390 px, with JavaScript on and off", browserTest, async (t) => {
  await using server = await testServer();
  // Posting ages are counted from the server's clock.
  const now = server.clock.now.getTime();
  await seedJobs(server, [
    {
      role: "Data Scientist",
      companyName: "Acme Corp",
      estPackage: "20-25 LPA",
      location: "Bengaluru / Chennai",
      datePosted: new Date(now - 20 * DAY).toISOString(),
    },
    {
      role: "Support Intern",
      companyName: "Beta Labs",
      estPackage: "₹15,000 per month",
      location: "Remote",
      datePosted: new Date(now - 2 * DAY).toISOString(),
    },
    {
      role: "Backend Engineer",
      companyName: "Gamma",
      estPackage: "8-12 LPA",
      location: "Hybrid - Pune",
      datePosted: new Date(now - 3_600_000).toISOString(),
    },
  ]);
  await using browser = await launchBrowser();

  await t.step("with JavaScript: a choice applies at once and lands in the URL", async () => {
    const context = await browser.newContext({ ...asPerson(), viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/jobs`);
    await wakeIslands(page);
    await fitsTheScreen(page);
    await page.getByRole("button", { name: "Filters" }).click();
    await select(page, "payMin").selectOption("1000000");
    await page.waitForURL(/payMin=1000000/);
    assert.deepEqual((await cardRoles(page)).sort(), ["Backend Engineer", "Data Scientist"]);
    await wakeIslands(page);
    await select(page, "workMode").selectOption("Hybrid");
    await page.waitForURL(/workMode=Hybrid/);
    assert.equal(search(page), "?workMode=Hybrid&payMin=1000000");
    assert.deepEqual(await cardRoles(page), ["Backend Engineer"]);
    // On a phone the choice lands on its results, below the sticky header, not on the open panel.
    const found = await page.getByRole("heading", { name: "1 Jobs Found" }).boundingBox();
    assert.ok(found && found.y >= 64 && found.y + found.height <= PHONE.height, `at ${found?.y}`);
    await page.goto(`${server.url}/jobs`);
    await wakeIslands(page);
    await select(page, "sortBy").selectOption("pay");
    await page.waitForURL(/sortBy=pay/);
    assert.deepEqual(await cardRoles(page), [
      "Data Scientist",
      "Backend Engineer",
      "Support Intern",
    ]);
    await wakeIslands(page);
    await page.getByRole("button", { name: "Filters" }).click();
    await select(page, "postedWithin").selectOption("3");
    await page.waitForURL(/postedWithin=3/);
    assert.deepEqual(await cardRoles(page), ["Backend Engineer", "Support Intern"]);
    await fitsTheScreen(page);
    await context.close();
  });

  await t.step("without JavaScript: the form's Search applies the choices", async () => {
    const context = await browser.newContext({
      ...asPerson(),
      viewport: PHONE,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/jobs`);
    await fitsTheScreen(page);
    await select(page, "category").selectOption("Engineering");
    await select(page, "postedWithin").selectOption("7");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/category=Engineering/);
    assert.equal(search(page), "?category=Engineering&postedWithin=7");
    assert.deepEqual(await cardRoles(page), ["Backend Engineer"]);
    assert.equal(
      await select(page, "postedWithin").locator("option:checked").textContent(),
      "Last 7 days (1)",
    );
    // The company on a card goes to the company's jobs, headed by its name.
    await page.goto(`${server.url}/jobs`);
    await cards(page).getByRole("link", { name: "Beta Labs", exact: true }).click();
    await page.waitForURL(/company=Beta\+Labs/);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Jobs at Beta Labs");
    assert.deepEqual(await cardRoles(page), ["Support Intern"]);
    assert.equal(await page.locator(".chip-mode").first().textContent(), "Remote");
    await fitsTheScreen(page);
    await context.close();
  });

  await t.step("back and forward: the form shows the search the list shows", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({
        ...asPerson(),
        viewport: PHONE,
        javaScriptEnabled,
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/jobs`);
      if (javaScriptEnabled) {
        await wakeIslands(page);
        await page.getByRole("button", { name: "Filters" }).click();
      }
      await page.getByRole("textbox", { name: "Job title, keywords, or company" }).fill("intern");
      await select(page, "sortBy").selectOption("pay");
      if (!javaScriptEnabled) {
        await page.getByRole("button", { name: "Search", exact: true }).click();
      }
      await page.waitForURL(/sortBy=pay/);
      await page.goBack();
      await page.waitForURL(`${server.url}/jobs`);
      assert.deepEqual(await cardRoles(page), [
        "Backend Engineer",
        "Support Intern",
        "Data Scientist",
      ]);
      const keywords = page.getByRole("textbox", { name: "Job title, keywords, or company" });
      assert.equal(await keywords.inputValue(), "", `JavaScript ${javaScriptEnabled}`);
      assert.equal(await select(page, "sortBy").inputValue(), "relevance");
      await page.goForward();
      await page.waitForURL(/sortBy=pay/);
      assert.equal(await keywords.inputValue(), "intern");
      assert.equal(await select(page, "sortBy").inputValue(), "pay");
      await context.close();
    }
  });

  await t.step("an empty result's looser search looks like a link", async () => {
    const context = await browser.newContext({ ...asPerson(), viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/jobs?keywords=backend&location=Mumbai`);
    const offer = page.getByRole("link", { name: "3 jobs in any location" });
    const look = (element: Element) => {
      const style = getComputedStyle(element);
      return { underline: style.textDecorationLine, color: style.color };
    };
    const link = await offer.evaluate(look);
    const text = await page.locator(".empty-state .muted").evaluate(look);
    assert.equal(link.underline, "underline");
    assert.notEqual(link.color, text.color);
    await context.close();
  });

  await t.step("screenshots of /jobs at 390 and 1366 px", async () => {
    if (!SCREENSHOTS) return;
    for (const width of [390, 1366]) {
      const context = await browser.newContext({
        ...asPerson(),
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/jobs?payMin=600000`);
      await screenshot(page, `jobs-${width}`);
      await context.close();
    }
  });
});
