/** What the admin portal's browser tests share: signed-in pages, toasts, axe, the data behind. */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Locator, Page, Route } from "playwright-core";
import { TOKEN_STORAGE_KEY } from "../../client/admin/api.ts";
import type { TestServer } from "../helpers/server.ts";
import { authHeaders, type SignedInAdmin } from "../helpers/admins.ts";
import type { JobInput, JobWithAnalytics } from "../../kv/schemas.ts";
import { type Permission, PERMISSIONS } from "../../kv/permissions.ts";

export { TOKEN_STORAGE_KEY };

const axeSource = await Deno.readTextFile(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

/** The accounts every screen is tried with: main admin, no flags, and each single flag. */
export const ACCOUNT_KINDS: { name: string; main?: boolean; permissions?: Permission[] }[] = [
  { name: "main admin", main: true },
  { name: "no flags", permissions: [] },
  ...PERMISSIONS.map((name) => ({ name, permissions: [name] })),
];

export function flagsOf(permissions: Permission[] = []) {
  return Object.fromEntries(permissions.map((name) => [name, true]));
}

/** The events a test may listen to on a page; a page given back is rid of their listeners. */
const PAGE_EVENTS = [
  "console",
  "dialog",
  "download",
  "framenavigated",
  "pageerror",
  "popup",
  "request",
  "requestfinished",
  "response",
] as const;

/** Pages given back by `close()`, per browser and width, ready to be lent again. */
const idlePages = new WeakMap<Browser, Map<number, { context: BrowserContext; page: Page }[]>>();

/**
 * A page of its own storage, at desktop width unless told. Closing its context gives the page back
 * emptied (no storage, cookies, routes, listeners or other tabs) for the next step at that width to
 * borrow: a new context starts a new renderer that compiles the admin app's half megabyte of script
 * again, most of a second of Chromium's time per step on this suite's two cores. The context keeps
 * its width, so a tab or a popup the page opens has it too.
 */
export async function newPage(
  browser: Browser,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const widths = idlePages.get(browser) ?? new Map();
  idlePages.set(browser, widths);
  const idle = widths.get(width) ?? [];
  widths.set(width, idle);
  const lent = idle.pop() ?? await freshPage(browser, width);
  const { context, page } = lent;
  const close = async () => {
    if (page.isClosed()) return await context.close();
    await emptied(context, page);
    idle.push(lent);
  };
  const borrowed = new Proxy(context, {
    get(target, key) {
      if (key === "close") return close;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { context: borrowed, page };
}

async function freshPage(browser: Browser, width: number) {
  // As a person who asked their system for less motion: charts are drawn at once rather than
  // grown over a second (half a second of Chromium's processor a chart screen). The growing is
  // tried on its own (analytics_test.ts).
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  // Generous: the whole suite runs in parallel on two cores, and waiting costs a passing test nothing.
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/**
 * Empties a page for its next borrower. It stays on the origin it was on, on the origin's cheapest
 * page, rather than going to about:blank: Chromium starts a new renderer for the next site after a
 * blank page, and the admin app's compiled script is lost with the old one (half a second a step).
 */
async function emptied(context: BrowserContext, page: Page) {
  for (const other of context.pages()) if (other !== page) await other.close();
  for (const event of PAGE_EVENTS) page.removeAllListeners(event);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await context.unrouteAll({ behavior: "ignoreErrors" });
  await context.clearCookies();
  await context.clearPermissions();
  if (!page.url().startsWith("http")) return;
  await page.goto(new URL(CHEAPEST_PAGE, page.url()).href);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/** Any page of an origin gives access to its storage; the stylesheet is the cheapest. */
const CHEAPEST_PAGE = "/assets/styles.css";

/** Stores the account's token the way the app does, then opens `path`. */
export async function openAs(page: Page, s: TestServer, account: SignedInAdmin, path: string) {
  const cheapest = `${s.url}${CHEAPEST_PAGE}`;
  if (page.url() !== cheapest) await page.goto(cheapest);
  await page.evaluate(
    ([key, token]) => localStorage.setItem(key, token),
    [TOKEN_STORAGE_KEY, account.token],
  );
  await page.goto(`${s.url}${path}`);
  await page.locator("main h1").first().waitFor();
}

export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
}

/**
 * Activates a control by keyboard. Toasts sit top right, over the header buttons; a mouse click
 * there can land on a toast sliding in, a key press cannot.
 */
export async function press(control: Locator) {
  await control.focus();
  await control.press("Enter");
}

/**
 * Opens a tab by keyboard (a toast can cover the tabs on a phone) and waits until it is the selected
 * one, so what follows reads the tab's own panel.
 */
export async function selectTab(page: Page, name: string | RegExp) {
  const tab = page.getByRole("tab", { name });
  await press(tab);
  await page.getByRole("tab", { name, selected: true }).waitFor();
}

/** Waits until a text box holds text: a file picked for the JSON upload is read in the background. */
export async function untilFilled(box: Locator): Promise<void> {
  await box.page().waitForFunction(
    (element) => (element as HTMLTextAreaElement).value !== "",
    await box.elementHandle(),
  );
}

/**
 * Closes the open dialog with Escape and waits until the screen's state has let it go (its content
 * is unmounted), so the next step can open a dialog for the same item again.
 */
export async function closeByEscape(page: Page) {
  await page.keyboard.press("Escape");
  await page.locator("dialog[open]").waitFor({ state: "detached" });
  await page.locator("dialog h2").waitFor({ state: "detached" });
}

/** Waits for a toast with exactly this text. */
export async function expectToast(page: Page, text: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();
}

/** Asserts the page shows this exact text somewhere. */
export async function expectText(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor();
}

export async function expectHeading(page: Page, name: string) {
  await page.getByRole("heading", { name, exact: true }).first().waitFor();
}

/**
 * No serious or critical axe violation on the page as it settles. A toast or dialog part way
 * through a fade has text at a fraction of its colour's contrast, so axe runs only once every
 * finite animation and transition on the page has ended (looping ones, like a spinner, never do),
 * and with transitions off while it runs: a toast whose time runs out during the run leaves at once
 * instead of fading out under axe's eyes.
 */
export async function expectAccessible(page: Page) {
  await page.evaluate(async () => {
    for (let round = 0; round < 10; round++) {
      const running = document.getAnimations().filter((animation) =>
        animation.playState === "running" &&
        Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity)
      );
      if (running.length === 0) return;
      await Promise.allSettled(running.map((animation) => animation.finished));
    }
  });
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const still = document.createElement("style");
    still.textContent = "*, *::before, *::after { transition: none !important; }";
    document.head.append(still);
    const result = await axe.run(document, { resultTypes: ["violations"] }).finally(() =>
      still.remove()
    );
    // deno-lint-ignore no-explicit-any
    return result.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(" ")).join(", ")}`);
  });
  assert.deepEqual(violations, [], `axe on ${page.url()}`);
}

/** Calls the API as `account`, failing loudly on an error answer. */
export async function apiCall<T>(
  s: TestServer,
  account: SignedInAdmin,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await s.app.request(path, {
    method,
    headers: authHeaders(account.token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${json.message}`);
  return json;
}

export async function createJob(
  s: TestServer,
  main: SignedInAdmin,
  job: JobInput,
): Promise<JobWithAnalytics> {
  return (await apiCall<{ job: JobWithAnalytics }>(s, main, "POST", "/api/jobs", job)).job;
}

/** How a public visitor sees a job: 200 while it is active. */
export async function publicStatus(s: TestServer, id: string): Promise<number> {
  const response = await s.app.request(`/api/jobs/${id}`);
  await response.body?.cancel();
  return response.status;
}

/** Handles the next `method` call to a matching URL; later calls pass through untouched. */
export async function interceptNext(
  page: Page,
  method: string,
  url: RegExp,
  handle: (route: Route) => Promise<void>,
) {
  let used = false;
  await page.route(url, async (route: Route) => {
    if (used || route.request().method() !== method) return await route.fallback();
    used = true;
    await handle(route);
  });
}

/** The next `method` call to a matching URL answers 500 with no message. */
export function failNext(page: Page, method: string, url: RegExp) {
  return interceptNext(
    page,
    method,
    url,
    (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }),
  );
}

/** Every `method` call to a matching URL answers 500 until `restore()`: the server is down. */
export async function failAll(page: Page, method: string, url: RegExp) {
  let failing = true;
  await page.route(url, async (route: Route) => {
    if (!failing || route.request().method() !== method) return await route.fallback();
    await route.fulfill({ status: 500, contentType: "application/json", body: "{}" });
  });
  return () => {
    failing = false;
    return Promise.resolve();
  };
}

/** The next `method` call to a matching URL never gets an answer (the network dropped it). */
export function dropNext(page: Page, method: string, url: RegExp) {
  return interceptNext(page, method, url, (route) => route.abort("failed"));
}

/** Holds matching calls until `release()`, so a busy or loading state stays on screen. */
export async function hold(page: Page, url: RegExp) {
  const held: Route[] = [];
  let released = false;
  await page.route(url, async (route: Route) => {
    if (released) await route.fallback();
    else held.push(route);
  });
  return async () => {
    released = true;
    await Promise.all(held.map((route) => route.fallback()));
  };
}

/**
 * The colour a person sees behind an element: "green", "yellow", "red", or "grey" for a pale one
 * with hardly any colour. Read from the computed background as drawn (whatever space the
 * stylesheet writes it in), so a test asserts on the colour rather than on a class name.
 */
export function backgroundColour(element: Locator): Promise<string> {
  return element.evaluate((node) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(node).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    const max = Math.max(r, g, b);
    const chroma = max - Math.min(r, g, b);
    if (chroma < 20) return "grey";
    const hue = max === r
      ? (60 * ((g - b) / chroma) + 360) % 360
      : max === g
      ? 60 * ((b - r) / chroma) + 120
      : 60 * ((r - g) / chroma) + 240;
    if (hue < 30 || hue >= 330) return "red";
    if (hue < 75) return "yellow";
    if (hue < 170) return "green";
    return `hue ${Math.round(hue)}`;
  });
}
