/**
 * Who is asking, for traffic counting: whether a request is a person's (not a bot, a headless
 * browser, a prefetch or a subresource), its device and browser, and the network its address
 * belongs to. No state but the bounded cache of user-agent verdicts and what was read of each
 * request in progress (kept with the request object, gone with it).
 */
import type { Context } from "hono";
import { isbot } from "isbot";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../kv/bounded-cache.ts";
import type { Browser, Device } from "../kv/analytics/types.ts";

/** Automation that isbot's list may miss: headless and scripted browsers, audit tools. */
const HEADLESS = /headless|phantomjs|slimerjs|puppeteer|playwright|selenium|webdriver|lighthouse/i;

/**
 * Verdicts on recent user agents: most traffic comes from a few browser builds, and a flood of
 * made-up ones (each may be kilobytes long) only passes through the cache's probation.
 */
export const verdicts = new BoundedCache<Visitor | null>(CACHE_BUDGETS.userAgentVerdicts);

function classify(userAgent: string): Visitor | null {
  let verdict = verdicts.get(userAgent, 0);
  if (verdict === undefined) {
    verdict = isbot(userAgent) || HEADLESS.test(userAgent)
      ? null
      : { userAgent, device: deviceOf(userAgent), browser: browserOf(userAgent) };
    // The verdict holds the user agent again (the key is the first copy).
    verdicts.set(userAgent, 0, verdict, roughBytes(verdict));
  }
  return verdict;
}

export interface Visitor {
  userAgent: string;
  device: Device;
  browser: Browser;
}

/**
 * What was read of a request, kept for the rest of it: a page counts its view and its search from
 * one reading of its headers (a person's kept `/jobs` page read them twice: 6 µs of its ~140).
 */
const readings = new WeakMap<Request, { navigation?: boolean; visitor?: Visitor | null }>();

function readingOf(c: Context) {
  let reading = readings.get(c.req.raw);
  if (!reading) readings.set(c.req.raw, reading = {});
  return reading;
}

/** The person behind a request, or null when the request must not be counted. */
export function humanVisitor(c: Context): Visitor | null {
  const reading = readingOf(c);
  if (reading.visitor === undefined) reading.visitor = visitorOf(c);
  return reading.visitor;
}

function visitorOf(c: Context): Visitor | null {
  const method = c.req.method;
  if (method !== "GET" && method !== "POST") return null;
  // Scripts (curl, load tools) often send no user agent: told apart before anything else is read.
  const userAgent = c.req.header("user-agent") ?? "";
  if (!userAgent) return null;
  const purpose = [
    c.req.header("sec-purpose"),
    c.req.header("purpose"),
    c.req.header("x-purpose"),
    c.req.header("x-moz"),
  ].join(" ").toLowerCase();
  if (/prefetch|prerender|preview/.test(purpose)) return null;
  if (HEADLESS.test(c.req.header("sec-ch-ua") ?? "")) return null;
  return classify(userAgent);
}

/** A path with a file extension names a file (an icon, a manifest, a feed), never a page. */
export function isFilePath(path: string): boolean {
  return /\.[a-z0-9]{1,20}$/i.test(path);
}

/**
 * Whether the browser is navigating to the page, as a person following a link or typing an address
 * does. Browsers say so in `Sec-Fetch-Dest` and `Sec-Fetch-Mode`: an image, a frame, a script or a
 * fetch of the same address says otherwise. A client that sends neither (a browser from before
 * 2020-2023, or a script) is taken at its `Accept` header: every browser navigation asks for
 * text/html, while image and script loads ask for their own types; a script asking for anything
 * (`*` `/` `*`, or no Accept) counts, as it always could, once a day per job like everyone.
 */
export function isNavigation(c: Context): boolean {
  return readingOf(c).navigation ??= navigates(c);
}

function navigates(c: Context): boolean {
  const dest = c.req.header("sec-fetch-dest");
  const mode = c.req.header("sec-fetch-mode");
  if (dest !== undefined || mode !== undefined) return dest === "document" && mode === "navigate";
  const accept = c.req.header("accept")?.trim();
  return !accept || accept.includes("text/html") || accept.startsWith("*/*");
}

/**
 * Whether an API call came from our own pages or from a client that is not a browser: a browser
 * loading the API from another site (an image, a cross-site fetch) would count its visitors for it.
 */
export function isOwnApiCall(c: Context): boolean {
  const dest = c.req.header("sec-fetch-dest");
  const site = c.req.header("sec-fetch-site");
  return (dest === undefined || dest === "empty") && (site === undefined || site === "same-origin");
}

/**
 * The network an address belongs to: the address itself for IPv4, its /64 for IPv6, where one
 * subscriber is handed a whole /64 and can use any address in it.
 */
export function networkOf(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1];
  if (!address.includes(":")) return address;
  const [head, tail] = address.toLowerCase().split("%")[0].split("::");
  const groups = head ? head.split(":") : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(":") : [];
    while (groups.length + rest.length < 8) groups.push("0");
    groups.push(...rest);
  }
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export function deviceOf(userAgent: string): Device {
  if (/ipad|tablet|playbook|silk|kindle|android(?!.*mobi)/i.test(userAgent)) return "tablet";
  if (/mobi|iphone|ipod|android|windows phone|blackberry|opera mini/i.test(userAgent)) {
    return "mobile";
  }
  return "desktop";
}

export function browserOf(userAgent: string): Browser {
  if (/edg(e|a|ios)?\//i.test(userAgent)) return "edge";
  if (/opr\/|opera|samsungbrowser|ucbrowser|yabrowser|vivaldi/i.test(userAgent)) return "others";
  if (/firefox|fxios/i.test(userAgent)) return "firefox";
  if (/chrome|crios|chromium/i.test(userAgent)) return "chrome";
  if (/safari/i.test(userAgent)) return "safari";
  return "others";
}
