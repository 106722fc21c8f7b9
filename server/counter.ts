/**
 * Cookieless traffic counting, after Plausible and Umami. A request counts only when a person asked
 * for it: a page visit only when the browser navigated to a page (not an image, a frame, a
 * prefetch or prerender, a HEAD request, nor any path with a file extension), an apply-link click
 * only as a navigation, an API call only from our own pages or a client that is not a browser;
 * known bots (the `isbot` list) and headless browsers count nothing. A visitor is an HMAC-SHA-256 of
 * the client address and user agent under the day's secret salt; neither is ever written anywhere.
 * A visitor counts once a day among the unique visitors, and once a day per job for views and for
 * clicks, however many requests it makes and whichever processes answer them: markers in KV decide,
 * and this process only remembers, within a byte budget, what it need not ask KV again. Counts are
 * batched in memory and written at most a second later (and on shutdown) so that counting never
 * slows a page down.
 */
import type { Context } from "hono";
import { isbot } from "isbot";
import pLimit from "p-limit";
import type { Config } from "./config.ts";
import type { TrafficCounter } from "./context.ts";
import { clientAddress } from "./request.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../kv/bounded-cache.ts";
import { encodeHex } from "../kv/hex.ts";
import type { JobStore } from "../kv/jobs/store.ts";
import { addDays, dayOf } from "../kv/days.ts";
import {
  claimVisitor,
  type DayCounts,
  emptyDayCounts,
  type Engagement,
  recordDay,
  recordEngagements,
  visitorSalt,
} from "../kv/analytics/recording.ts";
import {
  type Browser,
  type CountKind,
  type Device,
  type JobRef,
  jobRef,
} from "../kv/analytics/types.ts";

/** Counts are written at most this long after they happen. */
export const FLUSH_INTERVAL_MS = 1_000;
/** How long a job's name is reused from memory before it is read again. */
const JOB_REF_CACHE_MS = 60_000;
/**
 * Visitors (address and user agent pairs) counted from one address a day; every further browser
 * there is one shared visitor. An office or a home behind one address has a few browsers and a few
 * dozen people at most, and browsers now send few distinct user agents (Chrome's are frozen to the
 * major version), while one client rotating user agents would otherwise mint a visitor per request.
 */
export const VISITORS_PER_ADDRESS = 20;
/** What the batch waiting to be written may hold; past it, it is written at once. */
const PENDING_BYTES = 2 * 1024 * 1024;
/** What the memory of visitors and their counted views and clicks may hold. */
const REMEMBERED_BYTES = 8 * 1024 * 1024;
/** Visitors resolved against KV at once while a batch is written. */
const CLAIMS_AT_ONCE = 8;

const encoder = new TextEncoder();

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

/** The person behind a request, or null when the request must not be counted. */
export function humanVisitor(c: Context): Visitor | null {
  const method = c.req.method;
  if (method !== "GET" && method !== "POST") return null;
  const purpose = [
    c.req.header("sec-purpose"),
    c.req.header("purpose"),
    c.req.header("x-purpose"),
    c.req.header("x-moz"),
  ].join(" ").toLowerCase();
  if (/prefetch|prerender|preview/.test(purpose)) return null;
  const userAgent = c.req.header("user-agent") ?? "";
  if (!userAgent || HEADLESS.test(c.req.header("sec-ch-ua") ?? "")) return null;
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

/** One visitor's requests in a batch: the jobs it viewed and clicked. */
interface PendingVisitor {
  address: string;
  userAgent: string;
  /** Whether it opened a page, and so is one of the day's unique visitors. */
  visited: boolean;
  views: Set<string>;
  clicks: Set<string>;
}

interface PendingDay {
  visits: number;
  devices: Record<Device, number>;
  browsers: Record<Browser, number>;
  /** By client address and user agent; hashed when written. */
  visitors: Map<string, PendingVisitor>;
}

function emptyPendingDay(): PendingDay {
  const { devices, browsers } = emptyDayCounts();
  return { visits: 0, devices, browsers, visitors: new Map() };
}

/**
 * Keys this process knows KV has already decided, kept within a byte budget, oldest forgotten
 * first. Only a shortcut: forgetting one costs a read of KV, never a wrong count.
 */
export class Remembered {
  private entries = new Map<string, string>();
  private bytes = 0;

  constructor(private budget: number) {}

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: string): void {
    if (this.entries.has(key)) return;
    this.entries.set(key, value);
    this.bytes += roughBytes(key) + roughBytes(value);
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= roughBytes(oldest) + roughBytes(old);
    }
  }
}

export interface CounterDeps {
  kv: Deno.Kv;
  config: Pick<Config, "TIMEZONE">;
  now: () => Date;
  jobs: JobStore;
}

export function createCounter(deps: CounterDeps): TrafficCounter {
  return new BatchingCounter(deps);
}

class BatchingCounter implements TrafficCounter {
  private pending = new Map<string, PendingDay>();
  /** What the pending batch holds, roughly, in bytes. */
  private pendingBytes = 0;
  /** A flush was asked for because the batch is full. */
  private urgent = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /**
   * By day and visitor hash, the visitor it counts as, once counted among the day's unique
   * visitors; by day, visitor, kind and job, the views and clicks already counted.
   */
  private remembered = new Remembered(REMEMBERED_BYTES);
  private saltKeys = new Map<string, Promise<CryptoKey>>();
  /** The flush the durable clicks waiting now share, until it begins. */
  private nextFlush: Promise<void> | undefined;
  /** Job names by id, each trusted for up to a minute (`JOB_REF_CACHE_MS`) so edits show. */
  readonly refs = new BoundedCache<JobRef | null>(CACHE_BUDGETS.counterJobNames);
  /** The day is the same for every request within a minute (every zone offset is whole minutes). */
  private today = { minute: -1, day: "" };

  constructor(private deps: CounterDeps) {}

  pageView(c: Context, jobId?: string): void {
    if (isFilePath(c.req.path) || !isNavigation(c)) return;
    const visitor = humanVisitor(c);
    if (!visitor) return;
    const pending = this.pendingDay(this.day());
    pending.visits++;
    pending.devices[visitor.device]++;
    pending.browsers[visitor.browser]++;
    const entry = this.note(c, pending, visitor);
    if (!entry) return;
    entry.visited = true;
    if (jobId) this.add(entry.views, jobId);
  }

  jobView(c: Context, jobId: string): void {
    if (!isOwnApiCall(c)) return;
    const visitor = humanVisitor(c);
    const entry = visitor && this.note(c, this.pendingDay(this.day()), visitor);
    if (entry) this.add(entry.views, jobId);
  }

  jobClick(c: Context, jobId: string): void {
    // The API call comes from the Apply button; the link is followed without JavaScript.
    if (c.req.method === "POST" ? !isOwnApiCall(c) : !isNavigation(c)) return;
    const visitor = humanVisitor(c);
    const entry = visitor && this.note(c, this.pendingDay(this.day()), visitor);
    if (entry) this.add(entry.clicks, jobId);
  }

  /**
   * Counts the click and resolves once it is written. Clicks arriving together share one write
   * (the batch's next flush, begun at once), so writing each before answering costs little.
   */
  async durableClick(c: Context, jobId: string): Promise<void> {
    this.jobClick(c, jobId);
    this.nextFlush ??= Promise.resolve().then(() => {
      this.nextFlush = undefined;
      return this.flush();
    });
    try {
      await this.nextFlush;
    } catch (error) {
      // The batch keeps what could not be written and tries again, as for every other count.
      console.error("Writing apply clicks failed; they wait in the batch:", error);
    }
  }

  /** Writes everything counted so far; flushes run one after another, never in parallel. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(() => this.write());
    this.writing = run.catch(() => {});
    return run;
  }

  /**
   * The batch's entry for the request's visitor. A full batch is written at once; one that stays
   * full (KV slower than the traffic) takes no new visitors, so memory stays bounded.
   */
  private note(c: Context, pending: PendingDay, visitor: Visitor): PendingVisitor | undefined {
    const address = clientAddress(c);
    const key = `${address}\n${visitor.userAgent}`;
    let entry = pending.visitors.get(key);
    if (!entry) {
      if (this.pendingBytes > 2 * PENDING_BYTES) return undefined;
      entry = {
        address,
        userAgent: visitor.userAgent,
        visited: false,
        views: new Set(),
        clicks: new Set(),
      };
      pending.visitors.set(key, entry);
      this.pendingBytes += roughBytes(key) + 128;
    }
    if (this.pendingBytes > PENDING_BYTES && !this.urgent) {
      this.urgent = true;
      this.flush().catch((error) => console.error("Analytics flush failed:", error))
        .finally(() => this.urgent = false);
    } else this.schedule();
    return entry;
  }

  private add(jobs: Set<string>, jobId: string): void {
    if (jobs.has(jobId) || this.pendingBytes > 2 * PENDING_BYTES) return;
    jobs.add(jobId);
    this.pendingBytes += roughBytes(jobId);
  }

  private day(): string {
    const now = this.deps.now();
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.today.minute) {
      this.today = { minute, day: dayOf(now, this.deps.config.TIMEZONE) };
    }
    return this.today.day;
  }

  private pendingDay(day: string): PendingDay {
    let pending = this.pending.get(day);
    if (!pending) this.pending.set(day, pending = emptyPendingDay());
    return pending;
  }

  /** The timer only runs while something waits to be written, so nothing idles in tests. */
  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error) => console.error("Analytics flush failed:", error));
    }, FLUSH_INTERVAL_MS);
  }

  private async hash(day: string, text: string): Promise<string> {
    const key = await this.saltKey(day);
    const signature = await crypto.subtle.sign("HMAC", key, encoder.encode(text));
    return encodeHex(signature).slice(0, 32);
  }

  private saltKey(day: string): Promise<CryptoKey> {
    let key = this.saltKeys.get(day);
    if (!key) {
      key = visitorSalt(this.deps.kv, day, this.deps.now(), this.deps.config.TIMEZONE).then((
        salt,
      ) =>
        crypto.subtle.importKey("raw", salt, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      );
      key.catch(() => this.saltKeys.delete(day));
      this.saltKeys.set(day, key);
    }
    return key;
  }

  private async write(): Promise<void> {
    const batches = this.pending;
    this.pending = new Map();
    this.pendingBytes = 0;
    const failures: unknown[] = [];
    for (const [day, pending] of batches) {
      try {
        await this.writeDay(day, pending);
      } catch (error) {
        this.restore(day, pending);
        failures.push(error);
      }
    }
    this.forgetOldDays();
    if (failures.length) throw failures[0];
  }

  private async writeDay(day: string, pending: PendingDay): Promise<void> {
    const counts: DayCounts = {
      ...emptyDayCounts(),
      visits: pending.visits,
      devices: pending.devices,
      browsers: pending.browsers,
    };
    try {
      await recordDay(this.deps.kv, day, counts);
    } finally {
      // recordDay leaves in `counts` only what it could not write: that is what a retry needs.
      pending.visits = counts.visits;
      pending.devices = counts.devices;
      pending.browsers = counts.browsers;
    }
    const refs = await this.jobRefs(
      [...pending.visitors.values()].flatMap((entry) => [...entry.views, ...entry.clicks]),
    );
    const claim = pLimit(CLAIMS_AT_ONCE);
    const engagements = new Map<string, Engagement>();
    await Promise.all([...pending.visitors.values()].map((entry) =>
      claim(async () => {
        const visitor = await this.identity(day, entry);
        for (const kind of ["views", "clicks"] as const) {
          for (const id of entry[kind]) {
            const ref = refs.get(id);
            // A job deleted before its counts were written has nothing left to count towards.
            if (!ref) continue;
            const seen = this.seenKey(day, visitor, kind, ref._id);
            if (!this.remembered.get(seen)) engagements.set(seen, { visitor, kind, ref });
          }
        }
      })
    ));
    // A failure before this point leaves the visitors in the batch for a retry, which counts
    // nothing twice: what was written left its markers.
    await recordEngagements(this.deps.kv, day, [...engagements.values()]);
    for (const seen of engagements.keys()) this.remembered.set(seen, "");
    pending.visitors.clear();
  }

  private seenKey(day: string, visitor: string, kind: CountKind, id: string): string {
    return `${day} ${visitor} ${kind} ${id}`;
  }

  /** The visitor a batch entry counts as that day, counted among the unique visitors if it visited. */
  private async identity(day: string, entry: PendingVisitor): Promise<string> {
    const hash = await this.hash(day, `${entry.address}\n${entry.userAgent}`);
    // A visitor known to be counted serves every call; one known only as admitted, only API calls.
    const counted = `${day} ${hash} counted`;
    const admitted = `${day} ${hash} admitted`;
    const known = this.remembered.get(counted) ??
      (entry.visited ? undefined : this.remembered.get(admitted));
    if (known) return known;
    const network = await this.hash(day, `network\n${networkOf(entry.address)}`);
    const visitor = await claimVisitor(
      this.deps.kv,
      day,
      { hash, network },
      VISITORS_PER_ADDRESS,
      entry.visited,
    );
    this.remembered.set(entry.visited ? counted : admitted, visitor);
    return visitor;
  }

  /** Puts back what a failed write did not store, to be tried again with the next flush. */
  private restore(day: string, pending: PendingDay): void {
    const target = this.pendingDay(day);
    target.visits += pending.visits;
    for (const [device, amount] of Object.entries(pending.devices)) {
      target.devices[device as Device] += amount;
    }
    for (const [browser, amount] of Object.entries(pending.browsers)) {
      target.browsers[browser as Browser] += amount;
    }
    for (const [key, entry] of pending.visitors) {
      const existing = target.visitors.get(key);
      if (!existing) {
        target.visitors.set(key, entry);
        this.pendingBytes += roughBytes(key) + 128;
        continue;
      }
      existing.visited ||= entry.visited;
      for (const id of entry.views) existing.views.add(id);
      for (const id of entry.clicks) existing.clicks.add(id);
    }
    this.schedule();
  }

  private forgetOldDays(): void {
    const keep = new Set([this.day(), addDays(this.day(), -1)]);
    for (const day of this.saltKeys.keys()) if (!keep.has(day)) this.saltKeys.delete(day);
  }

  private async jobRefs(ids: string[]): Promise<Map<string, JobRef>> {
    // Names read in an earlier minute are read again.
    const minute = Math.floor(Date.now() / JOB_REF_CACHE_MS);
    const result = new Map<string, JobRef>();
    await Promise.all([...new Set(ids)].map(async (id) => {
      let ref = this.refs.get(id, minute);
      if (ref === undefined) {
        const job = await this.deps.jobs.get(id);
        ref = job ? jobRef(job) : null;
        this.refs.set(id, minute, ref, roughBytes(ref));
      }
      if (ref) result.set(id, ref);
    }));
    return result;
  }
}
