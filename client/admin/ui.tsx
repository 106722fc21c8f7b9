/** Small pieces every admin screen shares: dialogs, badges, skeletons, pagination, formatting. */
import {
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
} from "react";
import { ANALYTICS_PERIODS } from "../../kv/constants.ts";
import { CompanyLogo } from "../components/company-logo.tsx";
import { formatShortDate } from "../components/dates.ts";
import { ApiError } from "./api.ts";
import { SelectField } from "./components/form.tsx";
import { TOAST_TOP_PX } from "./toaster.tsx";
import type { Pagination } from "./types.ts";

const whole = new Intl.NumberFormat("en-US");

/** The meta element of the shell (routes/admin.tsx) that names the site's time zone. */
export const TIME_ZONE_META = "site-time-zone";
let timeZone: string | undefined;

/** The site's time zone, named by the shell (routes/admin.tsx): the portal shows dates in it. */
export function siteTimeZone(): string {
  return timeZone ??= globalThis.document
    ?.querySelector<HTMLMetaElement>(`meta[name="${TIME_ZONE_META}"]`)?.content ?? "UTC";
}

/**
 * A date in the short en-US form lists use, as the calendar day in the site's time zone: the day
 * the public pages and the analytics give it too.
 */
export function formatDate(iso: string | null | undefined): string {
  return iso ? formatShortDate(iso, siteTimeZone()) : "—";
}

export function formatNumber(value: number | undefined): string {
  return whole.format(value ?? 0);
}

/** "1 job", "2 jobs": a count with its noun, singular for one. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${formatNumber(count)} ${count === 1 ? noun : nouns}`;
}

export function formatRate(value: number | undefined): string {
  return `${(value ?? 0).toFixed(2)}%`;
}

/** The company's logo in the admin's lists (40 px) and dialogs (56 px), over its two initials. */
export function AdminCompanyLogo(
  { name, logo, size = 40 }: { name: string; logo?: string; size?: 40 | 56 },
) {
  return (
    <CompanyLogo
      name={name}
      logo={logo}
      size={size}
      letters={2}
      className={`${
        size === 40 ? "size-10" : "size-14"
      } shrink-0 overflow-hidden rounded-lg text-sm font-semibold [&>img]:rounded-lg [&>img]:border [&>img]:border-slate-200`}
    />
  );
}

const STATUS_BADGES = {
  active: ["Active", "bg-green-100 text-green-800"],
  dump: ["Dump", "bg-yellow-100 text-yellow-800"],
  inactive: ["Inactive", "bg-slate-200 text-slate-700"],
  draft: ["Draft", "bg-indigo-100 text-indigo-800"],
} as const;

/** Active, Dump, Inactive or Draft; any unknown status shows as Inactive. */
export function StatusBadge({ status }: { status: string }) {
  const [label, colours] = STATUS_BADGES[status as keyof typeof STATUS_BADGES] ??
    STATUS_BADGES.inactive;
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${colours}`}>
      {label}
    </span>
  );
}

/** Green above 5, yellow above 2, red otherwise. */
export function ConversionBadge({ rate }: { rate: number }) {
  const colours = rate > 5
    ? "bg-green-100 text-green-800"
    : rate > 2
    ? "bg-yellow-100 text-yellow-800"
    : "bg-red-100 text-red-800";
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${colours}`}>
      {formatRate(rate)}
    </span>
  );
}

/**
 * A grey block pulsing where something is loading. With `label` it tells assistive technology what
 * is loading, as the public site's skeletons do; without, it is hidden from it (the cells of the
 * placeholder rows below).
 */
export function Skeleton({ className, label }: { className: string; label?: string }) {
  const look = `block animate-pulse rounded bg-slate-200 ${className}`;
  return label
    ? <span role="status" aria-label={label} className={look} />
    : <span aria-hidden="true" className={look} />;
}

/** Five placeholder rows while a table loads. */
export function SkeletonRows({ columns }: { columns: number }) {
  return (
    <>
      {Array.from(
        { length: 5 },
        (_, row) => (
          <tr key={row} data-skeleton="" className="border-t border-slate-100">
            {Array.from({ length: columns }, (_, cell) => (
              <td key={cell} className="px-4 py-4">
                <Skeleton className="h-4 w-full" />
              </td>
            ))}
          </tr>
        ),
      )}
    </>
  );
}

/**
 * A modal on the platform's `<dialog>`: showModal() makes the rest of the page inert, so focus stays
 * inside. Escape asks the owner to close rather than closing the element itself, so the owner's
 * state stays the one truth: a dialog the browser closed while the state still said open could not
 * be reopened for the same item until the late `close` event cleared it.
 */
export function Dialog({ open, onClose, title, children, wide = false, drawer = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  wide?: boolean;
  /** A panel sliding in from the left edge at full height (the small-screen navigation). */
  drawer?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        // The close event comes some time after the dialog closed: by then it may be open again
        // (reopened at once on a busy machine), and that later opening is the one that counts.
        if (open && !ref.current?.open) onClose();
      }}
      className={drawer
        ? "m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
        : `m-auto w-[calc(100%-2rem)] ${
          wide ? "max-w-3xl" : "max-w-md"
        } rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50`}
    >
      {open && drawer && (
        <div className="flex h-full flex-col overflow-y-auto">
          <h2 id={titleId} className="sr-only">{title}</h2>
          {children}
        </div>
      )}
      {open && !drawer && (
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <h2 id={titleId} className="text-lg font-semibold">{title}</h2>
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog(
  { open, title, message, confirmLabel, busy, onConfirm, onClose, children }: {
    open: boolean;
    title: string;
    message: string;
    confirmLabel: string;
    busy?: boolean;
    onConfirm: () => void;
    onClose: () => void;
    /** What exactly the action touches, shown above the message. */
    children?: ReactNode;
  },
) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {children}
      <p className="text-sm text-slate-600">{message}</p>
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onClose}>Cancel</button>
        <button type="button" className="btn-danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** 'Showing X to Y of N jobs', 'Page p of n', Previous and Next by hasPrev and hasNext. */
export function PaginationBar({ pagination, onPage, noun = "job", compact = false }: {
  pagination: Pagination;
  onPage: (page: number) => void;
  /** What is counted, in the singular. */
  noun?: string;
  /** The dump screen's form: 'Showing x-y of total'. */
  compact?: boolean;
}) {
  const { currentPage, totalJobs, totalPages, hasPrev, hasNext, limit } = pagination;
  const first = totalJobs === 0 ? 0 : (currentPage - 1) * limit + 1;
  const last = Math.min(currentPage * limit, totalJobs);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600"
    >
      <p>
        {compact
          ? `Showing ${first}-${last} of ${totalJobs}`
          : `Showing ${first} to ${last} of ${plural(totalJobs, noun)}`}
      </p>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={!hasPrev}
          onClick={() => onPage(currentPage - 1)}
        >
          Previous
        </button>
        <span>Page {currentPage} of {Math.max(totalPages, 1)}</span>
        <button
          type="button"
          className="btn-secondary"
          disabled={!hasNext}
          onClick={() => onPage(currentPage + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}

/**
 * A page past the end (the last job of the last page deleted, or an old link) shows the last page
 * instead of an empty one.
 */
export function useLastPage(
  pagination: { currentPage: number; totalPages: number } | undefined,
  goTo: (page: number) => void,
) {
  const last = Math.max(pagination?.totalPages ?? 1, 1);
  const beyond = pagination !== undefined && pagination.currentPage > last;
  useEffect(() => {
    if (beyond) goTo(last);
  }, [beyond, last]);
}

const PERIOD_OPTIONS = ANALYTICS_PERIODS.map((period) =>
  [String(period), `Last ${period} days`] as const
);

/** Last 7, 30 or 90 days. */
export function PeriodSelect(
  { days, onChange }: { days: number; onChange: (days: number) => void },
) {
  return (
    <SelectField
      inline
      label="Period"
      error={undefined}
      value={String(days)}
      onChange={(value) => onChange(Number(value))}
      options={PERIOD_OPTIONS}
    />
  );
}

/**
 * Where a screen's data would be when loading it failed, so a failure never reads as "nothing
 * here": a refusal says the account lacks access (with the server's reason), any other failure
 * offers Retry.
 */
export function LoadFailed({ error, what, onRetry }: {
  error: unknown;
  /** What did not load, such as "the jobs". */
  what: string;
  onRetry: () => void;
}) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <div role="status" className="px-4 py-12 text-center">
        <p className="font-medium text-slate-900">You don't have access to {what}</p>
        {error.message && <p className="mt-1 text-slate-600">{error.message}</p>}
      </div>
    );
  }
  return (
    <div role="alert" className="px-4 py-12 text-center">
      <p className="font-medium text-slate-900">Could not load {what}</p>
      <p className="mt-1 text-slate-600">
        {error instanceof ApiError && error.message ? error.message : "Something went wrong."}
      </p>
      <button type="button" className="btn-secondary mt-4" onClick={onRetry}>Retry</button>
    </div>
  );
}

export function AccessDenied({ reason }: { reason: string }) {
  return (
    <section className="mx-auto mt-16 max-w-md rounded-xl border border-red-200 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold text-red-700">Access Denied</h1>
      <p className="mt-2 text-slate-600">{reason}</p>
    </section>
  );
}

const toastTop = { px: TOAST_TOP_PX, listeners: new Set<() => void>() };

function setToastTop(px: number) {
  toastTop.px = px;
  for (const listener of toastTop.listeners) listener();
}

/**
 * How far from the top of the window toasts start: below the screen header's buttons, so a toast
 * never covers (and swallows clicks on) Export, Add Admin, Bulk Actions and the like.
 */
export function useToastTop(): number {
  const px = () => toastTop.px;
  // The third argument serves hydration: without it React gives up on the server's markup (error
  // #423) and renders the whole root afresh.
  return useSyncExternalStore(
    (listener) => {
      toastTop.listeners.add(listener);
      return () => toastTop.listeners.delete(listener);
    },
    px,
    px,
  );
}

/** The screen's heading, which also names the browser tab (one page title per screen). */
export function PageHeader({ title, tabTitle = title, subtitle, children }: {
  title: string;
  /** The browser tab's name, where the heading is a sentence (the dashboard's greeting). */
  tabTitle?: string;
  subtitle?: string;
  children?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${tabTitle} · CareerEdge Admin`;
  }, [tabTitle]);
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const header = ref.current!;
    const place = () => setToastTop(Math.round(header.getBoundingClientRect().bottom + scrollY));
    const observer = new ResizeObserver(place);
    observer.observe(header);
    return () => {
      observer.disconnect();
      setToastTop(TOAST_TOP_PX);
    };
  }, []);
  return (
    <header ref={ref} className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
      </div>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </header>
  );
}

export function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5">
      <p className="text-sm text-slate-600">{label}</p>
      {value === undefined
        ? <Skeleton className="mt-2 h-8 w-24" label={`Loading ${label}`} />
        : <p className="mt-1 text-2xl font-bold text-slate-900">{formatNumber(value)}</p>}
    </div>
  );
}

/** A stroked 24-pixel icon beside a text label or inside a labelled button. */
export function Icon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" aria-hidden="true">
      <path
        d={path}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * A row of tabs after the WAI-ARIA tabs pattern: one Tab stop (the selected tab), arrow keys, Home
 * and End move between tabs and select the one reached.
 */
export function Tabs<T extends string>(
  { label, tabs, selected, onSelect, tabId, panelId, className }: {
    label: string;
    tabs: readonly { id: T; label: ReactNode }[];
    selected: T;
    onSelect: (id: T) => void;
    /** The element id of a tab, for the panel's aria-labelledby. */
    tabId?: (id: T) => string;
    /** The id of the panel a tab shows. */
    panelId?: (id: T) => string;
    className?: string;
  },
) {
  const moveFrom = (index: number, key: string): number | null => {
    if (key === "ArrowRight") return (index + 1) % tabs.length;
    if (key === "ArrowLeft") return (index - 1 + tabs.length) % tabs.length;
    if (key === "Home") return 0;
    if (key === "End") return tabs.length - 1;
    return null;
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      className={`flex flex-wrap border-b border-slate-200 ${className ?? ""}`}
    >
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          id={tabId?.(tab.id)}
          aria-controls={panelId?.(tab.id)}
          aria-selected={tab.id === selected}
          tabIndex={tab.id === selected ? 0 : -1}
          className="tab"
          onClick={() => onSelect(tab.id)}
          onKeyDown={(event) => {
            const next = moveFrom(index, event.key);
            if (next === null) return;
            event.preventDefault();
            const buttons = event.currentTarget.parentElement!.querySelectorAll<HTMLElement>(
              '[role="tab"]',
            );
            buttons[next].focus();
            onSelect(tabs[next].id);
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
