/**
 * The analytics reports (dashboard, trends, top jobs and companies, export) read from the day
 * counts that recording writes, with the in-memory caches that keep a long period cheap to read.
 */
import pLimit from "p-limit";
import { keys } from "../keys.ts";
import { getAll } from "../atomic.ts";
import { unversioned, type Versioned } from "../schema-version.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../bounded-cache.ts";
import { addDays, dayOf, periodDays } from "../days.ts";
import { type Browser, type Device, MAX_REPORT_DAYS } from "../constants.ts";
import {
  type AnalyticsExport,
  conversionRate,
  type CountKind,
  type Dashboard,
  type DashboardSummary,
  type DayTotals,
  emptyTotals,
  type JobRef,
  summaryOf,
  type TopCompany,
  type TopJob,
  type Totals,
  totalsOf,
  type Trends,
} from "./types.ts";

interface DayTraffic {
  ids: Uint32Array;
  views: Uint32Array;
  clicks: Uint32Array;
}

const NO_COUNTS: DayTraffic = {
  ids: new Uint32Array(0),
  views: new Uint32Array(0),
  clicks: new Uint32Array(0),
};

interface CachedDay {
  writes: number;
  load: Promise<DayTraffic>;
}

/** A name with its views and clicks over a period. */
type RankRow = readonly [name: string, views: number, clicks: number];

/**
 * Several days merged: totals by name number (names numbered later have none), and the numbers of
 * the names counted, ordered by views, most first.
 */
interface Ranking {
  views: Float64Array;
  clicks: Float64Array;
  byViews: Uint32Array;
}

interface CachedRanking {
  /** The days and their `writes` counters the ranking was made from. */
  key: string;
  ranking: Promise<Ranking>;
}

/**
 * Days listed from KV at once. Each listing in flight holds native read buffers, so listing every
 * day of a long period at once was slower and left far more resident memory
 * (docs/decisions/013-analytics-counts-held-small.md).
 */
const DAYS_LISTED_AT_ONCE = 2;

/** Rankings kept per kind: the periods of the period selector, and a spare. */
const RANKINGS_KEPT = 4;
/**
 * Names a kind's cache numbers before it starts afresh: numbers are never reused, so the names of
 * jobs long gone would pile up in a server that runs for years (20 times the bench's 60,000).
 */
const NAMES_KEPT = 1_200_000;

/**
 * What is held in memory for one kind (jobs or companies): its days' counts, the rankings made of
 * them, and its names (job `_id`s or company names) numbered in the order first seen, so that counts
 * can be typed arrays: a tenth of the memory of Maps of pairs for 90 days of job-day counts
 * (docs/decisions/013-analytics-counts-held-small.md).
 */
class KindCache {
  readonly days = new Map<string, CachedDay>();
  /** Past days' rankings by period length, for the few periods the screens ask for. */
  readonly rankings = new Map<number, CachedRanking>();
  readonly names: string[] = [];
  private numbers = new Map<string, number>();

  constructor(readonly prefix: (day: string) => Deno.KvKey) {}

  numberOf(name: string): number {
    let number = this.numbers.get(name);
    if (number === undefined) {
      number = this.names.length;
      this.names.push(name);
      this.numbers.set(name, number);
    }
    return number;
  }
}
/** The longest a report answer is reused, so an edited job name shows within a minute. */
const ANSWER_CACHE_MS = 60_000;

const collator = new Intl.Collator("en", { sensitivity: "base" });
/** How long a job's name is trusted from memory before it is read again (edits show up by then). */
const REF_CACHE_MS = ANSWER_CACHE_MS;

/**
 * The report queries. Past days' per-job and per-company counts are held in memory, each checked
 * against the day's `writes` counter on every call, so a 90-day report reads only the daily totals
 * and whatever changed since, and stays right when other processes write.
 */
export class AnalyticsReports {
  private caches = {
    jobs: new KindCache(keys.analyticsJobDays),
    companies: new KindCache(keys.analyticsCompanyDays),
  };
  private listing = pLimit(DAYS_LISTED_AT_ONCE);
  /** Job names by id, each trusted for up to a minute (`REF_CACHE_MS`) so edits show. */
  readonly refs = new BoundedCache<JobRef | null>(CACHE_BUDGETS.reportJobNames);
  /** Report answers by name; sized once they are made. */
  readonly answers = new BoundedCache<Promise<unknown>>(CACHE_BUDGETS.reportAnswers);

  constructor(
    private kv: Deno.Kv,
    private timeZone: string,
    private now: () => Date = () => new Date(),
    private namesKept = NAMES_KEPT,
  ) {}

  /** The period's days, oldest first, each with its totals (zero when nothing was counted). */
  daily(days: number): Promise<{ day: string; totals: DayTotals }[]> {
    return this.remember(`daily:${days}`, () => this.readDaily(days));
  }

  private async readDaily(days: number): Promise<{ day: string; totals: DayTotals }[]> {
    const list = periodDays(dayOf(this.now(), this.timeZone), days);
    const found = new Map<string, DayTotals>();
    for await (
      const entry of this.kv.list<Deno.KvU64>({
        start: keys.analyticsDay(list[0]),
        end: keys.analyticsDay(addDays(list[list.length - 1], 1)),
      }, { batchSize: 1000 })
    ) {
      const [, day, field] = entry.key as [string, string, string];
      let totals = found.get(day);
      if (!totals) found.set(day, totals = emptyTotals());
      const value = Number(entry.value.value);
      const [group, name] = field.split(":", 2);
      if (group === "device" && name in totals.devices) totals.devices[name as Device] = value;
      else if (group === "browser" && name in totals.browsers) {
        totals.browsers[name as Browser] = value;
      } else if (
        field === "visits" || field === "uniques" || field === "views" || field === "clicks" ||
        field === "writes"
      ) totals[field] = value;
    }
    return list.map((day) => ({ day, totals: found.get(day) ?? emptyTotals() }));
  }

  async overview(days: number): Promise<Totals> {
    return totalsOf(await this.daily(days));
  }

  /**
   * Built afresh on each call from the cached days: its per-day lists of jobs grow with the jobs
   * viewed, too big to keep one per period in memory.
   */
  async dashboard(days: number): Promise<Dashboard> {
    const daily = await this.daily(days);
    const jobs = this.cacheOf("jobs");
    const byJob = await Promise.all(
      daily.map(({ day, totals }) => this.countsOn(jobs, day, totals)),
    );
    const totals = totalsOf(daily);
    const jobIds = jobs.names;
    const entries = (day: DayTraffic, counts: Uint32Array) => {
      const list: { jobId: string; count: number }[] = [];
      day.ids.forEach((id, i) =>
        counts[i] > 0 && list.push({ jobId: jobIds[id], count: counts[i] })
      );
      return list.sort((a, b) => b.count - a.count || (a.jobId < b.jobId ? -1 : 1));
    };
    return {
      ...totals,
      conversionRate: conversionRate(totals.totalJobClicks, totals.totalJobViews),
      dailyAnalytics: daily.map(({ day, totals }, i) => ({
        date: day,
        websiteVisits: totals.visits,
        uniqueVisitors: totals.uniques,
        jobViews: entries(byJob[i], byJob[i].views),
        jobClicks: entries(byJob[i], byJob[i].clicks),
      })),
    };
  }

  /** `dashboard`'s figures with each day's views and clicks summed, kept like the other reports. */
  dashboardSummary(days: number): Promise<DashboardSummary> {
    return this.remember(`dashboard-summary:${days}`, async () => {
      const daily = await this.daily(days);
      const totals = totalsOf(daily);
      return {
        ...totals,
        conversionRate: conversionRate(totals.totalJobClicks, totals.totalJobViews),
        daily: daily.map(({ day, totals }) => ({
          date: day,
          websiteVisits: totals.visits,
          uniqueVisitors: totals.uniques,
          jobViews: totals.views,
          jobClicks: totals.clicks,
        })),
      };
    });
  }

  trends(days: number): Promise<Trends> {
    return this.remember(`trends:${days}`, () => this.makeTrends(days));
  }

  private async makeTrends(days: number): Promise<Trends> {
    const daily = await this.daily(days);
    const totals = totalsOf(daily);
    return {
      trends: daily.map(({ day, totals }) => ({
        date: day,
        websiteVisits: totals.visits,
        uniqueVisitors: totals.uniques,
        totalJobViews: totals.views,
        totalJobClicks: totals.clicks,
        deviceInfo: { ...totals.devices },
        browserInfo: { ...totals.browsers },
      })),
      summary: summaryOf(totals, days),
    };
  }

  /** Jobs by views over the period, most first; equal views go by role, company, then jobId. */
  topJobs(days: number, limit: number): Promise<TopJob[]> {
    return this.remember(`jobs:${days}:${limit}`, () => this.rankJobs(days, limit));
  }

  private async rankJobs(days: number, limit: number): Promise<TopJob[]> {
    const candidates = await this.contenders("jobs", await this.daily(days), limit);
    const refs = await this.jobRefs(candidates.map(([id]) => id));
    return candidates.map(([id, views, clicks]): TopJob => {
      const ref = refs.get(id) ?? { _id: id, jobId: id, role: "(deleted job)", companyName: "" };
      return { ...ref, views, clicks, conversionRate: conversionRate(clicks, views) };
    }).sort((a, b) =>
      b.views - a.views || collator.compare(a.role, b.role) ||
      collator.compare(a.companyName, b.companyName) || (a.jobId < b.jobId ? -1 : 1)
    ).slice(0, limit);
  }

  /** Companies by views over the period, most first; equal views go by name. */
  topCompanies(days: number, limit: number): Promise<TopCompany[]> {
    return this.remember(`companies:${days}:${limit}`, () => this.rankCompanies(days, limit));
  }

  private async rankCompanies(days: number, limit: number): Promise<TopCompany[]> {
    const candidates = await this.contenders("companies", await this.daily(days), limit);
    return candidates.map(([company, views, clicks]) => ({
      company,
      views,
      clicks,
      conversionRate: conversionRate(clicks, views),
    })).sort((a, b) =>
      b.views - a.views || collator.compare(a.company, b.company) ||
      (a.company < b.company ? -1 : 1)
    ).slice(0, limit);
  }

  async exportData(days: number, limit: number): Promise<AnalyticsExport> {
    const [trends, topJobs, topCompanies] = await Promise.all([
      this.trends(days),
      this.topJobs(days, limit),
      this.topCompanies(days, limit),
    ]);
    const totals = {
      totalVisits: 0,
      totalUniqueVisitors: 0,
      totalJobViews: 0,
      totalJobClicks: 0,
    };
    for (const day of trends.trends) {
      totals.totalVisits += day.websiteVisits;
      totals.totalUniqueVisitors += day.uniqueVisitors;
      totals.totalJobViews += day.totalJobViews;
      totals.totalJobClicks += day.totalJobClicks;
    }
    return {
      days,
      from: trends.trends[0].date,
      to: trends.trends[trends.trends.length - 1].date,
      totals: {
        ...totals,
        conversionRate: conversionRate(totals.totalJobClicks, totals.totalJobViews),
      },
      summary: trends.summary,
      daily: trends.trends,
      topJobs,
      topCompanies,
    };
  }

  /**
   * A report's answer is reused while no analytics write happened anywhere (the `analytics_writes`
   * counter is unchanged), for the same day, and for at most a minute so that edited job names show.
   */
  async remember<T>(name: string, compute: () => Promise<T>): Promise<T> {
    const writes = (await this.kv.get<Deno.KvU64>(keys.analyticsWrites())).value?.value ?? 0n;
    const minute = Math.floor(Date.now() / ANSWER_CACHE_MS);
    const version = `${writes} ${dayOf(this.now(), this.timeZone)} ${minute}`;
    const hit = this.answers.get(name, version);
    if (hit) return hit as Promise<T>;
    const value = compute();
    // Kept at a placeholder size while it is made (callers meanwhile share it), then at its own.
    this.answers.set(name, version, value, 0);
    value.then(
      (answer) =>
        this.answers.get(name, version) === value &&
        this.answers.set(name, version, value, roughBytes(answer)),
      () => this.answers.get(name, version) === value && this.answers.delete(name),
    );
    return value;
  }

  /**
   * Everything that can make the top `limit` by views, the last place's ties included. The past
   * days' ranking is cached per period and checked against each day's writes; today's counts, which
   * change all day, are added on top, so a busy day costs a merge of today's names only.
   */
  private async contenders(
    kind: "jobs" | "companies",
    daily: { day: string; totals: DayTotals }[],
    limit: number,
  ): Promise<RankRow[]> {
    const held = this.cacheOf(kind);
    const past = daily.slice(0, -1);
    const today = daily[daily.length - 1];
    const key = past.map(({ day, totals }) => `${day}:${totals.writes}`).join(",");
    const rankings = held.rankings;
    let cached = rankings.get(past.length);
    if (!cached || cached.key !== key) {
      const ranking = Promise.all(past.map(({ day, totals }) => this.countsOn(held, day, totals)))
        .then((days) => rank(days, held.names.length));
      cached = { key, ranking };
      const entry = cached;
      ranking.catch(() => rankings.get(past.length) === entry && rankings.delete(past.length));
      rankings.delete(past.length);
      rankings.set(past.length, cached);
      if (rankings.size > RANKINGS_KEPT) rankings.delete(rankings.keys().next().value!);
    }
    const [ranking, todayCounts] = await Promise.all([
      cached.ranking,
      this.countsOn(held, today.day, today.totals),
    ]);
    const rows: RankRow[] = [];
    const countedToday = new Set<number>();
    todayCounts.ids.forEach((id, i) => {
      countedToday.add(id);
      rows.push([
        held.names[id],
        todayCounts.views[i] + (ranking.views[id] ?? 0),
        todayCounts.clicks[i] + (ranking.clicks[id] ?? 0),
      ]);
    });
    let taken = 0;
    let lastViews = 0;
    for (const id of ranking.byViews) {
      if (countedToday.has(id)) continue;
      const views = ranking.views[id];
      if (taken >= limit && views < lastViews) break;
      rows.push([held.names[id], views, ranking.clicks[id]]);
      taken++;
      lastViews = views;
    }
    if (rows.length === 0) return [];
    rows.sort((a, b) => b[1] - a[1]);
    const cutoff = rows[Math.min(limit, rows.length) - 1][1];
    return rows.filter((row) => row[1] >= cutoff);
  }

  /** The kind's cache, started afresh once it numbers too many names. */
  private cacheOf(kind: "jobs" | "companies"): KindCache {
    const current = this.caches[kind];
    if (current.names.length <= this.namesKept) return current;
    return this.caches[kind] = new KindCache(current.prefix);
  }

  /** One day's counts of the kind, from memory while the day's `writes` counter is unchanged. */
  private countsOn(held: KindCache, day: string, totals: DayTotals): Promise<DayTraffic> {
    const writes = totals.writes;
    if (writes === 0) return Promise.resolve(NO_COUNTS);
    const cache = held.days;
    const hit = cache.get(day);
    if (hit && hit.writes === writes) return hit.load;
    const load = this.listing(async () => {
      const ids: number[] = [];
      const views: number[] = [];
      const clicks: number[] = [];
      let last = "";
      const prefix = held.prefix(day);
      // Keys sort by name, then kind: a name's two counts come one after the other.
      for await (const entry of this.kv.list<Deno.KvU64>({ prefix }, { batchSize: 1000 })) {
        const name = entry.key[2] as string;
        if (ids.length === 0 || name !== last) {
          ids.push(held.numberOf(name));
          views.push(0);
          clicks.push(0);
          last = name;
        }
        const counts = (entry.key[3] as CountKind) === "views" ? views : clicks;
        counts[counts.length - 1] = Number(entry.value.value);
      }
      return {
        ids: Uint32Array.from(ids),
        views: Uint32Array.from(views),
        clicks: Uint32Array.from(clicks),
      };
    });
    const cached = { writes, load };
    cache.set(day, cached);
    load.catch(() => cache.get(day) === cached && cache.delete(day));
    this.forgetOldDays(cache);
    return load;
  }

  private forgetOldDays(cache: Map<string, CachedDay>): void {
    if (cache.size <= MAX_REPORT_DAYS + 2) return;
    const oldest = addDays(dayOf(this.now(), this.timeZone), -MAX_REPORT_DAYS);
    for (const day of cache.keys()) if (day < oldest) cache.delete(day);
  }

  private async jobRefs(ids: string[]): Promise<Map<string, JobRef>> {
    // Names read in an earlier minute are read again.
    const minute = Math.floor(Date.now() / REF_CACHE_MS);
    const result = new Map<string, JobRef>();
    const missing: string[] = [];
    for (const id of ids) {
      const ref = this.refs.get(id, minute);
      if (ref === undefined) missing.push(id);
      else if (ref) result.set(id, ref);
    }
    if (missing.length) {
      const entries = await getAll<Versioned<JobRef>>(
        this.kv,
        missing.map((id) => keys.analyticsJob(id)),
      );
      missing.forEach((id, i) => {
        const stored = entries[i].value;
        const ref = stored && unversioned(stored);
        this.refs.set(id, minute, ref, roughBytes(ref));
        if (ref) result.set(id, ref);
      });
    }
    return result;
  }
}

/** Merges days whose names are numbered below `names`. */
function rank(days: DayTraffic[], names: number): Ranking {
  const views = new Float64Array(names);
  const clicks = new Float64Array(names);
  const counted = new Uint8Array(names);
  for (const day of days) {
    day.ids.forEach((id, i) => {
      views[id] += day.views[i];
      clicks[id] += day.clicks[i];
      counted[id] = 1;
    });
  }
  const ids: number[] = [];
  counted.forEach((flag, id) => flag && ids.push(id));
  const byViews = Uint32Array.from(ids).sort((a, b) => views[b] - views[a]);
  return { views, clicks, byViews };
}
