/**
 * The insight reports: one job's days and sources, the site's traffic sources, and what seekers
 * searched for. Each reads per-day counts (kv/analytics/dimensions.ts, recording.ts) and sums them
 * at read. A day's dimension counts are kept in memory, within a byte budget, while the day's
 * `writes` counter is unchanged, so a 90-day report reads only the daily totals and what changed.
 */
import { keys } from "../keys.ts";
import { getAll } from "../atomic.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../bounded-cache.ts";
import { addDays, dayOf, periodDays } from "../days.ts";
import type { AnalyticsReports } from "./reports.ts";
import { type Dimension, DIMENSIONS } from "./dimensions.ts";
import { OTHER } from "./sources.ts";
import {
  conversionRate,
  type DayTotals,
  type JobInsight,
  type JobRef,
  type SearchesReport,
  type SourcesReport,
} from "./types.ts";
import { MAX_REPORT_DAYS } from "../constants.ts";

/** One day's counts of a dimension: by value, then field (`n`, `zero`, `results`). */
type DayCounts = Map<string, Record<string, number>>;

/** A past day's counts of a dimension as one record, good while the day's `writes` is unchanged. */
interface DayPack {
  writes: number;
  values: [string, Record<string, number>][];
}

/** KV takes values up to 64 KiB; a larger pack (long terms in many scripts) is not written. */
const MAX_PACK_BYTES = 60_000;

const collator = new Intl.Collator("en", { sensitivity: "base" });

/** Rows by count, most first, `OTHER` last, then by name; the first `limit` and the rest summed. */
function ranked<T extends string>(
  totals: Map<string, number>,
  limit: number,
  name: T,
  count: string,
): Record<string, string | number>[] {
  const rows = [...totals].filter(([value]) => value !== OTHER)
    .sort((a, b) => b[1] - a[1] || collator.compare(a[0], b[0]));
  const rest = rows.slice(limit).reduce((sum, [, n]) => sum + n, 0) + (totals.get(OTHER) ?? 0);
  const shown = rows.slice(0, limit).map(([value, n]) => ({ [name]: value, [count]: n }));
  return rest ? [...shown, { [name]: OTHER, [count]: rest }] : shown;
}

function sizeOf(day: DayCounts): number {
  let bytes = 64;
  for (const [value, fields] of day) bytes += roughBytes(value) + roughBytes(fields);
  return bytes;
}

export class InsightReports {
  /** Each day's counts of a dimension by day and dimension, good while the day's `writes` holds. */
  readonly days = new BoundedCache<Promise<DayCounts>>(CACHE_BUDGETS.insightDays);
  /**
   * The `writes` at which this process found or made each day's pack (`packPastDays`): at most
   * the longest report period's days, one entry a dimension.
   */
  private packedAt = new Map<string, number>();

  constructor(
    private kv: Deno.Kv,
    private reports: AnalyticsReports,
    private timeZone: string,
    private now: () => Date,
  ) {}

  /**
   * Packs every past day of the longest report period whose counts are not packed at their
   * current `writes` yet, one day and dimension at a time: run each hour, so the first report of
   * a new process reads one record a day instead of listing hundreds of keys a day. A day packed
   * at the `writes` it has is passed over without a read; a late write reopens it.
   */
  async packPastDays(): Promise<number> {
    const today = dayOf(this.now(), this.timeZone);
    let packed = 0;
    for (const { day, totals } of await this.reports.daily(MAX_REPORT_DAYS)) {
      if (day >= today || totals.writes === 0) continue;
      for (const dimension of DIMENSIONS) {
        const done = `${day} ${dimension}`;
        if (this.packedAt.get(done) === totals.writes) continue;
        if (await this.packDay(day, dimension, totals.writes)) packed++;
        this.packedAt.set(done, totals.writes);
      }
    }
    return packed;
  }

  /** The job's views and clicks a day over the period and its views by source. */
  job(ref: JobRef & { status: string }, days: number): Promise<JobInsight> {
    return this.reports.remember(
      `insight:job:${ref._id}:${days}:${ref.role}:${ref.companyName}:${ref.status}`,
      () => this.readJob(ref, days),
    );
  }

  private async readJob(ref: JobRef & { status: string }, days: number): Promise<JobInsight> {
    const list = periodDays(dayOf(this.now(), this.timeZone), days);
    const counted = await getAll<Deno.KvU64>(
      this.kv,
      list.flatMap((day) => [
        keys.analyticsJobDay(day, ref._id, "views"),
        keys.analyticsJobDay(day, ref._id, "clicks"),
      ]),
    );
    const bySource = new Map<string, number>();
    const prefix = keys.analyticsJobSources(ref._id);
    for await (
      const entry of this.kv.list<Deno.KvU64>({
        start: [...prefix, list[0]],
        end: [...prefix, addDays(list[list.length - 1], 1)],
      }, { batchSize: 1000 })
    ) {
      const source = entry.key[3] as string;
      bySource.set(source, (bySource.get(source) ?? 0) + Number(entry.value.value));
    }
    const value = (i: number) => Number(counted[i].value?.value ?? 0n);
    const daily = list.map((date, i) => ({ date, views: value(2 * i), clicks: value(2 * i + 1) }));
    const views = daily.reduce((sum, day) => sum + day.views, 0);
    const clicks = daily.reduce((sum, day) => sum + day.clicks, 0);
    return {
      job: {
        _id: ref._id,
        jobId: ref.jobId,
        role: ref.role,
        companyName: ref.companyName,
        status: ref.status,
      },
      days,
      from: list[0],
      to: list[list.length - 1],
      views,
      clicks,
      conversionRate: conversionRate(clicks, views),
      daily,
      sources: ranked(bySource, bySource.size, "source", "views") as JobInsight["sources"],
    };
  }

  /** Visits by referrer group, utm_source and utm_campaign, each list its top `limit`. */
  sources(days: number, limit: number): Promise<SourcesReport> {
    return this.reports.remember(
      `insight:sources:${days}:${limit}`,
      () => this.readSources(days, limit),
    );
  }

  private async readSources(days: number, limit: number): Promise<SourcesReport> {
    const { from, to, sum } = await this.summed(days, ["sources", "utm_source", "utm_campaign"]);
    const sources = sum("sources", "n");
    let visits = 0;
    for (const n of sources.values()) visits += n;
    return {
      days,
      from,
      to,
      visits,
      sources: ranked(sources, limit, "source", "visits") as SourcesReport["sources"],
      utmSources: ranked(sum("utm_source", "n"), limit, "value", "visits") as SourcesReport[
        "utmSources"
      ],
      utmCampaigns: ranked(sum("utm_campaign", "n"), limit, "value", "visits") as SourcesReport[
        "utmCampaigns"
      ],
    };
  }

  /** The most searched terms and the most searched terms that found nothing, `limit` of each. */
  searches(days: number, limit: number): Promise<SearchesReport> {
    return this.reports.remember(
      `insight:searches:${days}:${limit}`,
      () => this.readSearches(days, limit),
    );
  }

  private async readSearches(days: number, limit: number): Promise<SearchesReport> {
    const { from, to, sum, latest } = await this.summed(days, ["searches"]);
    const searches = sum("searches", "n");
    const zero = sum("searches", "zero");
    const results = latest("searches", "results");
    const otherSearches = searches.get(OTHER) ?? 0;
    searches.delete(OTHER);
    zero.delete(OTHER);
    let total = otherSearches;
    for (const n of searches.values()) total += n;
    const byCount = (a: [string, number], b: [string, number]) =>
      b[1] - a[1] || collator.compare(a[0], b[0]);
    return {
      days,
      from,
      to,
      searches: total,
      top: [...searches].sort(byCount).slice(0, limit).map(([query, n]) => ({
        query,
        searches: n,
        results: results.get(query) ?? 0,
      })),
      zeroResults: [...zero].filter(([, n]) => n > 0).sort(byCount).slice(0, limit).map((
        [query, n],
      ) => ({ query, searches: n })),
      otherSearches,
    };
  }

  /** The period's days, with a sum over them of a field of `dimensions` and its latest figure. */
  private async summed(days: number, dimensions: Dimension[]) {
    const daily = await this.reports.daily(days);
    const loaded = new Map(
      await Promise.all(dimensions.map(async (dimension) =>
        [
          dimension,
          await Promise.all(daily.map(({ day, totals }) => this.dayOf(day, dimension, totals))),
        ] as const
      )),
    );
    const sum = (dimension: Dimension, field: string) => {
      const totals = new Map<string, number>();
      for (const day of loaded.get(dimension)!) {
        for (const [value, fields] of day) {
          const n = fields[field] ?? 0;
          if (n) totals.set(value, (totals.get(value) ?? 0) + n);
        }
      }
      return totals;
    };
    const latest = (dimension: Dimension, field: string) => {
      const figures = new Map<string, number>();
      for (const day of loaded.get(dimension)!) {
        for (const [value, fields] of day) {
          if (fields[field] !== undefined) figures.set(value, fields[field]);
        }
      }
      return figures;
    };
    return { from: daily[0].day, to: daily[daily.length - 1].day, sum, latest };
  }

  private dayOf(day: string, dimension: Dimension, totals: DayTotals): Promise<DayCounts> {
    if (totals.writes === 0) return Promise.resolve(new Map());
    const key = `${day} ${dimension}`;
    const hit = this.days.get(key, totals.writes);
    if (hit) return hit;
    const load = this.readDay(day, dimension, totals.writes);
    this.days.set(key, totals.writes, load, 0);
    // Kept at a placeholder size while it is read (callers meanwhile share it), then at its own.
    load.then(
      (value) =>
        this.days.get(key, totals.writes) === load &&
        this.days.set(key, totals.writes, load, sizeOf(value)),
      () => this.days.get(key, totals.writes) === load && this.days.delete(key),
    );
    return load;
  }

  /**
   * A day's counts of a dimension: from its pack when the pack was made at the day's current
   * `writes`, else listed (a busy day holds hundreds of keys a dimension, and 90 days of listing
   * took seconds) and, once the day is over, packed for the next reader.
   */
  private async readDay(day: string, dimension: Dimension, writes: number): Promise<DayCounts> {
    const pack = (await this.kv.get<DayPack>(keys.analyticsDimPack(day, dimension))).value;
    if (pack?.writes === writes) return new Map(pack.values);
    const values = await this.listDay(day, dimension);
    if (day < dayOf(this.now(), this.timeZone)) {
      await this.writePack(day, dimension, writes, values);
    }
    return values;
  }

  /** Makes a past day's pack unless it holds its `writes`; whether one was written. */
  private async packDay(day: string, dimension: Dimension, writes: number): Promise<boolean> {
    const pack = (await this.kv.get<DayPack>(keys.analyticsDimPack(day, dimension))).value;
    if (pack?.writes === writes) return false;
    return this.writePack(day, dimension, writes, await this.listDay(day, dimension));
  }

  private async writePack(
    day: string,
    dimension: Dimension,
    writes: number,
    values: DayCounts,
  ): Promise<boolean> {
    const packed: DayPack = { writes, values: [...values] };
    if (roughBytes(packed) > MAX_PACK_BYTES) return false;
    await this.kv.set(keys.analyticsDimPack(day, dimension), packed);
    return true;
  }

  private async listDay(day: string, dimension: Dimension): Promise<DayCounts> {
    const values: DayCounts = new Map();
    const prefix = keys.analyticsDimDays(day, dimension);
    for await (const entry of this.kv.list<Deno.KvU64>({ prefix }, { batchSize: 1000 })) {
      const [, , , value, field] = entry.key as string[];
      let fields = values.get(value);
      if (!fields) values.set(value, fields = {});
      fields[field] = Number(entry.value.value);
    }
    return values;
  }
}
