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

export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
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
