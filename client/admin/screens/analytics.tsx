/** Analytics: cards, six tabs of charts and tables, summary, exports. */
import { useEffect, useState } from "react";
import { getRouteApi } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { BROWSER_NAMES, DEVICE_NAMES } from "../../../kv/constants.ts";
import { adminSettings } from "../settings.ts";
import { saveFile } from "../download.ts";
import { api } from "../api.ts";
import { can, useAdmin } from "../session.ts";
import { queryKeys } from "../queries.ts";
import { PieChart } from "../lazy-charts.tsx";
import { ChartCard, SummaryCards, TrafficCharts } from "../components/traffic.tsx";
import { ScrollTable } from "../components/table.tsx";
import { dayLabel } from "../charts-data.ts";
import {
  AccessDenied,
  ConversionBadge,
  formatNumber,
  formatRate,
  PageHeader,
  PeriodSelect,
  Tabs,
} from "../ui.tsx";
import { INSIGHT_PANELS, type InsightPanel, isInsightList } from "./analytics-insight.tsx";
import type { InsightList, TopCompany, TopJob, Totals, TrendDay, Trends } from "../types.ts";
import { ANALYTICS_TABS, type AnalyticsTab } from "../analytics-tabs.ts";

const route = getRouteApi("/admin/analytics");

const EXPORT_FORMATS = ["json", "csv"] as const;

interface Slice<Key> {
  key: Key;
  label: string;
  colour: string;
}

/** The counter's names, each with its chart colour. */
function slices<Key extends string>(
  names: Record<Key, string>,
  colours: Record<Key, string>,
): Slice<Key>[] {
  return (Object.keys(names) as Key[]).map((key) => ({
    key,
    label: names[key],
    colour: colours[key],
  }));
}

const DEVICE_SLICES = slices(DEVICE_NAMES, {
  desktop: "#4f46e5",
  mobile: "#0d9488",
  tablet: "#f59e0b",
});

const BROWSER_SLICES = slices(BROWSER_NAMES, {
  chrome: "#2563eb",
  firefox: "#ea580c",
  safari: "#0891b2",
  edge: "#16a34a",
  others: "#94a3b8",
});

export function AnalyticsScreen() {
  const admin = useAdmin();
  if (!can(admin, "canViewAnalytics")) {
    return <AccessDenied reason="You don't have permission to view analytics" />;
  }
  return <Reports />;
}

function useReport<T>(report: string, days: number, path: string, limit?: number) {
  return useQuery({
    queryKey: queryKeys.analytics(report, days),
    queryFn: () => api.get<T>(path, { days, limit }),
    placeholderData: keepPreviousData,
  });
}

/** The open tab's insight list, if it shows one; another list's answer never stands in for it. */
function useInsight(list: InsightList | null, days: number) {
  return useQuery({
    queryKey: queryKeys.analytics(list ?? "insight", days),
    queryFn: () => api.get<unknown>(`/analytics/${list}`, { days }),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === list ? previous : undefined,
    enabled: list !== null,
  });
}

/** Every report of the period; an insight list only while its tab is open. */
function useReports(days: number, tab: AnalyticsTab) {
  const { topListLimit } = adminSettings();
  const reports = {
    overview: useReport<Totals>("overview", days, "/analytics/overview"),
    trends: useReport<Trends>("trends", days, "/analytics/trends"),
    jobs: useReport<{ jobs: TopJob[] }>("jobs", days, "/analytics/jobs", topListLimit),
    companies: useReport<{ companies: TopCompany[] }>(
      "companies",
      days,
      "/analytics/companies",
      topListLimit,
    ),
    // Read when their tab is opened: most visits to the screen never look at them.
    insight: useInsight(isInsightList(tab) ? tab : null, days),
  };
  const failed = Object.values(reports).some((report) => report.error);
  useEffect(() => {
    if (failed) toast.error("Error fetching analytics");
  }, [failed]);
  return reports;
}

type ReportQueries = ReturnType<typeof useReports>;

function Reports() {
  const { days, tab } = route.useSearch();
  const navigate = route.useNavigate();
  const reports = useReports(days, tab);
  return (
    <>
      <PageHeader title="Analytics" subtitle="Traffic and job performance">
        <PeriodSelect
          days={days}
          onChange={(next) => navigate({ search: (prev) => ({ ...prev, days: next }) })}
        />
        <ExportButtons days={days} />
      </PageHeader>

      <SummaryCards totals={reports.overview.data} />

      <Tabs
        label="Reports"
        className="mt-6"
        tabs={ANALYTICS_TABS}
        selected={tab}
        onSelect={(id) => navigate({ search: (prev) => ({ ...prev, tab: id }) })}
        tabId={(id) => `tab-${id}`}
        panelId={() => "report-panel"}
      />

      <div role="tabpanel" id="report-panel" aria-labelledby={`tab-${tab}`} className="mt-6">
        <ReportPanel tab={tab} days={days} reports={reports} />
      </div>

      <PerformanceSummary summary={reports.trends.data?.summary} />
    </>
  );
}

function ExportButtons({ days }: { days: number }) {
  const [exporting, setExporting] = useState(false);
  const exportAs = async (format: (typeof EXPORT_FORMATS)[number]) => {
    setExporting(true);
    try {
      saveFile(
        await api.blob("/analytics/export", { days, format }),
        `analytics-${days}days.${format}`,
      );
      toast.success(`Analytics exported as ${format.toUpperCase()}`);
    } catch {
      toast.error("Error exporting analytics");
    } finally {
      setExporting(false);
    }
  };
  return EXPORT_FORMATS.map((format) => (
    <button
      key={format}
      type="button"
      className="btn-secondary"
      disabled={exporting}
      onClick={() => exportAs(format)}
    >
      Export {format.toUpperCase()}
    </button>
  ));
}

/** The open tab's charts or table. */
function ReportPanel(
  { tab, days, reports }: { tab: AnalyticsTab; days: number; reports: ReportQueries },
) {
  const series = reports.trends.data?.trends ?? [];
  const total = (pick: (day: TrendDay) => number) =>
    series.reduce((sum, day) => sum + pick(day), 0);
  switch (tab) {
    case "overview":
      return (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          <TrafficCharts
            days={days}
            daily={series.map((day) => ({
              label: dayLabel(day.date),
              visits: day.websiteVisits,
              unique: day.uniqueVisitors,
              views: day.totalJobViews,
              clicks: day.totalJobClicks,
            }))}
          />
        </div>
      );
    case "jobs":
      return (
        <ReportTable
          title="Top Performing Jobs"
          headings={["Role", "Company", "Views", "Clicks", "Conversion Rate"]}
          rows={(reports.jobs.data?.jobs ?? []).map((job) => ({
            key: job._id,
            cells: [job.role, job.companyName, formatNumber(job.views), formatNumber(job.clicks)],
            rate: job.conversionRate,
          }))}
        />
      );
    case "companies":
      return (
        <ReportTable
          title="Company Performance"
          headings={["Company", "Views", "Clicks", "Conversion Rate"]}
          rows={(reports.companies.data?.companies ?? []).map((company) => ({
            key: company.company,
            cells: [company.company, formatNumber(company.views), formatNumber(company.clicks)],
            rate: company.conversionRate,
          }))}
        />
      );
    case "devices":
      return (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          <PieCard
            title="Devices"
            label={`Visits by device, last ${days} days`}
            slices={DEVICE_SLICES}
            count={(key) => total((day) => day.deviceInfo[key])}
          />
          <PieCard
            title="Browsers"
            label={`Visits by browser, last ${days} days`}
            slices={BROWSER_SLICES}
            count={(key) => total((day) => day.browserInfo[key])}
          />
        </div>
      );
    default: {
      const Panel = INSIGHT_PANELS[tab] as InsightPanel<unknown>;
      return <Panel days={days} report={reports.insight.data} />;
    }
  }
}

function PerformanceSummary({ summary }: { summary: Trends["summary"] | undefined }) {
  return (
    <section className="card mt-6 p-5">
      <h2 className="mb-4 font-semibold">Performance Summary</h2>
      <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 xl:grid-cols-4">
        <SummaryFigure label="Avg. Daily Visits" value={summary?.avgDailyVisits} />
        <SummaryFigure
          label="Avg. Daily Unique Visitors"
          value={summary?.avgDailyUniqueVisitors}
        />
        <SummaryFigure label="Avg. Daily Job Views" value={summary?.avgDailyJobViews} />
        <div>
          <dt className="text-slate-600">Overall Conversion Rate</dt>
          <dd className="mt-1 text-xl font-bold">
            {summary ? formatRate(summary.conversionRate) : "—"}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function PieCard<Key extends string>({ title, label, slices, count }: {
  title: string;
  label: string;
  slices: Slice<Key>[];
  count: (key: Key) => number;
}) {
  return (
    <ChartCard title={title}>
      <PieChart
        label={label}
        labels={slices.map((slice) => slice.label)}
        data={slices.map((slice) => count(slice.key))}
        colours={slices.map((slice) => slice.colour)}
      />
    </ChartCard>
  );
}

function SummaryFigure({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-1 text-xl font-bold">{value === undefined ? "—" : formatNumber(value)}</dd>
    </div>
  );
}

function ReportTable({ title, headings, rows }: {
  title: string;
  headings: string[];
  rows: { key: string; cells: string[]; rate: number }[];
}) {
  return (
    <section className="card">
      <h2 className="px-5 pt-5 font-semibold">{title}</h2>
      <ScrollTable
        label={title}
        className="mt-3 w-full min-w-[36rem]"
        headings={headings}
      >
        {rows.length === 0 && (
          <tr>
            <td colSpan={headings.length} className="px-4 py-8 text-center text-slate-600">
              No data for this period.
            </td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={row.key} className="border-t border-slate-100">
            {row.cells.map((cell, index) => <td key={index} className="px-4 py-3">{cell}</td>)}
            <td className="px-4 py-3">
              <ConversionBadge rate={row.rate} />
            </td>
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}
