/** The charts as lazy components: importing this costs nothing until a chart renders. */
import { type ComponentType, lazy, Suspense, useState } from "react";
import { Skeleton } from "./ui.tsx";

type Charts = typeof import("./charts.tsx");

/** The chart code once it has loaded. */
let loaded: Charts | undefined;
const load = () => import("./charts.tsx").then((module) => (loaded = module));

/**
 * Starts loading the chart code (the routes of screens with charts call it), so that on a full
 * load it is in by the time the screen's data is, and the charts render without a skeleton.
 */
export function preloadCharts(): void {
  load().catch(() => {});
}

const placeholder = <Skeleton className="h-64 w-full" label="Loading chart" />;

/**
 * A chart that loads the chart code on its first render. A chart first shown after the code is
 * in renders at once: a lazy component suspends on its first render even then, and React holds
 * a suspended boundary's fallback for at least 300 ms. Each chart keeps the way it started, so
 * the code arriving never makes a mounted chart draw itself again.
 */
function lazyChart<Props extends object>(pick: (charts: Charts) => ComponentType<Props>) {
  const Lazy: ComponentType<Props> = lazy(() =>
    load().then((module) => ({ default: pick(module) }))
  );
  return function Chart(props: Props) {
    const [Loaded] = useState(() => loaded && pick(loaded));
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={placeholder}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

export const LineChart = lazyChart((charts) => charts.LineChart);
export const BarChart = lazyChart((charts) => charts.BarChart);
export const PieChart = lazyChart((charts) => charts.PieChart);

export const CHART_COLOURS = {
  visits: "#4f46e5",
  unique: "#0d9488",
  views: "#2563eb",
  clicks: "#16a34a",
};
