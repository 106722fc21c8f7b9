/**
 * The admin tables' frame: a focusable scroll region, so keyboard users can scroll wide tables too.
 * With `stacked`, on smaller screens its rows are cards (`stack-table` in styles.css): give each
 * cell the name of its column as `data-label`.
 */
import type { ReactNode } from "react";
import type { Job } from "../types.ts";
import { AdminCompanyLogo } from "../ui.tsx";

export function ScrollTable({ label, className, headings, leading, stacked, children }: {
  label: string;
  /** Width classes (from the large breakpoint on when `stacked`), written out in full for Tailwind. */
  className: string;
  headings: string[];
  /** A heading cell before the named ones, such as a selection column. */
  leading?: ReactNode;
  /** Rows stack as cards below the large breakpoint, so no column is out of view. */
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`${
        stacked ? "stack-table " : ""
      }overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600`}
    >
      <table className={`${className} text-left text-sm`}>
        <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            {leading}
            {headings.map((heading) => (
              <th key={heading} scope="col" className="px-4 py-3 whitespace-nowrap">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A job's first cell in a table: logo, role, and the detail that table shows under the role. */
export function JobCell({ job, detail }: { job: Job; detail: string }) {
  return (
    <td className="px-4 py-3">
      <div className="flex items-center gap-3">
        <AdminCompanyLogo name={job.companyName} logo={job.companyLogo} />
        <div>
          <p className="font-medium text-slate-900">{job.role}</p>
          <p className="text-xs text-slate-600">{detail}</p>
        </div>
      </div>
    </td>
  );
}
