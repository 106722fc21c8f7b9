/** Period maths on fixed data: zero-filled days, averages, conversion rate, ordering, month ends. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { report } from "./fixtures.ts";
import { type DayCounts, emptyDayCounts, recordDay } from "../../kv/analytics/recording.ts";
import { AnalyticsReports } from "../../kv/analytics/reports.ts";
import type {
  Dashboard,
  DashboardSummary,
  JobRef,
  TopCompany,
  TopJob,
  Trends,
} from "../../kv/analytics/types.ts";

const jobs: Record<string, JobRef> = {
  zeta: { _id: "j-zeta", jobId: "JB-1001", role: "Zeta Engineer", companyName: "Zed Co" },
  alphaAcme: { _id: "j-aa", jobId: "JB-1002", role: "Alpha Analyst", companyName: "Acme" },
  alphaBeta: { _id: "j-ab", jobId: "JB-1003", role: "Alpha Analyst", companyName: "Beta Corp" },
  beta: { _id: "j-b", jobId: "JB-1004", role: "Beta Builder", companyName: "Acme" },
  quiet: { _id: "j-q", jobId: "JB-1005", role: "Quiet Role", companyName: "Beta Corp" },
};

/** One day's counts: visits and uniques, and views and clicks per job name above. */
function day(
  visits: number,
  uniques: number,
  counts: Partial<Record<keyof typeof jobs, [views: number, clicks: number]>> = {},
): DayCounts {
  const result = { ...emptyDayCounts(), visits, uniques };
  result.devices.desktop = visits;
  result.browsers.chrome = visits;
  for (const [name, pair] of Object.entries(counts)) {
    const [views, clicks] = pair!;
    const ref = jobs[name as keyof typeof jobs];
    result.jobs.set(ref._id, ref);
    if (views) result.views.set(ref._id, views);
    if (clicks) result.clicks.set(ref._id, clicks);
  }
  return result;
}

Deno.test("a week: zero-filled days, rounded averages, conversion rate, ties broken by name", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const admin = await signIn(t, { permissions: { canViewAnalytics: true } });
  // 2026-02-23 is outside the 7 days ending 2026-03-02; 02-25, 02-27, 02-28 and 03-01 are empty.
  await recordDay(t.kv, "2026-02-23", day(100, 90, { zeta: [50, 50] }));
  await recordDay(t.kv, "2026-02-24", day(10, 5, { zeta: [6, 1], alphaAcme: [2, 0] }));
  await recordDay(t.kv, "2026-02-26", day(7, 4, { zeta: [4, 1], alphaBeta: [5, 1], beta: [3, 0] }));
  await recordDay(
    t.kv,
    "2026-03-02",
    day(8, 3, { alphaAcme: [3, 0], beta: [2, 0], quiet: [0, 1] }),
  );

  const trends = await report<Trends>(t, admin, "/api/analytics/trends?days=7");
  assert.deepEqual(trends.trends.map((d) => [d.date, d.websiteVisits, d.totalJobViews]), [
    ["2026-02-24", 10, 8],
    ["2026-02-25", 0, 0],
    ["2026-02-26", 7, 12],
    ["2026-02-27", 0, 0],
    ["2026-02-28", 0, 0],
    ["2026-03-01", 0, 0],
    ["2026-03-02", 8, 5],
  ]);
  assert.deepEqual(trends.trends[1], {
    date: "2026-02-25",
    websiteVisits: 0,
    uniqueVisitors: 0,
    totalJobViews: 0,
    totalJobClicks: 0,
    deviceInfo: { desktop: 0, mobile: 0, tablet: 0 },
    browserInfo: { chrome: 0, firefox: 0, safari: 0, edge: 0, others: 0 },
  });
  // Visits 25/7 = 3.57, uniques 12/7 = 1.71, views 25/7 = 3.57; clicks 4 of 25 views = 16%.
  assert.deepEqual(trends.summary, {
    avgDailyVisits: 4,
    avgDailyUniqueVisitors: 2,
    avgDailyJobViews: 4,
    conversionRate: 16,
  });

  const overview = await report(t, admin, "/api/analytics/overview?days=7");
  assert.deepEqual(overview, {
    totalVisits: 25,
    totalUniqueVisitors: 12,
    totalJobViews: 25,
    totalJobClicks: 4,
  });

  // Zeta 10 views; Alpha Analyst at Acme, Alpha Analyst at Beta Corp and Beta Builder 5 each
  // (role, then company, decides); Quiet Role has a click but no views.
  const top = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=7");
  assert.deepEqual(top.jobs.map((job) => [job.jobId, job.role, job.companyName, job.views]), [
    ["JB-1001", "Zeta Engineer", "Zed Co", 10],
    ["JB-1002", "Alpha Analyst", "Acme", 5],
    ["JB-1003", "Alpha Analyst", "Beta Corp", 5],
    ["JB-1004", "Beta Builder", "Acme", 5],
    ["JB-1005", "Quiet Role", "Beta Corp", 0],
  ]);
  assert.deepEqual(top.jobs[0], {
    _id: "j-zeta",
    jobId: "JB-1001",
    role: "Zeta Engineer",
    companyName: "Zed Co",
    views: 10,
    clicks: 2,
    conversionRate: 20,
  });
  assert.equal(top.jobs[4].conversionRate, 0, "no views means a rate of 0, not Infinity");
  const two = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=7&limit=2");
  assert.deepEqual(two.jobs.map((job) => job.jobId), ["JB-1001", "JB-1002"]);

  // Acme 10 views (2+3 and 3+2), Zed Co 10, Beta Corp 5: the tie at 10 goes by name.
  const companies = await report<{ companies: TopCompany[] }>(
    t,
    admin,
    "/api/analytics/companies?days=7",
  );
  assert.deepEqual(companies.companies, [
    { company: "Acme", views: 10, clicks: 0, conversionRate: 0 },
    { company: "Zed Co", views: 10, clicks: 2, conversionRate: 20 },
    { company: "Beta Corp", views: 5, clicks: 2, conversionRate: 40 },
  ]);
});

Deno.test("the dashboard: one entry per day, oldest first, lists that add up to the totals", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const admin = await signIn(t);
  await recordDay(t.kv, "2026-02-26", day(7, 4, { zeta: [4, 1], alphaBeta: [5, 2] }));
  await recordDay(t.kv, "2026-03-02", day(8, 3, { alphaAcme: [3, 0] }));
  const dashboard = await report<Dashboard>(t, admin, "/api/analytics/dashboard?days=7");
  assert.equal(dashboard.totalVisits, 15);
  assert.equal(dashboard.totalUniqueVisitors, 7);
  assert.equal(dashboard.totalJobViews, 12);
  assert.equal(dashboard.totalJobClicks, 3);
  assert.equal(dashboard.conversionRate, 25);
  assert.deepEqual(dashboard.dailyAnalytics.map((d) => d.date), [
    "2026-02-24",
    "2026-02-25",
    "2026-02-26",
    "2026-02-27",
    "2026-02-28",
    "2026-03-01",
    "2026-03-02",
  ]);
  const feb26 = dashboard.dailyAnalytics[2];
  assert.equal(feb26.websiteVisits, 7);
  assert.equal(feb26.uniqueVisitors, 4);
  assert.deepEqual(feb26.jobViews, [{ jobId: "j-ab", count: 5 }, { jobId: "j-zeta", count: 4 }]);
  assert.deepEqual(feb26.jobClicks, [{ jobId: "j-ab", count: 2 }, { jobId: "j-zeta", count: 1 }]);
  const empty = dashboard.dailyAnalytics[1];
  assert.deepEqual(empty, {
    date: "2026-02-25",
    websiteVisits: 0,
    uniqueVisitors: 0,
    jobViews: [],
    jobClicks: [],
  });
  const sum = (list: { count: number }[]) => list.reduce((total, entry) => total + entry.count, 0);
  assert.equal(
    dashboard.dailyAnalytics.reduce((total, d) => total + sum(d.jobViews), 0),
    dashboard.totalJobViews,
  );

  // The admin app's dashboard reads the same figures with each day's lists summed.
  const summary = await report<DashboardSummary>(
    t,
    admin,
    "/api/analytics/dashboard/summary?days=7",
  );
  const { dailyAnalytics: _, ...totals } = dashboard;
  const { daily, ...summaryTotals } = summary;
  assert.deepEqual(summaryTotals, totals);
  assert.deepEqual(
    daily,
    dashboard.dailyAnalytics.map((d) => ({
      date: d.date,
      websiteVisits: d.websiteVisits,
      uniqueVisitors: d.uniqueVisitors,
      jobViews: sum(d.jobViews),
      jobClicks: sum(d.jobClicks),
    })),
  );
  assert.deepEqual(daily[2], {
    date: "2026-02-26",
    websiteVisits: 7,
    uniqueVisitors: 4,
    jobViews: 9,
    jobClicks: 3,
  });
});

Deno.test("90 days across month ends: every calendar day once, data on the edges counted", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T23:30:00Z") });
  const admin = await signIn(t, { main: true });
  // The 90 days ending 2026-03-02 start on 2025-12-03.
  await recordDay(t.kv, "2025-12-02", day(1_000, 1_000));
  await recordDay(t.kv, "2025-12-03", day(1, 1, { zeta: [1, 0] }));
  await recordDay(t.kv, "2025-12-31", day(2, 1));
  await recordDay(t.kv, "2026-01-01", day(3, 1));
  await recordDay(t.kv, "2026-02-28", day(4, 1, { beta: [2, 1] }));
  await recordDay(t.kv, "2026-03-01", day(5, 1));
  await recordDay(t.kv, "2026-03-02", day(6, 1, { zeta: [3, 1] }));

  const { trends, summary } = await report<Trends>(t, admin, "/api/analytics/trends?days=90");
  assert.equal(trends.length, 90);
  const expected: string[] = [];
  for (let d = Date.UTC(2025, 11, 3); d <= Date.UTC(2026, 2, 2); d += 86_400_000) {
    expected.push(new Date(d).toISOString().slice(0, 10));
  }
  assert.deepEqual(trends.map((d) => d.date), expected);
  const visits = Object.fromEntries(
    trends.filter((d) => d.websiteVisits).map((d) => [d.date, d.websiteVisits]),
  );
  assert.deepEqual(visits, {
    "2025-12-03": 1,
    "2025-12-31": 2,
    "2026-01-01": 3,
    "2026-02-28": 4,
    "2026-03-01": 5,
    "2026-03-02": 6,
  });
  // 21 visits over 90 days rounds to 0; 6 views and 2 clicks is 33.33%.
  assert.deepEqual(summary, {
    avgDailyVisits: 0,
    avgDailyUniqueVisitors: 0,
    avgDailyJobViews: 0,
    conversionRate: 33.33,
  });
  const top = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=90");
  assert.deepEqual(top.jobs.map((job) => [job.jobId, job.views, job.clicks]), [
    ["JB-1001", 4, 1],
    ["JB-1004", 2, 1],
  ]);
  const week = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=3");
  assert.deepEqual(week.jobs.map((job) => [job.jobId, job.views]), [
    ["JB-1001", 3],
    ["JB-1004", 2],
  ]);
});

Deno.test("reports follow new counts: cached days are checked against every write", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const admin = await signIn(t, { main: true });
  await recordDay(t.kv, "2026-02-27", day(1, 1, { beta: [1, 0] }));
  const before = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=7");
  assert.deepEqual(before.jobs.map((job) => [job.jobId, job.views]), [["JB-1004", 1]]);
  // Another process adding to a past day (a flush just after midnight) must show up.
  await recordDay(t.kv, "2026-02-27", day(0, 0, { beta: [2, 0], zeta: [5, 0] }));
  const after = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=7");
  assert.deepEqual(after.jobs.map((job) => [job.jobId, job.views]), [
    ["JB-1001", 5],
    ["JB-1004", 3],
  ]);
  // Today's counts go on top of the past days' ranking, for jobs it has and jobs new today alike.
  await recordDay(t.kv, "2026-03-02", day(2, 2, { quiet: [7, 1], beta: [1, 0] }));
  const today = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=7");
  assert.deepEqual(today.jobs.map((job) => [job.jobId, job.views, job.clicks]), [
    ["JB-1005", 7, 1],
    ["JB-1001", 5, 0],
    ["JB-1004", 4, 0],
  ]);
});

Deno.test("days and limit must be whole numbers in range; anything else is a 400", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const admin = await signIn(t, { main: true });
  const bad = [
    "/api/analytics/trends?days=0",
    "/api/analytics/trends?days=366",
    "/api/analytics/trends?days=7.5",
    "/api/analytics/trends?days=abc",
    "/api/analytics/trends?days=",
    "/api/analytics/trends?days=-7",
    "/api/analytics/trends?days=1e2",
    "/api/analytics/dashboard?days=400",
    "/api/analytics/overview?days=x",
    "/api/analytics/jobs?limit=0",
    "/api/analytics/jobs?limit=101",
    "/api/analytics/companies?days=30&limit=ten",
    "/api/analytics/export?format=xml",
  ];
  for (const path of bad) {
    const response = await t.app.request(path, { headers: admin.headers });
    assert.equal(response.status, 400, path);
    const body = await response.json();
    assert.match(body.message, /^(days|limit|format): must be /, path);
  }
  const year = await report<Trends>(t, admin, "/api/analytics/trends?days=365");
  assert.equal(year.trends.length, 365);
  const byDefault = await report<Trends>(t, admin, "/api/analytics/trends");
  assert.equal(byDefault.trends.length, 7);
  const hundred = await t.app.request("/api/analytics/jobs?days=1&limit=100", {
    headers: admin.headers,
  });
  assert.equal(hundred.status, 200);
});

Deno.test("a cache that numbered too many names starts afresh and still answers right", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  await recordDay(t.kv, "2026-02-26", day(1, 1, { zeta: [4, 1], beta: [1, 0] }));
  await recordDay(t.kv, "2026-02-27", day(1, 1, { alphaAcme: [3, 0], quiet: [2, 0] }));
  await recordDay(t.kv, "2026-03-02", day(1, 1, { beta: [5, 0] }));
  const reports = new AnalyticsReports(t.kv, "UTC", t.services.now, 2);
  const top = async () => (await reports.topJobs(7, 10)).map((job) => [job.jobId, job.views]);
  const expected = [["JB-1004", 6], ["JB-1001", 4], ["JB-1002", 3], ["JB-1005", 2]];
  assert.deepEqual(await top(), expected);
  // A new count makes the answer stale; the next call numbers names in a new cache.
  await recordDay(t.kv, "2026-03-02", day(0, 0, { quiet: [3, 0] }));
  assert.deepEqual(await top(), [["JB-1004", 6], ["JB-1005", 5], ["JB-1001", 4], ["JB-1002", 3]]);
  assert.deepEqual(
    (await reports.dashboard(7)).dailyAnalytics.at(-1)!.jobViews,
    [{ jobId: "j-b", count: 5 }, { jobId: "j-q", count: 3 }],
  );
});

Deno.test("the admin app's answers come gzipped to a browser that takes gzip; public ones as kept, gzipped once", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const admin = await signIn(t);
  await recordDay(t.kv, "2026-02-26", day(7, 4, { zeta: [4, 1], alphaBeta: [5, 2] }));
  const path = "/api/analytics/dashboard?days=7";
  const plain = await t.app.request(path, { headers: admin.headers });
  assert.equal(plain.headers.get("content-encoding"), null);
  const expected = await plain.json();

  const zipped = await t.app.request(path, {
    headers: { ...admin.headers, "accept-encoding": "gzip, deflate, br" },
  });
  assert.equal(zipped.status, 200);
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.equal(zipped.headers.get("cache-control"), "no-store");
  const text = await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).text();
  assert.deepEqual(JSON.parse(text), expected);

  // A public answer is gzipped as the cache keeps it (once, tests/public/compress_test.ts).
  const publicAnswer = await t.app.request("/api/jobs", { headers: { "accept-encoding": "gzip" } });
  assert.equal(publicAnswer.status, 200);
  assert.equal(publicAnswer.headers.get("content-encoding"), "gzip");
  const publicText = await new Response(
    publicAnswer.body!.pipeThrough(new DecompressionStream("gzip")),
  ).text();
  assert.deepEqual(JSON.parse(publicText), await (await t.app.request("/api/jobs")).json());
});
