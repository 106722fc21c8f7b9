/** What the insight screens share: a table of names and counts, and a bar chart of the largest. */
import { BarChart } from "../lazy-charts.tsx";
import { formatNumber } from "../ui.tsx";
import { ScrollTable } from "./table.tsx";
import { ChartCard } from "./traffic.tsx";

/** Rows the bar charts draw; the tables list every row. */
const CHART_ROWS = 10;
/** Characters of a name a bar's label shows: the table beside it has the whole name. */
const LABEL_CHARS = 24;

const shortName = (name: string) => {
  const chars = Array.from(name);
  return chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join("")}…` : name;
};

export interface CountRow {
  name: string;
  counts: number[];
}

/** A card with a table of names and counts, with each row's share of `total` when given. */
export function CountTable({ title, headings, rows, total, empty = "No data for this period." }: {
  title: string;
  /** The name column's heading, then one for each count. */
  headings: string[];
  rows: CountRow[];
  /** With it, a last column gives the first count's share of it. */
  total?: number;
  empty?: string;
}) {
  const columns = headings.length + (total === undefined ? 0 : 1);
  return (
    <section className="card">
      <h2 className="px-5 pt-5 font-semibold">{title}</h2>
      <ScrollTable
        label={title}
        className="mt-3 w-full"
        headings={total === undefined ? headings : [...headings, "Share"]}
      >
        {rows.length === 0 && (
          <tr>
            <td colSpan={columns} className="px-4 py-8 text-center text-slate-600">{empty}</td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={row.name} className="border-t border-slate-100">
            <td className="px-4 py-3 break-all">{row.name}</td>
            {row.counts.map((count, index) => (
              <td key={index} className="px-4 py-3 tabular-nums">{formatNumber(count)}</td>
            ))}
            {total !== undefined && (
              <td className="px-4 py-3 tabular-nums">
                {total > 0 ? `${Math.round((row.counts[0] / total) * 100)}%` : "—"}
              </td>
            )}
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}

/** The first rows (by their first count) as horizontal bars, so the largest read at a glance. */
export function TopBars(
  { title, label, series, colour, rows, empty = "No data for this period." }: {
    title: string;
    /** What a screen reader hears instead of the drawing. */
    label: string;
    series: string;
    colour: string;
    rows: CountRow[];
    /** What the card says without rows. */
    empty?: string;
  },
) {
  const shown = rows.slice(0, CHART_ROWS);
  return (
    <ChartCard title={title}>
      {shown.length === 0 ? <p className="py-8 text-center text-slate-600">{empty}</p> : (
        <BarChart
          horizontal
          label={label}
          labels={shown.map((row) => shortName(row.name))}
          series={[{ label: series, data: shown.map((row) => row.counts[0]), colour }]}
        />
      )}
    </ChartCard>
  );
}
