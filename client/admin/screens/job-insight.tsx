/** One job's insight, reached from Manage Jobs: views and clicks a day, and where views came from. */
import { getRouteApi, Link } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, ApiError } from "../api.ts";
import { can, useAdmin } from "../session.ts";
import { queryKeys } from "../queries.ts";
import { dayLabel } from "../charts-data.ts";
import { CHART_COLOURS, LineChart } from "../lazy-charts.tsx";
import { ChartCard } from "../components/traffic.tsx";
import { CountTable, TopBars } from "../components/insight.tsx";
import {
  AccessDenied,
  formatRate,
  LoadFailed,
  PageHeader,
  PeriodSelect,
  StatCard,
  StatusBadge,
} from "../ui.tsx";
import type { JobInsight } from "../types.ts";
import { useListFrom } from "./job-list-state.ts";

const route = getRouteApi("/admin/jobs/insight/$id");

export function JobInsightScreen() {
  const admin = useAdmin();
  if (!can(admin, "canViewAnalytics")) {
    return <AccessDenied reason="You don't have permission to view analytics" />;
  }
  return <Insight />;
}

function Insight() {
  const { id } = route.useParams();
  const { days } = route.useSearch();
  const navigate = route.useNavigate();
  const listFrom = useListFrom();
  const insight = useQuery({
    queryKey: queryKeys.jobInsight(id, days),
    queryFn: () => api.get<JobInsight>(`/analytics/jobs/${encodeURIComponent(id)}`, { days }),
    placeholderData: keepPreviousData,
  });
  const data = insight.data;
  const back = (
    <Link to="/admin/jobs" search={listFrom} className="btn-secondary">
      Back to Manage Jobs
    </Link>
  );

  if (insight.error instanceof ApiError && insight.error.status === 404) {
    return (
      <>
        <PageHeader title="Job Insight">{back}</PageHeader>
        <section className="card p-8 text-center" role="status">
          <p className="font-medium text-slate-900">Job not found</p>
          <p className="mt-1 text-slate-600">It may have been deleted.</p>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={data ? `Insight: ${data.job.role}` : "Job Insight"}
        subtitle={data ? `${data.job.companyName} · ${data.job.jobId}` : undefined}
      >
        <PeriodSelect
          days={days}
          onChange={(next) => navigate({ search: (prev) => ({ ...prev, days: next }) })}
        />
        {back}
      </PageHeader>
      {insight.error
        ? <LoadFailed error={insight.error} what="this job's insight" onRetry={insight.refetch} />
        : (
          <>
            <section
              aria-label="Summary"
              className="grid grid-cols-1 gap-4 sm:grid-cols-3"
            >
              <StatCard label="Views" value={data?.views} />
              <StatCard label="Apply Clicks" value={data?.clicks} />
              <div className="rounded-xl border border-slate-200 bg-white p-5">
                <p className="text-sm text-slate-600">Conversion Rate</p>
                <p className="mt-1 text-2xl font-bold text-slate-900">
                  {data ? formatRate(data.conversionRate) : "—"}
                </p>
                {data && (
                  <div className="mt-2">
                    <StatusBadge status={data.job.status} />
                  </div>
                )}
              </div>
            </section>
            <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
              <ChartCard title="Views and Clicks per Day">
                <LineChart
                  label={`Views and apply clicks of this job per day, last ${days} days`}
                  labels={(data?.daily ?? []).map((day) => dayLabel(day.date))}
                  series={[
                    {
                      label: "Views",
                      data: (data?.daily ?? []).map((day) => day.views),
                      colour: CHART_COLOURS.views,
                    },
                    {
                      label: "Apply Clicks",
                      data: (data?.daily ?? []).map((day) => day.clicks),
                      colour: CHART_COLOURS.clicks,
                    },
                  ]}
                />
              </ChartCard>
              <TopBars
                title="Where Views Came From"
                label={`Views of this job by source, last ${days} days`}
                series="Views"
                colour={CHART_COLOURS.views}
                rows={sourceRows(data).filter((row) => row.name !== "Not recorded")}
                empty={data?.views
                  ? "No source was recorded for these views: they were counted before sources were kept."
                  : undefined}
              />
              <CountTable
                title="Sources"
                headings={["Source", "Views"]}
                rows={sourceRows(data)}
                total={data?.views}
              />
            </div>
            <p className="mt-4 text-sm text-slate-600">
              A visitor's view counts once a day. "This site" is a view reached from the site's own
              pages (the job list, search results, similar jobs); "Not recorded" are views counted
              before sources were kept.
            </p>
          </>
        )}
    </>
  );
}

/** The views by source, and the views counted before sources were kept, if the period has any. */
function sourceRows(data: JobInsight | undefined) {
  const rows = (data?.sources ?? []).map((row) => ({ name: row.source, counts: [row.views] }));
  const unknown = (data?.views ?? 0) - rows.reduce((sum, row) => sum + row.counts[0], 0);
  return unknown > 0 ? [...rows, { name: "Not recorded", counts: [unknown] }] : rows;
}
