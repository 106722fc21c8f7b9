/**
 * Jobs' running view and click totals, remembered within a byte budget while `analytics_writes`
 * is unchanged: every counter write bumps it in the same atomic write.
 */
import { keys } from "../keys.ts";
import { EVENTUAL, GET_MANY_KEYS, getAll, sharedRead } from "../atomic.ts";
import type { JobAnalytics } from "../schemas.ts";
import { BoundedCache, CACHE_BUDGETS } from "../bounded-cache.ts";

/** What one job's remembered totals cost: its id and a two-number record. */
const TOTALS_ENTRY_BYTES = 96;

export class JobTotals {
  private totals = new BoundedCache<JobAnalytics>(CACHE_BUDGETS.jobTotals);
  /** The last `analytics_writes` read: a job's totals tagged with it need not be read beside it. */
  private lastAnalyticsVersion = -1n;

  constructor(
    private kv: Deno.Kv,
    /** The counter as a store following the data knows it, with no read (`RevisionFollower`). */
    private followed: () => bigint | undefined = () => undefined,
  ) {}

  /** The analytics write counter: unchanged means no view or click total changed. */
  readonly analyticsVersion = sharedRead(async () =>
    (await this.kv.get<Deno.KvU64>(keys.analyticsWrites())).value?.value ?? 0n
  );

  /** The same from a nearby replica, for the counts a visitor sees. */
  private readonly visitorAnalyticsVersion = sharedRead(async () =>
    (await this.kv.get<Deno.KvU64>(keys.analyticsWrites(), EVENTUAL)).value?.value ?? 0n
  );

  /**
   * The running view and click totals of each job. Totals read earlier are reused while
   * `analytics_writes` is unchanged: every counter write bumps it in the same atomic write, so an
   * unchanged value means unchanged totals. When every job's totals are known, concurrent callers
   * share the read of that counter, so a job read by many visitors at once costs one read, not two
   * counter reads each. A job page's totals not known yet are read with that counter in one
   * snapshot, not after it. A visitor's counts are read from a nearby replica, and where the
   * store follows the data the counter is not read at all: a job page kept in memory answers its
   * visitors with the view count it knows, waiting on nothing.
   */
  async of(
    ids: string[],
    { visitor = false } = {},
  ): Promise<Map<string, JobAnalytics>> {
    const result = new Map<string, JobAnalytics>();
    const followed = visitor ? this.followed() : undefined;
    const unknown = ids.filter((id) => !this.totals.get(id, followed ?? this.lastAnalyticsVersion));
    const options = visitor ? EVENTUAL : undefined;
    let version: bigint;
    if (unknown.length > 0 && unknown.length * 2 < GET_MANY_KEYS) {
      const [writes, ...counters] = await this.kv.getMany<Deno.KvU64[]>([
        keys.analyticsWrites(),
        ...unknown.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
      ], options);
      version = writes.value?.value ?? 0n;
      this.remember(unknown, counters, version, result);
    } else {
      version = followed ??
        await (visitor ? this.visitorAnalyticsVersion() : this.analyticsVersion());
    }
    this.lastAnalyticsVersion = version;
    const missing = ids.filter((id) => {
      if (result.has(id)) return false;
      const known = this.totals.get(id, version);
      if (!known) return true;
      result.set(id, known);
      return false;
    });
    if (missing.length === 0) return result;
    // Tagged with the version read before the counters, so a newer total is never taken as old.
    const entries = await getAll<Deno.KvU64>(
      this.kv,
      missing.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
      options,
    );
    this.remember(missing, entries, version, result);
    return result;
  }

  /** Takes in jobs' view and click counters (two entries a job) as of `version`. */
  private remember(
    ids: string[],
    counters: Deno.KvEntryMaybe<Deno.KvU64>[],
    version: bigint,
    result: Map<string, JobAnalytics>,
  ) {
    ids.forEach((id, i) => {
      const analytics = {
        views: Number(counters[i * 2]?.value?.value ?? 0n),
        clicks: Number(counters[i * 2 + 1]?.value?.value ?? 0n),
      };
      result.set(id, analytics);
      this.totals.set(id, version, analytics, TOTALS_ENTRY_BYTES);
    });
  }
}
