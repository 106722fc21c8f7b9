/** The admin tables' frame: a focusable scroll region, so keyboard users can scroll wide tables too. */
import type { ReactNode } from "react";

export function ScrollTable({ label, className, headings, leading, children }: {
  label: string;
  /** Width classes, written out in full so Tailwind finds them. */
  className: string;
  headings: string[];
  /** A heading cell before the named ones, such as a selection column. */
  leading?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <table className={`${className} text-left text-sm`}>
        <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            {leading}
            {headings.map((heading) => (
              <th key={heading} scope="col" className="px-4 py-3">{heading}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
