/** Debian's Chromium driven by playwright-core, launched with the flags our closed network needs. */
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--disable-dev-shm-usage",
    ],
  });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/** Browser tests leave Playwright's timers and sockets open across steps; Deno must not flag them. */
export const browserTest = { sanitizeOps: false, sanitizeResources: false } as const;
