/** The charts as lazy components: importing this costs nothing until a chart renders. */
import { type ComponentProps, lazy, Suspense } from "react";
import { Skeleton } from "./ui.tsx";

const Line = lazy(() => import("./charts.tsx").then((m) => ({ default: m.LineChart })));
const Bar = lazy(() => import("./charts.tsx").then((m) => ({ default: m.BarChart })));
const Pie = lazy(() => import("./charts.tsx").then((m) => ({ default: m.PieChart })));

const placeholder = <Skeleton className="h-64 w-full" label="Loading chart" />;

export function LineChart(props: ComponentProps<typeof Line>) {
  return (
    <Suspense fallback={placeholder}>
      <Line {...props} />
    </Suspense>
  );
}

export function BarChart(props: ComponentProps<typeof Bar>) {
  return (
    <Suspense fallback={placeholder}>
      <Bar {...props} />
    </Suspense>
  );
}

export function PieChart(props: ComponentProps<typeof Pie>) {
  return (
    <Suspense fallback={placeholder}>
      <Pie {...props} />
    </Suspense>
  );
}

export const CHART_COLOURS = {
  visits: "#4f46e5",
  unique: "#0d9488",
  views: "#2563eb",
  clicks: "#16a34a",
};
