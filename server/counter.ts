/**
 * Cookieless traffic counting (issue 3), after Plausible and Umami. A request counts only when a
 * person asked for it: HEAD requests, prefetches and prerenders, known bots (the `isbot` list) and
 * headless browsers count nothing. A unique visitor is an HMAC-SHA-256 of the client address and
 * user agent under the day's secret salt; neither is ever written anywhere. Counts are batched in
 * memory and written at most a second later (and on shutdown) so that counting never slows a page
 * down; the batch holds each distinct visitor once and hashes it when written, not per request.
 */
import type { Context } from "hono";
import { isbot } from "isbot";
import type { Config } from "./config.ts";
import type { TrafficCounter } from "./context.ts";
import { clientAddress } from "./request.ts";
import { encodeHex } from "./hex.ts";
import type { JobStore } from "../kv/jobs.ts";
import {
  addDays,
  type Browser,
  type DayCounts,
  dayOf,
  type Device,
  emptyDayCounts,
  type JobRef,
  jobRef,
  recordDay,
  recordVisitors,
  visitorSalt,
} from "../kv/analytics.ts";

/** Counts are written at most this long after they happen. */
export const FLUSH_INTERVAL_MS = 1_000;
/** How long a job's name is reused from memory before it is read again. */
const JOB_REF_CACHE_MS = 60_000;

const encoder = new TextEncoder();

/** Automation that isbot's list may miss: headless and scripted browsers, audit tools. */
const HEADLESS = /headless|phantomjs|slimerjs|puppeteer|playwright|selenium|webdriver|lighthouse/i;

/** Verdicts on recent user agents: most traffic comes from a few browser builds. */
const verdicts = new Map<string, Visitor | null>();
const VERDICTS_KEPT = 1_000;

function classify(userAgent: string): Visitor | null {
  let verdict = verdicts.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent) || HEADLESS.test(userAgent)
      ? null
      : { userAgent, device: deviceOf(userAgent), browser: browserOf(userAgent) };
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(userAgent, verdict);
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

interface PendingDay {
  visits: number;
  devices: Record<Device, number>;
  browsers: Record<Browser, number>;
  /** By the id the route gave (`_id` or `jobId`); resolved when written. */
  views: Map<string, number>;
  clicks: Map<string, number>;
  /** Each distinct client address and user agent of the batch, hashed when written. */
  visitors: Set<string>;
}

function emptyPendingDay(): PendingDay {
  const { devices, browsers } = emptyDayCounts();
  return { visits: 0, devices, browsers, views: new Map(), clicks: new Map(), visitors: new Set() };
}

function addTo(map: Map<string, number>, key: string, amount = 1): void {
  map.set(key, (map.get(key) ?? 0) + amount);
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
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Hashes of visitors already counted, by day, so a returning visitor costs no KV read. */
  private counted = new Map<string, Set<string>>();
  private saltKeys = new Map<string, Promise<CryptoKey>>();
  private refs = new Map<string, { ref: JobRef | null; at: number }>();
  /** The day is the same for every request within a minute (every zone offset is whole minutes). */
  private today = { minute: -1, day: "" };

  constructor(private deps: CounterDeps) {}

  pageView(c: Context, jobId?: string): void {
    const visitor = humanVisitor(c);
    if (!visitor) return;
    const day = this.day();
    const pending = this.pendingDay(day);
    pending.visits++;
    pending.devices[visitor.device]++;
    pending.browsers[visitor.browser]++;
    if (jobId) addTo(pending.views, jobId);
    pending.visitors.add(`${clientAddress(c)}\n${visitor.userAgent}`);
    this.schedule();
  }

  jobView(c: Context, jobId: string): void {
    if (!humanVisitor(c)) return;
    addTo(this.pendingDay(this.day()).views, jobId);
    this.schedule();
  }

  jobClick(c: Context, jobId: string): void {
    if (!humanVisitor(c)) return;
    addTo(this.pendingDay(this.day()).clicks, jobId);
    this.schedule();
  }

  /** Writes everything counted so far; flushes run one after another, never in parallel. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(() => this.write());
    this.writing = run.catch(() => {});
    return run;
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

  /** The day's keyed hashes of the batch's visitors that this process has not counted yet. */
  private async newVisitors(day: string, visitors: Set<string>): Promise<string[]> {
    const key = await this.saltKey(day);
    const counted = this.counted.get(day);
    const hashes = await Promise.all([...visitors].map(async (visitor) => {
      const signature = await crypto.subtle.sign("HMAC", key, encoder.encode(visitor));
      return encodeHex(signature).slice(0, 32);
    }));
    return [...new Set(hashes)].filter((hash) => !counted?.has(hash));
  }

  private saltKey(day: string): Promise<CryptoKey> {
    let key = this.saltKeys.get(day);
    if (!key) {
      key = visitorSalt(this.deps.kv, day).then((salt) =>
        crypto.subtle.importKey("raw", salt, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      );
      key.catch(() => this.saltKeys.delete(day));
      this.saltKeys.set(day, key);
    }
    return key;
  }

  private yesterday(): string {
    return addDays(this.day(), -1);
  }

  private async write(): Promise<void> {
    const batches = this.pending;
    this.pending = new Map();
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
    const refs = await this.jobRefs([...pending.views.keys(), ...pending.clicks.keys()]);
    for (const kind of ["views", "clicks"] as const) {
      for (const [id, amount] of pending[kind]) {
        const ref = refs.get(id);
        // A job deleted before its counts were written has nothing left to count towards.
        if (!ref) continue;
        counts.jobs.set(ref._id, ref);
        addTo(counts[kind], ref._id, amount);
      }
    }
    try {
      await recordDay(this.deps.kv, day, counts);
    } finally {
      // recordDay leaves in `counts` only what it could not write: that is what a retry needs.
      pending.visits = counts.visits;
      pending.devices = counts.devices;
      pending.browsers = counts.browsers;
      pending.views = counts.views;
      pending.clicks = counts.clicks;
    }
    if (pending.visitors.size) {
      const hashes = await this.newVisitors(day, pending.visitors);
      await recordVisitors(this.deps.kv, day, hashes);
      let counted = this.counted.get(day);
      if (!counted) this.counted.set(day, counted = new Set());
      for (const hash of hashes) counted.add(hash);
    }
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
    for (const [id, amount] of pending.views) addTo(target.views, id, amount);
    for (const [id, amount] of pending.clicks) addTo(target.clicks, id, amount);
    for (const hash of pending.visitors) target.visitors.add(hash);
    this.schedule();
  }

  private forgetOldDays(): void {
    const keep = new Set([this.day(), this.yesterday()]);
    for (const day of this.counted.keys()) if (!keep.has(day)) this.counted.delete(day);
    for (const day of this.saltKeys.keys()) if (!keep.has(day)) this.saltKeys.delete(day);
  }

  private async jobRefs(ids: string[]): Promise<Map<string, JobRef>> {
    const now = Date.now();
    const result = new Map<string, JobRef>();
    await Promise.all([...new Set(ids)].map(async (id) => {
      let hit = this.refs.get(id);
      if (!hit || now - hit.at > JOB_REF_CACHE_MS) {
        const job = await this.deps.jobs.get(id);
        hit = { ref: job ? jobRef(job) : null, at: now };
        this.refs.set(id, hit);
      }
      if (hit.ref) result.set(id, hit.ref);
    }));
    if (this.refs.size > 50_000) this.refs.clear();
    return result;
  }
}
