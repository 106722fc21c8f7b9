/**
 * The analytics budgets. Counting cost: the job detail page's throughput with counting on, as a share
 * of the same page with counting off (a prefetch, which the counter skips), at least 0.8. Report
 * latency: the 90-day top jobs and trends over 90 days of history with 20,000+ jobs that had views,
 * p99 at most 150 ms; the insight reports (one job's days and sources, traffic sources, search terms)
 * over the same 90 days, p99 at most 50 ms.
 */
import type { BenchContext, LoadResult } from "../harness.ts";
import { keys } from "../../../kv/keys.ts";
import { seedAnalyticsHistory } from "../../../kv/demo/analytics-history.ts";
import type { Job } from "../../../kv/schemas.ts";

const HISTORY_DAYS = 90;
/** The budgets ask for 20,000+ jobs that had views. */
const MIN_JOBS_WITH_VIEWS = 20_000;
/** Counting may cost at most a fifth of the page's throughput (a share of at least 0.8). */
const MAX_COUNTING_LOSS_PERCENT = 20;
const REPORT_BUDGET = { maxP99Ms: 150 };
const INSIGHT_BUDGET = { maxP99Ms: 50 };
/** A real browser: wrk sends no user agent, and a request without one is never counted. */
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/**
 * Writes 90 days of history for every job unless an earlier scenario of the run already wrote it
 * (a scenario that only counts a few clicks does not); answers how many jobs had views.
 */
export async function ensureHistory(kvPath: string): Promise<number> {
  using kv = await Deno.openKv(kvPath);
  const withViews = async () => {
    let count = 0;
    for await (const _ of kv.list({ prefix: keys.analyticsJobs() }, { batchSize: 1000 })) count++;
    return count;
  };
  if (await withViews() >= MIN_JOBS_WITH_VIEWS) return await withViews();
  const jobs: Job[] = [];
  for await (const entry of kv.list<Job>({ prefix: keys.jobs() }, { batchSize: 1000 })) {
    jobs.push(entry.value);
  }
  await seedAnalyticsHistory(kv, { now: new Date(), days: HISTORY_DAYS, jobs, timeZone: "UTC" });
  return await withViews();
}

/** Counting off and on in turn, twice, so drift on a shared machine hits both alike. */
async function countingCost(context: BenchContext, name: string, path: string) {
  const on = { headers: { "user-agent": BROWSER } };
  const off = { headers: { "user-agent": BROWSER, "sec-purpose": "prefetch" } };
  const runs: { off: LoadResult[]; on: LoadResult[] } = { off: [], on: [] };
  for (let round = 0; round < 2; round++) {
    runs.off.push(await context.load(path, off));
    runs.on.push(await context.load(path, on));
  }
  const total = (list: LoadResult[]) => list.reduce((sum, run) => sum + run.rps, 0);
  context.row(`${name}, counting off`, runs.off[1]);
  context.row(`${name}, counting on`, runs.on[1]);
  const share = total(runs.on) / total(runs.off);
  context.row(`${name}: throughput lost to counting`, {
    value: (1 - share) * 100,
    unit: "%",
  }, { max: MAX_COUNTING_LOSS_PERCENT });
}

export default async function analytics(context: BenchContext) {
  const started = performance.now();
  const withViews = await ensureHistory(context.kvPath);
  context.row("analytics history: jobs with views in 90 days", {
    value: withViews,
    unit: "jobs",
  });
  context.row("analytics history: written in", {
    value: (performance.now() - started) / 1000,
    unit: "s",
  });
  if (withViews < MIN_JOBS_WITH_VIEWS) {
    throw new Error(`only ${withViews} jobs have views in the history`);
  }

  const page = await fetch(`${context.url}/jobs/${context.sampleJobId}`, { redirect: "manual" });
  await page.body?.cancel();
  if (page.status === 200) {
    await countingCost(context, "GET /jobs/{id} page", `/jobs/${context.sampleJobId}`);
  } else {
    console.log(`  GET /jobs/{id} answered ${page.status}: page counting cost not measured`);
  }
  await countingCost(context, "GET /api/jobs/{id}", `/api/jobs/${context.sampleJobId}`);

  const headers = { authorization: `Bearer ${context.adminToken}` };
  const reports: [string, { maxP99Ms: number }][] = [
    ["/api/analytics/jobs?days=90", REPORT_BUDGET],
    ["/api/analytics/trends?days=90", REPORT_BUDGET],
    ["/api/analytics/companies?days=90", REPORT_BUDGET],
    [`/api/analytics/jobs/${context.sampleJobId}?days=90`, INSIGHT_BUDGET],
    ["/api/analytics/sources?days=90", INSIGHT_BUDGET],
    ["/api/analytics/searches?days=90", INSIGHT_BUDGET],
  ];
  for (const [path, budget] of reports) {
    const response = await fetch(context.url + path, { headers });
    const body = await response.json();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${body.message}`);
    context.row(
      `GET ${path.replace(/jobs\/[^/?]+/, "jobs/{id}")}`,
      await context.load(path, { headers }),
      budget,
    );
  }
}
