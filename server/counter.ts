/**
 * Cookieless traffic counting, after Plausible and Umami. A request counts only when a person asked
 * for it: a page visit only when the browser navigated to a page (not an image, a frame, a
 * prefetch or prerender, a HEAD request, nor any path with a file extension), an apply-link click
 * only as a navigation, an API call only from our own pages or a client that is not a browser;
 * known bots (the `isbot` list) and headless browsers count nothing. A visitor is an HMAC-SHA-256 of
 * the client address and user agent under the day's secret salt; neither is ever written anywhere.
 * A visitor counts once a day among the unique visitors, and once a day per job for views and for
 * clicks, however many requests it makes and whichever processes answer them: markers in KV decide,
 * and this process only remembers, within a byte budget, what it need not ask KV again. A visit
 * that enters the site also counts for its source (kv/analytics/sources.ts: a referrer group and
 * the landing URL's utm tags, never the referring URL), and a public search counts its normalised
 * term once per visitor a day. Counts are batched in memory and written at most a second later (and
 * on shutdown) so that counting never slows a page down.
 */
import type { Context } from "hono";
import pLimit from "p-limit";
import type { Config } from "./config.ts";
import type { TrafficCounter } from "./context.ts";
import { clientAddress } from "./request.ts";
import { QueryReadings } from "./cache.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../kv/bounded-cache.ts";
import {
  humanVisitor,
  isFilePath,
  isNavigation,
  isOwnApiCall,
  networkOf,
  type Visitor,
} from "./visitors.ts";
import { encodeHex } from "../kv/hex.ts";
import type { JobStore } from "../kv/jobs/store.ts";
import { addDays, dayOf } from "../kv/days.ts";
import {
  addTo,
  claimVisitor,
  type DayCounts,
  emptyDayCounts,
  type Engagement,
  recordDay,
  recordEngagements,
  visitorSalt,
} from "../kv/analytics/recording.ts";
import {
  jobSourceName,
  recordSearches,
  recordSources,
  type Search,
  searchedOf,
  searchedParts,
  type SourceCounts,
} from "../kv/analytics/dimensions.ts";
import { INTERNAL, visitSource } from "../kv/analytics/sources.ts";
import {
  type Browser,
  type CountKind,
  type Device,
  type JobRef,
  jobRef,
} from "../kv/analytics/types.ts";
import { VISITORS_PER_ADDRESS } from "../kv/constants.ts";

/** Counts are written at most this long after they happen. */
export const FLUSH_INTERVAL_MS = 1_000;
/** How long a job's name is reused from memory before it is read again. */
const JOB_REF_CACHE_MS = 60_000;
/** What the batch waiting to be written may hold; past it, it is written at once. */
const PENDING_BYTES = 2 * 1024 * 1024;
/** What the memory of visitors and their counted views and clicks may hold. */
const REMEMBERED_BYTES = 8 * 1024 * 1024;
/** Visitors resolved against KV at once while a batch is written. */
const CLAIMS_AT_ONCE = 8;

const encoder = new TextEncoder();

/** One visitor's requests in a batch: the jobs it viewed and clicked, what it searched. */
interface PendingVisitor {
  address: string;
  userAgent: string;
  /** Whether it opened a page, and so is one of the day's unique visitors. */
  visited: boolean;
  /** Job ids, each with the source of the visitor's first view of it in the batch. */
  views: Map<string, string>;
  clicks: Set<string>;
  /** What its searches asked that is counted (`searchedOf`: dimension newline value). */
  searches: Set<string>;
}

interface PendingDay {
  visits: number;
  devices: Record<Device, number>;
  browsers: Record<Browser, number>;
  /** Visits that entered the site, by `dimension` newline `value` (kv/analytics/dimensions.ts). */
  sources: SourceCounts;
  /** By client address and user agent; hashed when written. */
  visitors: Map<string, PendingVisitor>;
}

function emptyPendingDay(): PendingDay {
  const { devices, browsers } = emptyDayCounts();
  return { visits: 0, devices, browsers, sources: new Map(), visitors: new Map() };
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
  config: Pick<Config, "TIMEZONE" | "SITE_URL">;
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
  /**
   * What each recent query string counts as a search, read once: people ask the popular searches
   * over and over, and reading and normalising the terms was a tenth of such an ask.
   */
  private searched = new QueryReadings(
    (c) => searchedOf((name) => c.req.query(name)),
    CACHE_BUDGETS.searchedQueries,
  );
  /** SITE_URL's host, read once (the configuration does not change). */
  private siteHost?: string[];

  constructor(private deps: CounterDeps) {}

  pageView(c: Context, jobId?: string): void {
    if (isFilePath(c.req.path) || !isNavigation(c)) return;
    const visitor = humanVisitor(c);
    if (!visitor) return;
    const pending = this.pendingDay(this.day());
    pending.visits++;
    pending.devices[visitor.device]++;
    pending.browsers[visitor.browser]++;
    const url = new URL(c.req.url);
    const source = visitSource(url, c.req.header("referer"), this.ownHosts(url));
    // Moves within the site are not where a visit came from.
    if (source.group !== INTERNAL) {
      this.addSource(pending, "sources", source.group);
      this.addSource(pending, "utm_source", source.utmSource);
      this.addSource(pending, "utm_campaign", source.utmCampaign);
    }
    const entry = this.note(c, pending, visitor);
    if (!entry) return;
    entry.visited = true;
    if (jobId) this.add(entry.views, jobId, source.group);
  }

  jobView(c: Context, jobId: string): void {
    if (!isOwnApiCall(c)) return;
    const visitor = humanVisitor(c);
    const entry = visitor && this.note(c, this.pendingDay(this.day()), visitor);
    if (entry) this.add(entry.views, jobId, INTERNAL);
  }

  search(c: Context): void {
    if (!(isNavigation(c) || isOwnApiCall(c))) return;
    // Who asks is quicker to tell than what a search's words normalise to: a bot's are not read.
    const visitor = humanVisitor(c);
    const searched = visitor ? this.searched.of(c) : [];
    const entry = visitor && searched.length > 0 &&
      this.note(c, this.pendingDay(this.day()), visitor);
    if (entry) { for (const item of searched) this.add(entry.searches, item); }
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
    // Even a failed flush may have written some days: this process's visitors see what it wrote.
    const run = this.writing.then(() => this.write())
      .finally(() => this.deps.jobs.analyticsWritten());
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
        views: new Map(),
        clicks: new Set(),
        searches: new Set(),
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

  /** Adds `item` (a job id, a term) to a visitor's set, or to its views with `source`. */
  private add(items: Set<string> | Map<string, string>, item: string, source = ""): void {
    if (items.has(item) || this.pendingBytes > 2 * PENDING_BYTES) return;
    if (items instanceof Map) items.set(item, source);
    else items.add(item);
    this.pendingBytes += roughBytes(item);
  }

  private addSource(pending: PendingDay, dimension: string, value: string | undefined): void {
    if (!value) return;
    const key = `${dimension}\n${value}`;
    if (!pending.sources.has(key)) {
      if (this.pendingBytes > 2 * PENDING_BYTES) return;
      this.pendingBytes += roughBytes(key);
    }
    addTo(pending.sources, key, 1);
  }

  /** This site's hosts: the one `url` asked for, and SITE_URL's. */
  private ownHosts(url: URL): string[] {
    this.siteHost ??= this.deps.config.SITE_URL
      ? [new URL(this.deps.config.SITE_URL).hostname]
      : [];
    return [url.hostname, ...this.siteHost].map((host) => host.toLowerCase().replace(/^www\./, ""));
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
    // recordSources takes out of `pending.sources` what it wrote: a retry adds only the rest.
    const sourceNames = await recordSources(this.deps.kv, day, pending.sources);
    const entries = [...pending.visitors.values()];
    const [refs, results] = await Promise.all([
      this.jobRefs(entries.flatMap((entry) => [...entry.views.keys(), ...entry.clicks])),
      this.resultCounts(entries.flatMap((entry) => [...entry.searches])),
    ]);
    const claim = pLimit(CLAIMS_AT_ONCE);
    const engagements = new Map<string, Engagement>();
    const searches = new Map<string, Search>();
    await Promise.all(entries.map((entry) =>
      claim(async () => {
        const visitor = await this.identity(day, entry);
        for (const kind of ["views", "clicks"] as const) {
          for (const id of entry[kind].keys()) {
            const ref = refs.get(id);
            // A job deleted before its counts were written has nothing left to count towards.
            if (!ref) continue;
            const seen = this.seenKey(day, visitor, kind, ref._id);
            if (this.remembered.get(seen)) continue;
            const group = kind === "views" ? entry.views.get(id) : undefined;
            const source = group && jobSourceName(group, sourceNames);
            engagements.set(seen, { visitor, kind, ref, source });
          }
        }
        for (const searched of entry.searches) {
          const seen = `${day} ${visitor} search ${searched}`;
          if (this.remembered.get(seen)) continue;
          const { dimension, value } = searchedParts(searched);
          searches.set(seen, { visitor, dimension, value, results: results.get(searched) });
        }
      })
    ));
    // A failure before this point leaves the visitors in the batch for a retry, which counts
    // nothing twice: what was written left its markers.
    await recordEngagements(this.deps.kv, day, [...engagements.values()]);
    await recordSearches(this.deps.kv, day, [...searches.values()]);
    for (const seen of [...engagements.keys(), ...searches.keys()]) this.remembered.set(seen, "");
    pending.visitors.clear();
  }

  /** How many active jobs each searched value finds alone, for the dimensions that keep it. */
  private async resultCounts(searched: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const now = this.deps.now().getTime();
    for (const item of new Set(searched)) {
      const { alone } = searchedParts(item);
      if (!alone) continue;
      const page = await this.deps.jobs.search({ ...alone, page: 1, limit: 1, now });
      // Partial matches (no job has every word) are no result: the search found nothing it asked.
      counts.set(item, page.partial ? 0 : page.pagination.totalJobs);
    }
    return counts;
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
    for (const [key, amount] of pending.sources) addTo(target.sources, key, amount);
    for (const [key, entry] of pending.visitors) {
      const existing = target.visitors.get(key);
      if (!existing) {
        target.visitors.set(key, entry);
        this.pendingBytes += roughBytes(key) + 128;
        continue;
      }
      existing.visited ||= entry.visited;
      for (const [id, source] of entry.views) {
        if (!existing.views.has(id)) existing.views.set(id, source);
      }
      for (const id of entry.clicks) existing.clicks.add(id);
      for (const item of entry.searches) existing.searches.add(item);
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
