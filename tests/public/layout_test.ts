/**
 * Public pages on a phone and a desktop with the longest texts the schema allows: no page is ever
 * wider than the screen, and every long text can still be read in full. With SCREENSHOTS set,
 * each page is also saved as a full-page PNG there, for a person to look at.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { asPerson, browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { LONG_COMPANY, LONG_ROLE, LONGEST_JOB, longestPaths, seedJobs } from "./fixtures.ts";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const WIDTHS = [320, 390, 1366];

/** Elements wider than the screen, as "tag.class (width)". */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll("body *")].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > width + 0.5 && !element.closest("dialog:not([open])");
    }).slice(0, 5).map((element) =>
      `${element.tagName.toLowerCase()}.${element.className} (${
        Math.round(element.getBoundingClientRect().right)
      } > ${width})`
    );
  });
}

Deno.test(
  "no public page is wider than the screen with the longest texts",
  browserTest,
  async (t) => {
    await using server = await testServer();
    const seeded = await seedJobs(server, [
      ...Array.from({ length: 13 }, (_, i) => ({
        role: `Backend Engineer ${i}`,
        companyName: `Company ${i}`,
        location: "Pune, Maharashtra",
      })),
      LONGEST_JOB,
    ]);
    const long = seeded.at(-1)!;
    await using browser = await launchBrowser();
    const paths = longestPaths(long.jobId);
    for (const width of WIDTHS) {
      await t.step(`${width} px`, async () => {
        const context = await browser.newContext({
          ...asPerson(ANDROID_CHROME),
          viewport: { width, height: 800 },
        });
        const page = await context.newPage();
        for (const path of paths) {
          await page.goto(`${server.url}${path}`);
          await page.waitForLoadState("load");
          assert.deepEqual(await overflowing(page), [], `${path} at ${width} px`);
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scroll <= width, `${path} is ${scroll} px wide at ${width} px`);
          const name = path.replace(/[^a-z0-9]+/gi, "-").slice(0, 40).replace(/^-$/, "-home");
          await screenshot(page, `${width}${name}`);
        }
        // A cut name or role keeps its full text for a pointer and for assistive technology.
        await page.goto(`${server.url}/jobs`);
        const card = page.getByRole("article").filter({ hasText: LONG_ROLE.slice(0, 20) });
        assert.equal(
          await card.getByText(LONG_COMPANY, { exact: true }).getAttribute("title"),
          LONG_COMPANY,
        );
        assert.equal(
          await card.getByRole("heading", { level: 3 }).getByRole("link").textContent(),
          LONG_ROLE,
        );
        await context.close();
      });
    }
  },
);
