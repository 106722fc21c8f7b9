/**
 * `/api/analytics`: the traffic reports. Every call needs canViewAnalytics (a main admin always
 * has it) except the dashboard's, which every admin may make, as every admin sees the dashboard.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { requireAdmin } from "../../server/auth.ts";
import { parseQuery, wholeNumber } from "../../server/validate.ts";
import {
  type AnalyticsExport,
  INSIGHT_LIST_NAMES,
  jobRef,
  type SearchesReport,
  type SourcesReport,
} from "../../kv/analytics/types.ts";
import { fail } from "../../server/errors.ts";
import { FORMULA_START } from "../../kv/jobs/csv.ts";
import {
  DEFAULT_ANALYTICS_PERIOD,
  INSIGHT_LIST_LIMIT,
  MAX_REPORT_DAYS,
  TOP_LIST_LIMIT,
} from "../../kv/constants.ts";

const days = wholeNumber(1, MAX_REPORT_DAYS, DEFAULT_ANALYTICS_PERIOD);
const limit = wholeNumber(1, 100, TOP_LIST_LIMIT);

const periodQuery = z.object({ days });
const topQuery = z.object({ days, limit });
const insightQuery = z.object({ days, limit: wholeNumber(1, 100, INSIGHT_LIST_LIMIT) });
const exportQuery = z.object({
  days,
  limit,
  format: z.enum(["csv", "json"], { error: "must be csv or json" }).default("json"),
});

export function analyticsRoutes(services: Services) {
  const { reports, insight } = services;
  const canView = requireAdmin(services, "canViewAnalytics");
  const app = new Hono<AppEnv>();

  app.get("/dashboard", requireAdmin(services), async (c) => {
    return c.json(await reports.dashboard(parseQuery(c, periodQuery).days));
  });

  app.get("/dashboard/summary", requireAdmin(services), async (c) => {
    return c.json(await reports.dashboardSummary(parseQuery(c, periodQuery).days));
  });

  app.get("/overview", canView, async (c) => {
    return c.json(await reports.overview(parseQuery(c, periodQuery).days));
  });

  app.get("/jobs", canView, async (c) => {
    const query = parseQuery(c, topQuery);
    return c.json({ jobs: await reports.topJobs(query.days, query.limit) });
  });

  app.get("/jobs/:id", canView, async (c) => {
    const query = parseQuery(c, periodQuery);
    const job = await services.jobs.get(c.req.param("id"));
    if (!job) fail(404, "Job not found");
    return c.json(await insight.job({ ...jobRef(job), status: job.status }, query.days));
  });

  for (const list of INSIGHT_LIST_NAMES) {
    app.get(`/${list}`, canView, async (c) => {
      const query = parseQuery(c, insightQuery);
      return c.json(await insight[list](query.days, query.limit));
    });
  }

  app.get("/companies", canView, async (c) => {
    const query = parseQuery(c, topQuery);
    return c.json({ companies: await reports.topCompanies(query.days, query.limit) });
  });

  app.get("/trends", canView, async (c) => {
    return c.json(await reports.trends(parseQuery(c, periodQuery).days));
  });

  app.get("/export", canView, async (c) => {
    const query = parseQuery(c, exportQuery);
    const [base, sources, searches] = await Promise.all([
      reports.exportData(query.days, query.limit),
      insight.sources(query.days, query.limit),
      insight.searches(query.days, query.limit),
    ]);
    const jobSources = await Promise.all(base.topJobs.map(async (job) => ({
      jobId: job.jobId,
      role: job.role,
      sources: (await insight.job({ ...job, status: "" }, query.days)).sources,
    })));
    const data: FullExport = { ...base, jobSources, sources, searches };
    const name = `analytics-${query.days}days.${query.format}`;
    const body = query.format === "csv"
      ? `${CSV_BOM}${exportCsv(data)}`
      : JSON.stringify(data, null, 2);
    return c.body(body, 200, {
      "content-type": query.format === "csv"
        ? "text/csv; charset=utf-8; header=present"
        : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    });
  });

  return app;
}

/**
 * What every CSV file the portal gives begins with: the byte-order mark, without which Excel reads
 * the UTF-8 as another encoding (₹ and Zürich garbled, Hindi unreadable).
 */
export const CSV_BOM = "\uFEFF";

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would read as a formula (it begins with =, +,
 * -, @, a tab or a carriage return) is prefixed with an apostrophe so it stays text (OWASP).
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRows(rows: (string | number)[][]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n");
}

/** The export: the traffic reports, the top jobs' sources, the site's sources and searches. */
export interface FullExport extends AnalyticsExport {
  jobSources: { jobId: string; role: string; sources: { source: string; views: number }[] }[];
  sources: SourcesReport;
  searches: SearchesReport;
}

/**
 * The export as one CSV file: a title row, then summary, daily, top jobs, top companies, the top
 * jobs' sources, traffic sources and search terms.
 */
export function exportCsv(data: FullExport): string {
  const sections: (string | number)[][][] = [
    [["CareerEdge analytics", `Last ${data.days} days`, data.from, data.to]],
    [
      ["Summary"],
      [
        "totalVisits",
        "totalUniqueVisitors",
        "totalJobViews",
        "totalJobClicks",
        "conversionRate",
        "avgDailyVisits",
        "avgDailyUniqueVisitors",
        "avgDailyJobViews",
      ],
      [
        data.totals.totalVisits,
        data.totals.totalUniqueVisitors,
        data.totals.totalJobViews,
        data.totals.totalJobClicks,
        data.totals.conversionRate,
        data.summary.avgDailyVisits,
        data.summary.avgDailyUniqueVisitors,
        data.summary.avgDailyJobViews,
      ],
    ],
    [
      ["Daily"],
      [
        "date",
        "websiteVisits",
        "uniqueVisitors",
        "jobViews",
        "jobClicks",
        "desktop",
        "mobile",
        "tablet",
        "chrome",
        "firefox",
        "safari",
        "edge",
        "others",
      ],
      ...data.daily.map((day) => [
        day.date,
        day.websiteVisits,
        day.uniqueVisitors,
        day.totalJobViews,
        day.totalJobClicks,
        day.deviceInfo.desktop,
        day.deviceInfo.mobile,
        day.deviceInfo.tablet,
        day.browserInfo.chrome,
        day.browserInfo.firefox,
        day.browserInfo.safari,
        day.browserInfo.edge,
        day.browserInfo.others,
      ]),
    ],
    [
      ["Top jobs"],
      ["jobId", "role", "companyName", "views", "clicks", "conversionRate"],
      ...data.topJobs.map((job) => [
        job.jobId,
        job.role,
        job.companyName,
        job.views,
        job.clicks,
        job.conversionRate,
      ]),
    ],
    [
      ["Top companies"],
      ["company", "views", "clicks", "conversionRate"],
      ...data.topCompanies.map((row) => [row.company, row.views, row.clicks, row.conversionRate]),
    ],
    [
      ["Top jobs by source"],
      ["jobId", "role", "source", "views"],
      ...data.jobSources.flatMap((job) =>
        job.sources.map((row) => [job.jobId, job.role, row.source, row.views])
      ),
    ],
    [
      ["Traffic sources"],
      ["dimension", "value", "visits"],
      ...data.sources.sources.map((row) => ["source", row.source, row.visits]),
      ...data.sources.utmSources.map((row) => ["utm_source", row.value, row.visits]),
      ...data.sources.utmCampaigns.map((row) => ["utm_campaign", row.value, row.visits]),
    ],
    [
      ["Search terms"],
      ["query", "searches", "results"],
      ...data.searches.top.map((row) => [row.query, row.searches, row.results]),
    ],
    [
      ["Searches with no results"],
      ["query", "searches"],
      ...data.searches.zeroResults.map((row) => [row.query, row.searches]),
    ],
  ];
  return sections.map(csvRows).join("\r\n\r\n") + "\r\n";
}
