/** Debian's Chromium driven by playwright-core, launched with the flags our closed network needs. */
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { hiringSiteFlags, serveHiringSite } from "./hiring_site.ts";
import { CHROME_DESKTOP } from "../analytics/fixtures.ts";

/**
 * Chromium for what the bench measures as a person's browser: Lighthouse, the islands' wake, the
 * admin screens.
 */
const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

/** CHROMIUM_PATH, or an error that says how to install it (the tests need only the shell). */
export function desktopChromium(): string {
  try {
    if (Deno.statSync(CHROMIUM_PATH).isFile) return CHROMIUM_PATH;
  } catch { /* said below */ }
  throw new Error(
    `no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH`,
  );
}

/**
 * The browser of the tests: Chromium's headless shell, which runs the same Blink at about half the
 * processor time of the full browser in headless mode (the tests are mostly browser time).
 */
export const HEADLESS_SHELL_PATH = Deno.env.get("HEADLESS_SHELL_PATH") ??
  "/usr/bin/chromium-headless-shell";

/**
 * A folder for screenshots of the screens the browser tests walk through, for a person to look at
 * (`SCREENSHOTS=/tmp/shots deno task test`); without it the tests take none.
 */
export const SCREENSHOTS = Deno.env.get("SCREENSHOTS");

/** A screenshot named `name` of the page, or of one element, when SCREENSHOTS asks for them. */
export async function screenshot(of: Page | Locator, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await ("goto" in of ? of.screenshot({ path, fullPage: true }) : of.screenshot({ path }));
}

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
 * A browser, with the stub hiring pages its test jobs link to served beside it
 * (tests/helpers/hiring_site.ts).
 */
export async function launchBrowser(
  executablePath = HEADLESS_SHELL_PATH,
): Promise<Browser & AsyncDisposable> {
  const hiringSite = serveHiringSite();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...hiringSiteFlags(hiringSite)],
  }).catch(async (error) => {
    await hiringSite.shutdown();
    throw error;
  });
  return Object.assign(browser, {
    [Symbol.asyncDispose]: async () => {
      await browser.close();
      await hiringSite.shutdown();
    },
  });
}

/**
 * Context options under which the server takes the browser for a person's and counts its visits:
 * the headless shell names itself in its user agent and in its `sec-ch-ua` client hint, and the
 * server counts neither (server/visitors.ts).
 */
export function asPerson(userAgent = CHROME_DESKTOP) {
  const brands = '"Chromium";v="131", "Google Chrome";v="131", "Not_A Brand";v="24"';
  return { userAgent, extraHTTPHeaders: { "sec-ch-ua": brands } };
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
