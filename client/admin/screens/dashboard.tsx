/** The admin dashboard: greeting, period, cards, charts, recent jobs, actions. */
import { useEffect } from "react";
import { getRouteApi, Link } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { can, useAdmin } from "../session.ts";
import { SummaryCards, TrafficCharts } from "../components/traffic.tsx";
import { AlertTotals } from "../components/alert-totals.tsx";
import { dashboardQuery, recentJobsQuery } from "../queries.ts";
import {
  AdminCompanyLogo,
  formatDate,
  formatNumber,
  formatRate,
  LoadFailed,
  PageHeader,
  PeriodSelect,
  plural,
} from "../ui.tsx";
import { dayLabel } from "../charts-data.ts";
import { PERMISSION_ENTRIES, type PermissionPath } from "../../../kv/permissions.ts";
import type { Admin, DashboardSummary } from "../types.ts";

const route = getRouteApi("/admin/dashboard");

export function DashboardScreen() {
  const admin = useAdmin();
  const { days } = route.useSearch();
  const navigate = route.useNavigate();

  const analytics = useQuery({ ...dashboardQuery(days), placeholderData: keepPreviousData });
  // The dashboard's load failures are only logged, as the product says.
  useEffect(() => {
    if (analytics.error) console.error("Dashboard analytics failed", analytics.error);
  }, [analytics.error]);
  const data = analytics.data;
  const traffic = (data?.daily ?? []).map((day) => ({
    label: dayLabel(day.date),
    visits: day.websiteVisits,
    unique: day.uniqueVisitors,
    views: day.jobViews,
    clicks: day.jobClicks,
  }));

  return (
    <>
      <PageHeader
        title={`Welcome back, ${admin.username}!`}
        tabTitle="Dashboard"
        subtitle="Here is what is happening on CareerEdge."
      >
        <PeriodSelect days={days} onChange={(next) => navigate({ search: { days: next } })} />
      </PageHeader>

      {analytics.error && !data
        ? (
          <div className="card">
            <LoadFailed
              error={analytics.error}
              what="the traffic figures"
              onRetry={() => analytics.refetch()}
            />
          </div>
        )
        : (
          <>
            <SummaryCards totals={data} />
            <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
              <TrafficCharts days={days} daily={traffic} />
            </div>
          </>
        )}

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <RecentJobs admin={admin} />
        <div className="space-y-6">
          <QuickActions admin={admin} />
          {admin.role === "main_admin" && <AlertTotals days={days} />}
          <Performance data={data} days={days} />
        </div>
      </div>
    </>
  );
}

/** The newest jobs, each a link to its public page. */
function RecentJobs({ admin }: { admin: Admin }) {
  const recent = useQuery(recentJobsQuery());
  useEffect(() => {
    if (recent.error) console.error("Recent jobs failed", recent.error);
  }, [recent.error]);
  return (
    <section className="card p-5 xl:col-span-2">
      <div className="mb-4 flex items-center justify-between">
        <h2 className="font-semibold">Recent Jobs</h2>
        {can(admin, "canCreateJobs") && (
          <Link to="/admin/jobs" className="text-sm font-medium text-indigo-700">
            View all
          </Link>
        )}
      </div>
      {recent.error && (
        <LoadFailed
          error={recent.error}
          what="the recent jobs"
          onRetry={() => recent.refetch()}
        />
      )}
      {recent.data?.jobs.length === 0 && (
        <p className="text-sm text-slate-600">No jobs posted yet.</p>
      )}
      <ul className="divide-y divide-slate-100">
        {recent.data?.jobs.map((job) => (
          <li key={job._id}>
            <a
              href={`/jobs/${job.jobId}`}
              target="_blank"
              rel="noopener noreferrer"
              className="flex items-center gap-3 py-3 hover:bg-slate-50"
            >
              <AdminCompanyLogo name={job.companyName} logo={job.companyLogo} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-slate-900">{job.role}</span>
                <span className="block truncate text-sm text-slate-600">
                  {job.companyName} · {job.location}
                </span>
              </span>
              <span className="text-right text-xs text-slate-600">
                <span className="block">{plural(job.analytics?.views ?? 0, "view")}</span>
                <span className="block">{formatDate(job.datePosted)}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A card a permission the account holds; an account with none of them gets no empty card. */
function QuickActions({ admin }: { admin: Admin }) {
  const quickActions = PERMISSION_ENTRIES.flatMap(({ name, quickAction }) =>
    quickAction && can(admin, name) ? [quickAction] : []
  );
  if (quickActions.length === 0) return null;
  return (
    <section className="card p-5">
      <h2 className="mb-4 font-semibold">Quick Actions</h2>
      <ul className="space-y-2">
        {quickActions.map(({ to, label, text }) => (
          <QuickAction key={to} to={to} title={label}>
            {text}
          </QuickAction>
        ))}
      </ul>
    </section>
  );
}

function Performance({ data, days }: { data: DashboardSummary | undefined; days: number }) {
  return (
    <section className="card p-5">
      <h2 className="mb-4 font-semibold">Performance</h2>
      <dl className="space-y-3 text-sm">
        <Figure label="Conversion Rate" value={data && formatRate(data.conversionRate)} />
        <Figure
          label="Avg. Daily Visits"
          value={data && formatNumber(Math.round(data.totalVisits / days))}
        />
        <Figure
          label="Avg. Daily Job Views"
          value={data && formatNumber(Math.round(data.totalJobViews / days))}
        />
      </dl>
    </section>
  );
}

function QuickAction({ to, title, children }: {
  to: PermissionPath;
  title: string;
  children: string;
}) {
  return (
    <li>
      <Link to={to} className="block rounded-lg border border-slate-200 p-3 hover:bg-slate-50">
        <span className="block font-medium text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{children}</span>
      </Link>
    </li>
  );
}

function Figure({ label, value }: { label: string; value: string | undefined }) {
  return (
    <div className="flex justify-between">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900">{value ?? "—"}</dd>
    </div>
  );
}
