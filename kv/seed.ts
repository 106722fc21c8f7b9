/**
 * Seeding: the demo set (kv/demo/) and 90 days of analytics history written into a database, once
 * for a database that never held a job, or again on request.
 */
import { retrying } from "./atomic.ts";
import { keys } from "./keys.ts";
import type { JobStore } from "./jobs/store.ts";
import { seedAnalyticsHistory } from "./demo/analytics-history.ts";
import type { Job } from "./schemas.ts";
import { demoJobs } from "./demo/generate.ts";

/** Days of traffic the demo data fills in before today. */
export const DEMO_ANALYTICS_DAYS = 90;

/** What seeding needs of the app: the database, its clock and time zone, and the job store. */
export interface SeedTarget {
  kv: Deno.Kv;
  now: () => Date;
  jobs: JobStore;
  config: { TIMEZONE: string };
}

/**
 * Writes the demo set and 90 days of analytics history into the database; the jobs' running view
 * and click totals come from that history.
 */
export async function seedDemo(services: SeedTarget): Promise<Job[]> {
  const now = services.now();
  const { lastJobNumber } = await services.jobs.meta();
  const jobs = await services.jobs.importJobs(demoJobs(now, lastJobNumber + 1));
  await seedAnalyticsHistory(services.kv, {
    now,
    days: DEMO_ANALYTICS_DAYS,
    jobs,
    timeZone: services.config.TIMEZONE,
  });
  return jobs;
}

/**
 * Seeds the demo set only into a database that has never held a job (so jobs an admin deleted do
 * not come back at the next start); true when it seeded. The claim is one atomic write, so of
 * several processes starting on one empty database only one seeds.
 */
export async function seedDemoIfEmpty(services: SeedTarget): Promise<boolean> {
  if ((await services.jobs.statusCounts()).all > 0) return false;
  const claimed = await retrying(async () =>
    (await services.kv.atomic()
      .check({ key: keys.demoSeed(), versionstamp: null })
      .check({ key: keys.jobsMeta(), versionstamp: null })
      .set(keys.demoSeed(), services.now().toISOString())
      .commit()).ok
  );
  if (!claimed) return false;
  await seedDemo(services);
  return true;
}
