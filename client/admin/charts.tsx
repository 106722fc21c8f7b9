/**
 * Every chart of the portal. Only the screens that draw charts import this module, and only through
 * `lazy()`, so chart.js lands in its own chunk and the first screen never downloads it. Charts grow
 * into place, unless the person asked their system for less motion: then they are drawn at once.
 */
import { useMemo, useSyncExternalStore } from "react";
import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Bar, Line, Pie } from "react-chartjs-2";

ChartJS.register(
  ArcElement,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
);

export interface Series {
  label: string;
  data: number[];
  colour: string;
}

interface ChartProps {
  /** What a screen reader hears instead of the drawing. */
  label: string;
  labels: string[];
  series: Series[];
}

const options = {
  responsive: true,
  maintainAspectRatio: false,
  plugins: { legend: { position: "bottom" as const } },
};

const axisOptions = { ...options, scales: { y: { beginAtZero: true } } };

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeToMotion(changed: () => void) {
  const query = matchMedia(REDUCED_MOTION);
  query.addEventListener("change", changed);
  return () => query.removeEventListener("change", changed);
}

/** `chartOptions` as the person's motion setting has them: no animation when they want less. */
function useMotion<T extends object>(chartOptions: T): T | T & { animation: false } {
  const still = useSyncExternalStore(
    subscribeToMotion,
    () => matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
  return useMemo(() => (still ? { ...chartOptions, animation: false } : chartOptions), [
    still,
    chartOptions,
  ]);
}

export function LineChart({ label, labels, series }: ChartProps) {
  return (
    <div className="h-64">
      <Line
        role="img"
        aria-label={label}
        options={useMotion(axisOptions)}
        data={{
          labels,
          datasets: series.map((s) => ({
            label: s.label,
            data: s.data,
            borderColor: s.colour,
            backgroundColor: `${s.colour}33`,
            fill: true,
            tension: 0.3,
          })),
        }}
      />
    </div>
  );
}

/** Bars side by side along the days, or `horizontal`, one a row, for names (sources, terms). */
const horizontalOptions = {
  ...options,
  indexAxis: "y" as const,
  scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
};

export function BarChart({ label, labels, series, horizontal = false }: ChartProps & {
  horizontal?: boolean;
}) {
  return (
    <div className="h-64">
      <Bar
        role="img"
        aria-label={label}
        options={useMotion(horizontal ? horizontalOptions : axisOptions)}
        data={{
          labels,
          datasets: series.map((s) => ({
            label: s.label,
            data: s.data,
            backgroundColor: s.colour,
            ...(horizontal ? { maxBarThickness: 28 } : {}),
          })),
        }}
      />
    </div>
  );
}

export function PieChart({ label, labels, data, colours }: {
  label: string;
  labels: string[];
  data: number[];
  colours: string[];
}) {
  return (
    <div className="h-64">
      <Pie
        role="img"
        aria-label={label}
        options={useMotion(options)}
        data={{ labels, datasets: [{ data, backgroundColor: colours }] }}
      />
    </div>
  );
}
