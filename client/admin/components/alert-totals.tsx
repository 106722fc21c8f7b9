/**
 * The dashboard's Job Alerts card, for the main admin: confirmed alerts now, and mails sent and
 * failed (and alerts confirmed) per day of the period. Totals only: no address is ever shown.
 */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api.ts";
import { queryKeys } from "../queries.ts";
import { formatNumber, LoadFailed } from "../ui.tsx";
import { dayLabel } from "../charts-data.ts";
import type { AlertTotals as Totals } from "../types.ts";

/** Days listed one by one: the latest with any mail. */
const DAYS_LISTED = 7;

export function AlertTotals({ days }: { days: number }) {
  const totals = useQuery({
    queryKey: queryKeys.alertTotals(days),
    queryFn: () => api.get<Totals>("/admin/alerts", { days }),
  });
  const data = totals.data;
  const sum = (field: "sent" | "failed" | "confirmed") =>
    data ? formatNumber(data.days.reduce((total, day) => total + day[field], 0)) : "—";
  const busy = data?.days.filter((day) => day.sent || day.failed || day.confirmed).reverse()
    .slice(0, DAYS_LISTED) ?? [];
  return (
    <section className="card p-5" aria-labelledby="alert-totals-title">
      <h2 id="alert-totals-title" className="mb-4 font-semibold">Job Alerts</h2>
      {totals.error
        ? (
          <LoadFailed
            error={totals.error}
            what="the alert totals"
            onRetry={() => totals.refetch()}
          />
        )
        : (
          <>
            <dl className="space-y-3 text-sm">
              {[
                ["Confirmed alerts", data ? formatNumber(data.confirmed) : "—"],
                [`Mails sent (${days} days)`, sum("sent")],
                [`Sends failed (${days} days)`, sum("failed")],
                [`Alerts confirmed (${days} days)`, sum("confirmed")],
              ].map(([label, value]) => (
                <div key={label} className="flex justify-between">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            {busy.length > 0 && (
              <table className="mt-4 w-full text-sm">
                <caption className="sr-only">Mails per day</caption>
                <thead>
                  <tr className="text-left text-slate-600">
                    <th scope="col" className="font-medium">Day</th>
                    <th scope="col" className="text-right font-medium">Sent</th>
                    <th scope="col" className="text-right font-medium">Failed</th>
                  </tr>
                </thead>
                <tbody>
                  {busy.map((day) => (
                    <tr key={day.day}>
                      <th scope="row" className="text-left font-normal">{dayLabel(day.day)}</th>
                      <td className="text-right">{formatNumber(day.sent)}</td>
                      <td className="text-right">{formatNumber(day.failed)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
    </section>
  );
}
