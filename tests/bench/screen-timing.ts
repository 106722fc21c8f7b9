/**
 * Timing an admin screen in Chromium, from the start of a navigation until the screen shows its
 * data: its heading, the elements that carry its data, no loading placeholder left and none of the
 * app's API calls still on its way. The time is the page's own clock, checked at every frame, so no
 * round trip to the driver is counted. Each API call is kept with its timing, so a slow screen
 * names its slow request.
 */
import type { Locator, Page } from "playwright-core";

/** What a screen shows once its data is there. */
export interface Signal {
  /** A selector for the screen's heading and a pattern (a RegExp source) its text matches. */
  heading: [selector: string, pattern: string];
  /** Selectors that must each match a visible element: the screen's data (a row, a chart). */
  present?: string[];
  /** Figures that show "—" until their data comes: every element it matches shows something else. */
  filled?: string;
  /** The selected tab's label starts with this. */
  tab?: string;
  /** Manage Jobs: the selected tab's count is the list's total, so the rows are that tab's. */
  countsMatch?: boolean;
}

/** One navigation: when it started and when the screen was shown, in ms since 1970. */
export interface Timing {
  start: number;
  shown: number;
  /** A full load's milestones, in ms since its start. */
  milestones?: Milestones;
}

/** Where a full load's time went: the document, its scripts, each in ms since the navigation began. */
export interface Milestones {
  /** The HTML's last byte arrived. */
  html: number;
  domContentLoaded: number;
  /** The last script the screen needed (the app's and the screen's chunks) arrived. */
  scripts: number;
}

/** An API call the app made, with its start and end in ms since 1970 and the server's own time. */
export interface Call {
  name: string;
  start: number;
  end: number;
  serverMs: number | null;
  /** The answer's body as it crossed the wire. */
  bytes: number;
}

interface BenchWindow {
  __benchCalls: number;
  __benchClick: number;
}

/**
 * Installed before the app's scripts: counts the app's API calls whose answer has not been read to
 * its end, so that an answer the app is still waiting for holds the screen as not shown.
 */
function countCalls() {
  const state = globalThis as unknown as BenchWindow;
  state.__benchCalls = 0;
  const original = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (!url.pathname.startsWith("/api/")) return original.call(globalThis, input, init);
    state.__benchCalls++;
    const done = () => {
      state.__benchCalls--;
    };
    return original.call(globalThis, input, init).then((response) => {
      response.clone().arrayBuffer().then(done, done);
      return response;
    }, (error) => {
      done();
      throw error;
    });
  };
}

/** In the page: the time (performance.now()) once the screen shows its data, else false. */
function shownAt(signal: Signal): number | false {
  const visible = (element: Element) => element.checkVisibility();
  const all = (selector: string) => [...document.querySelectorAll(selector)];
  if ((globalThis as unknown as BenchWindow).__benchCalls > 0) return false;
  const heading = all(signal.heading[0]).find(visible);
  if (!heading || !new RegExp(signal.heading[1]).test(heading.textContent ?? "")) return false;
  if (all(".animate-pulse, .animate-spin, [data-skeleton]").some(visible)) return false;
  const loading = all('[role="status"]').some((element) =>
    /loading/i.test(element.getAttribute("aria-label") ?? element.textContent ?? "")
  );
  if (loading) return false;
  if (!(signal.present ?? []).every((selector) => all(selector).some(visible))) return false;
  if (signal.filled && all(signal.filled).some((element) => element.textContent === "—")) {
    return false;
  }
  const tab = all('[role="tab"][aria-selected="true"]').find(visible)?.textContent ?? "";
  if (signal.tab && !tab.startsWith(signal.tab)) return false;
  if (signal.countsMatch) {
    const count = /\(([\d,]+)\)/.exec(tab)?.[1];
    if (!count) return false;
    const total = /of ([\d,]+) /.exec(
      document.querySelector('nav[aria-label="Pagination"]')?.textContent ?? "",
    )?.[1] ?? "0";
    if (count !== total) return false;
  }
  return performance.now();
}

/** Opens a page whose every document counts its API calls, and keeps each call it makes. */
export async function timedPage(page: Page): Promise<Call[]> {
  await page.addInitScript(countCalls);
  const calls: Call[] = [];
  page.on("requestfinished", async (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith("/api/")) return;
    const timing = request.timing();
    const header = await (await request.response())?.headerValue("server-timing");
    const server = /\bapp;dur=([\d.]+)/.exec(header ?? "")?.[1];
    const { responseBodySize } = await request.sizes();
    calls.push({
      name: `${request.method()} ${callPath(url)}`,
      start: timing.startTime,
      end: timing.startTime + timing.responseEnd,
      serverMs: server === undefined ? null : Number(server),
      bytes: responseBodySize,
    });
  });
  return calls;
}

/** A call's path with ids (job ids, admin ids) folded, so a screen's calls group across runs. */
function callPath(url: URL): string {
  return url.pathname.split("/").map((part) => /\d/.test(part) && part.length > 8 ? "{id}" : part)
    .join("/");
}

async function waitShown(page: Page, signal: Signal): Promise<number> {
  const handle = await page.waitForFunction(shownAt, signal, { polling: "raf", timeout: 30_000 });
  return await handle.jsonValue() as number;
}

/** A full page load of `url`: from the navigation's start until the screen is shown. */
export async function fullLoad(page: Page, url: string, signal: Signal): Promise<Timing> {
  await page.goto(url, { waitUntil: "commit" });
  const shown = await waitShown(page, signal);
  const [origin, milestones] = await page.evaluate((shown) => {
    const [document] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith(".js") && entry.startTime < shown)
      .map((entry) => entry.responseEnd);
    return [performance.timeOrigin, {
      html: document.responseEnd,
      domContentLoaded: document.domContentLoadedEventEnd,
      scripts: Math.max(0, ...scripts),
    }] as const;
  }, shown);
  return { start: origin, shown: origin + shown, milestones };
}

/**
 * A navigation inside the app: from the click on `control` until the screen is shown. The click is
 * the element's own, without a pointer: a pointer resting over a link would preload its screen
 * (the router's intent preload) and blur what is measured.
 */
export async function click(page: Page, control: Locator, signal: Signal): Promise<Timing> {
  await control.evaluate((element: HTMLElement) => {
    (globalThis as unknown as BenchWindow).__benchClick = performance.now();
    element.click();
  });
  const shown = await waitShown(page, signal);
  const [origin, start] = await page.evaluate(() => [
    performance.timeOrigin,
    (globalThis as unknown as BenchWindow).__benchClick,
  ]);
  return { start: origin + start, shown: origin + shown };
}

/** Waits until the screen now open is shown (a starting point, not measured). */
export async function settled(page: Page, signal: Signal): Promise<void> {
  await waitShown(page, signal);
}
