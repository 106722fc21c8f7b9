/** Debian's Chromium driven by playwright-core, launched with the flags our closed network needs. */
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

/** The flags every Chromium of the tests and the bench starts with. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

/**
 * One renderer process per tab rather than per site and frame: the tests' pages are all of one
 * origin, and site isolation's extra processes cost CPU the suite's two cores lack
 * (`tests/admin/recruiter_test.ts`: 87-90 s of the machine's CPU against 98-99 s in alternated runs;
 * four browser test files together: 162 and 144 s against 186 and 146). The bench keeps it, as
 * visitors' browsers do.
 */
const WITHOUT_SITE_ISOLATION = [
  "--disable-features=site-per-process,IsolateOrigins",
  "--disable-site-isolation-trials",
];

export async function launchBrowser(
  { isolateSites = false } = {},
): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: isolateSites ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, ...WITHOUT_SITE_ISOLATION],
  });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/** Browser tests leave Playwright's timers and sockets open across steps; Deno must not flag them. */
export const browserTest = { sanitizeOps: false, sanitizeResources: false } as const;

/**
 * Wakes every island of the page as a visitor's pointer passing over each would, and waits until
 * React has hydrated them all: islands wake only when reached for (client/wake.ts).
 */
export async function wakeIslands(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const island of document.querySelectorAll("[data-island]")) {
      island.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
    }
  });
  await islandsAwake(page);
}

/** In the page: whether React has hydrated every island (client/components/hydrate.tsx). */
export const allIslandsAwake = () =>
  [...document.querySelectorAll("[data-island]")].every((island) =>
    island.hasAttribute("data-ready")
  );

/** Waits until React has hydrated every island of the page. */
export async function islandsAwake(page: Page): Promise<void> {
  await page.waitForFunction(allIslandsAwake);
}
