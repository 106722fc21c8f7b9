/**
 * Recording traffic in Deno KV. Counters are per calendar day in TIMEZONE and are written
 * with `sum`, so any number of processes can add to them at once without losing a count. Each
 * atomic write carries a job's per-day count, its running total and the day's total together, so
 * the three never disagree. No address or user agent is stored: unique visitors are keyed hashes
 * under a daily salt, and both the salt and the markers expire after 48 hours.
 */
import { keys } from "../keys.ts";
import { ATOMIC_MUTATIONS_BUDGET, chunk, retrying } from "../atomic.ts";
import {
  BROWSERS,
  type CountKind,
  DEVICES,
  JOB_REF_SCHEMA_VERSION,
  type JobRef,
  storedJobRef,
  zeroed,
} from "./types.ts";
import { type Browser, type Device, VISITOR_DATA_TTL_MS } from "../constants.ts";
import { type UpgradeCount, upgradeRecords } from "../schema-version.ts";
import { addDays, startOfDayAfter } from "../days.ts";

/** Counts gathered for one day, to be added to KV. */
export interface DayCounts {
  visits: number;
  /** Visitors already known to be new that day (the seed; live traffic uses recordVisitors). */
  uniques: number;
  devices: Record<Device, number>;
  browsers: Record<Browser, number>;
  /** By job `_id`; every id needs its ref in `jobs`. */
  views: Map<string, number>;
  clicks: Map<string, number>;
  jobs: Map<string, JobRef>;
}

export function emptyDayCounts(): DayCounts {
  return {
    visits: 0,
    uniques: 0,
    devices: zeroed(DEVICES),
    browsers: zeroed(BROWSERS),
    views: new Map(),
    clicks: new Map(),
    jobs: new Map(),
  };
}

/** Each job writes at most its two day counts, two running totals, its ref and two company sums. */
const MUTATIONS_PER_JOB = 7;
/** Room left for the day's totals (at most 14 fields) in every write. */
const JOBS_PER_WRITE = Math.floor((ATOMIC_MUTATIONS_BUDGET - 20) / MUTATIONS_PER_JOB);

/** Adds `amount` to the count under `key`. */
export function addTo<K>(map: Map<K, number>, key: K, amount: number): void {
  if (amount) map.set(key, (map.get(key) ?? 0) + amount);
}

/**
 * Adds a day's counts. Jobs are split across as many atomic writes as the KV limits need; each
 * write adds to the day's totals exactly what it adds to its jobs, so totals, per-job days and
 * running totals agree after every commit. What each write commits is taken out of `counts`, so
 * when a later write fails, `counts` holds exactly what is still to be written. `refs` and
 * `runningTotals` are off only for the seed, which writes those once per job instead of once per day.
 */
export async function recordDay(
  kv: Deno.Kv,
  day: string,
  counts: DayCounts,
  { refs = true, runningTotals = true } = {},
): Promise<void> {
  const ids = [...new Set([...counts.views.keys(), ...counts.clicks.keys()])];
  const parts = ids.length ? chunk(ids, JOBS_PER_WRITE) : [[]];
  for (const [index, part] of parts.entries()) {
    const totals = new Map<string, number>();
    if (index === 0) {
      addTo(totals, "visits", counts.visits);
      addTo(totals, "uniques", counts.uniques);
      for (const device of DEVICES) addTo(totals, `device:${device}`, counts.devices[device]);
      for (const browser of BROWSERS) addTo(totals, `browser:${browser}`, counts.browsers[browser]);
    }
    const companies = { views: new Map<string, number>(), clicks: new Map<string, number>() };
    const op = kv.atomic();
    for (const id of part) {
      const ref = counts.jobs.get(id);
      if (!ref) throw new Error(`recordDay: no job ref for ${id}`);
      for (const kind of ["views", "clicks"] as const) {
        const amount = counts[kind].get(id) ?? 0;
        if (!amount) continue;
        op.sum(keys.analyticsJobDay(day, id, kind), BigInt(amount));
        if (runningTotals) op.sum(keys.jobCounter(id, kind), BigInt(amount));
        addTo(totals, kind, amount);
        addTo(companies[kind], ref.companyName, amount);
      }
      if (refs) op.set(keys.analyticsJob(id), storedJobRef(ref));
    }
    if (totals.size === 0) continue;
    addSums(op, day, companies, totals);
    const result = await op.commit();
    if (!result.ok) throw new Error(`analytics write for ${day} was not committed`);
    if (index === 0) {
      counts.visits = 0;
      counts.uniques = 0;
      for (const device of DEVICES) counts.devices[device] = 0;
      for (const browser of BROWSERS) counts.browsers[browser] = 0;
    }
    for (const id of part) {
      counts.views.delete(id);
      counts.clicks.delete(id);
    }
  }
}

/** Adds the company sums and day totals of one write, and bumps the `writes` counters. */
function addSums(
  op: Deno.AtomicOperation,
  day: string,
  companies: Record<CountKind, Map<string, number>>,
  totals: Map<string, number>,
): void {
  for (const kind of ["views", "clicks"] as const) {
    for (const [company, amount] of companies[kind]) {
      op.sum(keys.analyticsCompanyDay(day, company, kind), BigInt(amount));
    }
  }
  for (const [field, amount] of totals) {
    op.sum(keys.analyticsDayTotal(day, field), BigInt(amount));
  }
  op.sum(keys.analyticsDayTotal(day, "writes"), 1n).sum(keys.analyticsWrites(), 1n);
}

/**
 * The secret salt of a day, made by whichever process needs it first. It lives while its day is
 * today or yesterday and not a moment longer: with the salt, the day's visitor hashes could be
 * turned back into addresses by trying them all.
 */
export function visitorSalt(
  kv: Deno.Kv,
  day: string,
  now: Date,
  timeZone: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = keys.analyticsSalt(day);
  const end = startOfDayAfter(now, addDays(day, 2), timeZone);
  return retrying(async () => {
    const entry = await kv.get<Uint8Array<ArrayBuffer>>(key);
    if (entry.value) return entry.value;
    const salt = crypto.getRandomValues(new Uint8Array(32));
    const result = await kv.atomic().check(entry).set(key, salt, {
      expireIn: Math.max(1, end.getTime() - now.getTime()),
    }).commit();
    return result.ok ? salt : undefined;
  });
}

/** The self-hosted KV server allows 10 checks per atomic write. */
const VISITORS_PER_WRITE = 10;

/**
 * Counts the visitor hashes not yet counted that day: each marker is claimed with a check in the
 * same write that adds to the day's uniques, so a visitor seen by two processes counts once.
 * Returns how many were new.
 */
export async function recordVisitors(kv: Deno.Kv, day: string, hashes: string[]): Promise<number> {
  let added = 0;
  for (const part of chunk(hashes, VISITORS_PER_WRITE)) {
    added += await retrying(async () => {
      const markers = await kv.getMany<null[]>(
        part.map((hash) => keys.analyticsVisitor(day, hash)),
      );
      const fresh = markers.filter((marker) => marker.versionstamp === null);
      if (fresh.length === 0) return 0;
      const op = kv.atomic();
      for (const marker of fresh) {
        op.check(marker).set(marker.key, null, { expireIn: VISITOR_DATA_TTL_MS });
      }
      op.sum(keys.analyticsDayTotal(day, "uniques"), BigInt(fresh.length))
        .sum(keys.analyticsDayTotal(day, "writes"), 1n).sum(keys.analyticsWrites(), 1n);
      return (await op.commit()).ok ? fresh.length : undefined;
    });
  }
  return added;
}

/**
 * The visitor that counts for `visitor` (a keyed hash of address and user agent) from `network` (a
 * keyed hash of the address, or of its IPv6 /64): itself when it is among the first `limit`
 * visitors admitted from that network that day, else the network as one shared visitor, so rotating
 * user agents from one address cannot mint visitors without end. With `unique`, it is also counted
 * among the day's unique visitors, once, whichever process sees it first. Admission is one atomic
 * write that checks the network's count, so processes sharing the database never admit more than
 * `limit` between them. The marker says whether the visitor was counted as unique (API callers are
 * admitted without being counted; the salt's own markers, `null`, were).
 */
export function claimVisitor(
  kv: Deno.Kv,
  day: string,
  visitor: { hash: string; network: string },
  limit: number,
  unique: boolean,
): Promise<string> {
  const markerKey = keys.analyticsVisitor(day, visitor.hash);
  const networkKey = keys.analyticsNetwork(day, visitor.network);
  const ttl = { expireIn: VISITOR_DATA_TTL_MS };
  return retrying(async () => {
    const [marker, network] = await kv.getMany<[boolean | null, number]>([markerKey, networkKey]);
    const admitted = network.value ?? 0;
    if (marker.versionstamp !== null || admitted < limit) {
      const counted = marker.versionstamp !== null && marker.value !== false;
      if (marker.versionstamp !== null && (counted || !unique)) return visitor.hash;
      const op = kv.atomic().check(marker, network).set(markerKey, unique, ttl);
      if (marker.versionstamp === null) op.set(networkKey, admitted + 1, ttl);
      if (unique) {
        op.sum(keys.analyticsDayTotal(day, "uniques"), 1n)
          .sum(keys.analyticsDayTotal(day, "writes"), 1n).sum(keys.analyticsWrites(), 1n);
      }
      return (await op.commit()).ok ? visitor.hash : undefined;
    }
    if (unique) await recordVisitors(kv, day, [visitor.network]);
    return visitor.network;
  });
}

/** One visitor's view or click of a job, to be counted once a day. */
export interface Engagement {
  visitor: string;
  kind: CountKind;
  ref: JobRef;
  /** For a view: where it came from, as the job's sources keep it. */
  source?: string;
}

/**
 * Counts the views and clicks not yet counted that day: each one's marker is claimed with a check
 * in the same write that adds to the job's counts, so a visitor who views a job a thousand times,
 * through any number of processes, counts once. Returns how many were new.
 */
export async function recordEngagements(
  kv: Deno.Kv,
  day: string,
  engagements: Engagement[],
): Promise<number> {
  let added = 0;
  for (const part of chunk(engagements, VISITORS_PER_WRITE)) {
    added += await retrying(async () => {
      const markers = await kv.getMany<null[]>(
        part.map(({ visitor, kind, ref }) => keys.analyticsSeen(day, visitor, kind, ref._id)),
      );
      const fresh = part.filter((_, i) => markers[i].versionstamp === null);
      if (fresh.length === 0) return 0;
      const op = kv.atomic();
      const totals = new Map<string, number>();
      const companies = { views: new Map<string, number>(), clicks: new Map<string, number>() };
      markers.forEach((marker, i) => {
        if (marker.versionstamp !== null) return;
        const { kind, ref, source } = part[i];
        op.check(marker).set(marker.key, null, { expireIn: VISITOR_DATA_TTL_MS })
          .sum(keys.analyticsJobDay(day, ref._id, kind), 1n)
          .sum(keys.jobCounter(ref._id, kind), 1n)
          .set(keys.analyticsJob(ref._id), storedJobRef(ref));
        if (source) op.sum(keys.analyticsJobSource(ref._id, day, source), 1n);
        addTo(totals, kind, 1);
        addTo(companies[kind], ref.companyName, 1);
      });
      addSums(op, day, companies, totals);
      return (await op.commit()).ok ? fresh.length : undefined;
    });
  }
  return added;
}

/** Brings every stored job name to the current version (`deno task db:migrate`). */
export function upgradeJobRefs(kv: Deno.Kv): Promise<UpgradeCount> {
  return upgradeRecords<JobRef>(
    kv,
    keys.analyticsJobs(),
    JOB_REF_SCHEMA_VERSION,
    (ref) => ({ value: storedJobRef(ref) }),
  );
}
