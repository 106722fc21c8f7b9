/** The summary cards and chart cards that the dashboard and the analytics screen share. */
import type { ReactNode } from "react";
import type { Totals } from "../types.ts";
import { BarChart, CHART_COLOURS, LineChart } from "../lazy-charts.tsx";
import { StatCard } from "../ui.tsx";

export function SummaryCards({ totals }: { totals: Totals | undefined }) {
  return (
    <section
      aria-label="Summary"
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4"
    >
      <StatCard label="Total Website Visits" value={totals?.totalVisits} />
      <StatCard label="Unique Visitors" value={totals?.totalUniqueVisitors} />
      <StatCard label="Job Views" value={totals?.totalJobViews} />
      <StatCard label="Job Clicks" value={totals?.totalJobClicks} />
    </section>
  );
}

export function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-5">
      <h2 className="mb-4 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export interface TrafficDay {
  label: string;
  visits: number;
  unique: number;
  views: number;
  clicks: number;
}

/** Two chart cards, left for the caller's grid to lay out. */
export function TrafficCharts({ days, daily }: { days: number; daily: TrafficDay[] }) {
  const labels = daily.map((day) => day.label);
  return (
    <>
      <ChartCard title="Website Traffic">
        <LineChart
          label={`Website visits and unique visitors per day, last ${days} days`}
          labels={labels}
          series={[
            {
              label: "Website Visits",
              data: daily.map((day) => day.visits),
              colour: CHART_COLOURS.visits,
            },
            {
              label: "Unique Visitors",
              data: daily.map((day) => day.unique),
              colour: CHART_COLOURS.unique,
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Job Engagement">
        <BarChart
          label={`Job views and job clicks per day, last ${days} days`}
          labels={labels}
          series={[
            {
              label: "Job Views",
              data: daily.map((day) => day.views),
              colour: CHART_COLOURS.views,
            },
            {
              label: "Job Clicks",
              data: daily.map((day) => day.clicks),
              colour: CHART_COLOURS.clicks,
            },
          ]}
        />
      </ChartCard>
    </>
  );
}
