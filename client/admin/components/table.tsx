/**
 * The admin tables' frame: a focusable scroll region, so keyboard users can scroll wide tables too.
 * With `stacked`, on smaller screens its rows are cards (`stack-table` in styles.css): give each
 * cell the name of its column as `data-label`.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
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
  const region = useRef<HTMLDivElement>(null);
  const moreToTheRight = useMoreToTheRight(region);
  return (
    <>
      {moreToTheRight && (
        <p className="px-4 pt-2 text-right text-xs font-medium text-indigo-700">
          Scroll sideways for more columns →
        </p>
      )}
      <div className="relative">
        <div
          ref={region}
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
        {moreToTheRight && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 w-10 bg-linear-to-l from-white"
          />
        )}
      </div>
    </>
  );
}

/**
 * Whether a scroll region holds columns beyond its right edge: on a narrow screen the last columns
 * of a wide table would otherwise sit out of view with nothing to say they are there.
 */
function useMoreToTheRight(region: { current: HTMLDivElement | null }): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = region.current!;
    const measure = () =>
      setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);
  return more;
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
