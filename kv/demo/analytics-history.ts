/**
 * Plausible analytics history for the demo data and the benchmark, written as the traffic counter
 * would have written it day by day.
 */
import pLimit from "p-limit";
import { ATOMIC_MUTATIONS_BUDGET, chunk } from "../atomic.ts";
import { keys } from "../keys.ts";
import { DAY_MS, DAYS_ACTIVE_BEFORE_DUMP } from "../constants.ts";
import type { Job } from "../schemas.ts";
import { addTo, emptyDayCounts, recordDay } from "../analytics/recording.ts";
import { jobRef, storedJobRef } from "../analytics/types.ts";
import { dayOf, periodDays } from "../days.ts";
import { recordDimensions } from "../analytics/dimensions.ts";
import { insightDayRows, searchedTerms } from "./insight-history.ts";

/**
 * Writes under way at once. Each day's keys are its own (the sums they share add up in any order),
 * so days are written side by side: the demo's 90 days are about 1,200 round trips, minutes one
 * after another over a KV 100 ms away (20 s through the tests' KV Connect endpoint, which holds
 * each write about 44 ms).
 */
const WRITES_AT_ONCE = 8;

/** Splits `total` by `shares` in whole numbers that add up to `total`. */
function split<T extends string>(total: number, shares: Record<T, number>): Record<T, number> {
  const names = Object.keys(shares) as T[];
  const result = {} as Record<T, number>;
  let left = total;
  for (const name of names.slice(1)) {
    result[name] = Math.min(left, Math.round(total * shares[name]));
    left -= result[name];
  }
  result[names[0]] = left;
  return result;
}

/**
 * Writes `days` days of plausible history ending on the day of `now`: each job draws views on the
 * days it was open (from its posting until it left the active list), a few jobs draw most of them,
 * 2 to 14 in 100 views turn into clicks, weekends are quieter, and visits, unique visitors, devices
 * and browsers follow the views, as do the visits' sources and the day's searches. For the demo
 * data and the benchmark; meant for an empty database. Pass a seeded `random` for the same history
 * every time.
 */
export async function seedAnalyticsHistory(
  kv: Deno.Kv,
  options: { now: Date; days: number; jobs: Job[]; timeZone: string; random?: () => number },
): Promise<void> {
  const random = options.random ?? Math.random;
  const list = periodDays(dayOf(options.now, options.timeZone), options.days);
  const position = new Map(list.map((day, i) => [day, i]));
  const indexOf = (iso: string) => {
    const day = dayOf(new Date(iso), options.timeZone);
    if (day < list[0]) return 0;
    return position.get(day) ?? list.length - 1;
  };
  const perDay = list.map(() => emptyDayCounts());
  const jobTotals = new Map<string, [number, number]>();
  const visits: number[] = [];
  const inTurn = pLimit(WRITES_AT_ONCE);
  const writes: Promise<unknown>[] = [];

  for (const job of options.jobs) {
    if (dayOf(new Date(job.datePosted), options.timeZone) > list[list.length - 1]) continue;
    const closed = job.status === "active" ? null : job.movedToDumpAt ??
      new Date(Date.parse(job.datePosted) + DAYS_ACTIVE_BEFORE_DUMP * DAY_MS).toISOString();
    if (closed && dayOf(new Date(closed), options.timeZone) < list[0]) continue;
    const first = indexOf(job.datePosted);
    const last = closed ? indexOf(closed) : list.length - 1;
    const appeal = random() ** 3;
    const clickRate = 0.02 + random() * 0.12;
    let views = 0;
    let clicks = 0;
    // Every day it was open: a day with jobs on the board and no job views would read as broken.
    for (let at = first; at <= last; at++) {
      const counts = perDay[at];
      const dayViews = 1 + Math.floor(random() * (2 + 30 * appeal));
      const dayClicks = Math.floor(dayViews * clickRate + random());
      addTo(counts.views, job._id, dayViews);
      addTo(counts.clicks, job._id, dayClicks);
      counts.jobs.set(job._id, jobRef(job));
      views += dayViews;
      clicks += dayClicks;
    }
    jobTotals.set(job._id, [views, clicks]);
  }

  for (const [i, day] of list.entries()) {
    const counts = perDay[i];
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const quiet = weekday === 0 || weekday === 6 ? 0.7 : 1;
    let views = 0;
    for (const amount of counts.views.values()) views += amount;
    counts.visits = Math.round((views * (1.4 + 0.3 * random()) + 150 + 100 * random()) * quiet);
    counts.uniques = Math.round(counts.visits * (0.45 + 0.15 * random()));
    counts.devices = split(counts.visits, {
      desktop: 0,
      mobile: 0.36 + 0.06 * random(),
      tablet: 0.07,
    });
    counts.browsers = split(counts.visits, {
      chrome: 0,
      safari: 0.17 + 0.04 * random(),
      firefox: 0.07,
      edge: 0.06,
      others: 0.04,
    });
    visits.push(counts.visits);
    writes.push(inTurn(() => recordDay(kv, day, counts, { refs: false, runningTotals: false })));
  }

  const jobs = new Map(options.jobs.map((job) => [job._id, job]));
  for (const part of chunk([...jobTotals], Math.floor(ATOMIC_MUTATIONS_BUDGET / 3))) {
    const op = kv.atomic();
    for (const [id, [views, clicks]] of part) {
      op.set(keys.analyticsJob(id), storedJobRef(jobRef(jobs.get(id)!)));
      if (views) op.sum(keys.jobCounter(id, "views"), BigInt(views));
      if (clicks) op.sum(keys.jobCounter(id, "clicks"), BigInt(clicks));
    }
    writes.push(inTurn(async () => {
      const result = await op.commit();
      if (!result.ok) throw new Error("seeding job analytics was not committed");
    }));
  }
  // Last, so the numbers drawn above are the same as before sources and searches were kept.
  const terms = searchedTerms(options.jobs);
  for (const [i, day] of list.entries()) {
    const rows = insightDayRows(visits[i], terms, random);
    writes.push(inTurn(() => recordDimensions(kv, day, rows)));
  }
  // Every write ends before a failure is told, so none is still under way after.
  for (const result of await Promise.allSettled(writes)) {
    if (result.status === "rejected") throw result.reason;
  }
}
