/**
 * The activity log: main admin only; every recorded admin write, newest first, filtered by admin,
 * action and job, page by page, and exported as CSV. `JobHistory` shows one job's records.
 */
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../api.ts";
import { useAdmin } from "../session.ts";
import { ScrollTable } from "../components/table.tsx";
import { SelectField, TextField } from "../components/form.tsx";
import { queryKeys } from "../queries.ts";
import { adminSettings } from "../settings.ts";
import {
  AccessDenied,
  PageHeader,
  PaginationBar,
  siteTimeZone,
  SkeletonRows,
  useLastPage,
} from "../ui.tsx";
import { formatDateTime } from "../../components/dates.ts";
import type { Admin } from "../types.ts";
import { PERMISSION_ENTRIES, type Permissions } from "../../../kv/permissions.ts";
import type { ActivityPage, ActivityRecord } from "../../../kv/activity.ts";

const ACTION_LABELS: Record<ActivityRecord["action"], string> = {
  "job.create": "Job created",
  "job.duplicate": "Job duplicated",
  "job.update": "Job edited",
  "job.status": "Job status changed",
  "job.delete": "Job deleted",
  "jobs.bulk_upload": "Bulk upload",
  "jobs.lifecycle": "Status changes processed",
  "admin.create": "Admin created",
  "admin.activate": "Admin activated",
  "admin.deactivate": "Admin deactivated",
  "admin.permissions": "Permissions changed",
  "admin.two_factor_off": "Two-factor sign-in turned off",
  "admin.delete": "Admin deleted",
  "profile.update": "Profile updated",
  "auth.sign_in": "Signed in",
  "auth.sign_out": "Signed out",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.password_reset": "Password reset by mail",
  "auth.browser_confirmed": "Browser confirmed by mail",
  "settings.update": "Settings changed",
};

interface Filters {
  adminId: string;
  action: string;
  jobId: string;
}

const NO_FILTERS: Filters = { adminId: "", action: "", jobId: "" };

/** One line a person reads for a record's change. */
function describeChange(record: ActivityRecord): string {
  const change = record.change;
  if (!change) return "";
  if (record.action === "admin.permissions") return permissionChange(change);
  if (change.before && change.after && record.action !== "job.delete") {
    const after = change.after as Record<string, unknown>;
    const before = change.before as Record<string, unknown>;
    const fields = Object.keys(after).map((field) =>
      `${field}: ${JSON.stringify(before[field])} → ${JSON.stringify(after[field])}`
    );
    if (change.passwordChanged) fields.push("password changed");
    return fields.join("; ");
  }
  if (change.passwordChanged) return "password changed";
  if (record.action === "job.delete") return "The job as it was is kept in the export";
  return Object.entries(change).map(([key, value]) =>
    `${key}: ${Array.isArray(value) ? value.join(", ") : JSON.stringify(value)}`
  ).join("; ");
}

/** "granted Create Jobs; removed Delete Jobs", from the flags before and after. */
function permissionChange(change: Record<string, unknown>): string {
  const flags = (
    side: unknown,
  ) => ((side as { permissions?: Partial<Permissions> } | undefined)?.permissions ?? {});
  const before = flags(change.before);
  const after = flags(change.after);
  const named = (held: Partial<Permissions>, notHeld: Partial<Permissions>) =>
    PERMISSION_ENTRIES.filter(({ name }) => held[name] && !notHeld[name]).map(({ label }) => label);
  const granted = named(after, before);
  const removed = named(before, after);
  return [
    ...(granted.length ? [`granted ${granted.join(", ")}`] : []),
    ...(removed.length ? [`removed ${removed.join(", ")}`] : []),
  ].join("; ");
}

/** Long values without spaces (a URL) may break anywhere to fit; words do not. */
function ChangeText({ text }: { text: string }) {
  return text ? <span className="min-w-0 wrap-break-word">{text}</span> : null;
}

function ActivityTable({ records, loading, label }: {
  records: ActivityRecord[];
  loading: boolean;
  label: string;
}) {
  return (
    <ScrollTable
      label={label}
      stacked
      className="w-full lg:min-w-[56rem]"
      headings={["When", "Admin", "Action", "Target", "Change", "Address"]}
    >
      {loading ? <SkeletonRows columns={6} /> : records.length === 0
        ? (
          <tr>
            <td colSpan={6} className="px-4 py-8 text-center text-slate-600">
              No activity recorded
            </td>
          </tr>
        )
        : records.map((record) => (
          <tr key={record.id} className="border-t border-slate-100 align-top">
            <td className="px-4 py-3 whitespace-nowrap">
              {formatDateTime(record.at, siteTimeZone())}
            </td>
            <td data-label="Admin" className="px-4 py-3">{record.actor.name}</td>
            <td data-label="Action" className="px-4 py-3">
              {ACTION_LABELS[record.action] ?? record.action}
            </td>
            <td data-label="Target" className="px-4 py-3">
              {record.target && (
                <span>
                  {record.target.label}
                  {record.target.jobId
                    ? <span className="block text-xs text-slate-600">{record.target.jobId}</span>
                    : null}
                </span>
              )}
            </td>
            <td data-label="Change" className="px-4 py-3 lg:max-w-md">
              <ChangeText text={describeChange(record)} />
            </td>
            <td data-label="Address" className="px-4 py-3">{record.address}</td>
          </tr>
        ))}
    </ScrollTable>
  );
}

export function ActivityScreen() {
  const me = useAdmin();
  if (me.role !== "main_admin") {
    return <AccessDenied reason="Only main admin can view the activity log" />;
  }
  return <ActivityLogScreen />;
}

function ActivityLogScreen() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const admins = useQuery({
    queryKey: queryKeys.admins(),
    queryFn: () => api.get<{ admins: Admin[] }>("/admin/all"),
  });
  const jobId = /^JB-\d+$/i.test(filters.jobId.trim()) ? filters.jobId.trim() : "";
  const query = { adminId: filters.adminId, action: filters.action, jobId };
  const log = useQuery({
    queryKey: queryKeys.activity({ ...query, page }),
    queryFn: () =>
      api.get<ActivityPage>("/admin/activity", {
        ...query,
        page,
        limit: adminSettings().activityPageSize,
      }),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (log.error) toast.error("Error fetching the activity log");
  }, [log.error]);
  const change = (name: keyof Filters, value: string) => {
    setFilters({ ...filters, [name]: value });
    setPage(1);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      const blob = await api.blob("/admin/activity", { ...query, format: "csv" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = "activity.csv";
      link.click();
      URL.revokeObjectURL(url);
      toast.success("Activity exported as CSV");
    } catch {
      toast.error("Error exporting the activity log");
    } finally {
      setExporting(false);
    }
  };
  const pagination = log.data?.pagination;
  useLastPage(pagination, setPage);
  return (
    <>
      <PageHeader title="Activity Log" subtitle="Every change an admin made, newest first">
        <button type="button" className="btn-secondary" disabled={exporting} onClick={exportCsv}>
          Export CSV
        </button>
      </PageHeader>
      <div className="mb-4 grid gap-3 sm:grid-cols-3">
        <SelectField
          label="Admin"
          error={undefined}
          value={filters.adminId}
          onChange={(value) => change("adminId", value)}
          placeholder="All admins"
          options={(admins.data?.admins ?? []).map((admin) => [admin._id, admin.username])}
        />
        <SelectField
          label="Action"
          error={undefined}
          value={filters.action}
          onChange={(value) => change("action", value)}
          placeholder="All actions"
          options={Object.entries(ACTION_LABELS)}
        />
        <TextField
          label="Job number"
          error={undefined}
          placeholder="JB-1001"
          value={filters.jobId}
          onChange={(value) => change("jobId", value)}
        />
      </div>
      <div className="card overflow-hidden">
        <ActivityTable
          label="Activity"
          records={log.data?.records ?? []}
          loading={log.isPending}
        />
        {pagination && (
          <PaginationBar
            pagination={{ ...pagination, totalJobs: pagination.totalRecords }}
            onPage={setPage}
            noun="record"
          />
        )}
      </div>
    </>
  );
}

/** A job's history in its detail view: its records, newest first (main admin only). */
export function JobHistory({ jobId }: { jobId: string }) {
  const me = useAdmin();
  const history = useQuery({
    queryKey: queryKeys.activity({ jobId }),
    queryFn: () =>
      api.get<ActivityPage>("/admin/activity", {
        jobId,
        limit: adminSettings().activityPageMax,
      }),
    enabled: me.role === "main_admin",
  });
  if (me.role !== "main_admin") return null;
  return (
    <section aria-label="History" className="mt-6">
      <h3 className="mb-2 text-sm font-semibold text-slate-900">History</h3>
      <ActivityTable
        label="History"
        records={history.data?.records ?? []}
        loading={history.isPending}
      />
    </section>
  );
}
