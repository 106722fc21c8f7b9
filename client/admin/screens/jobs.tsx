/**
 * Manage Jobs: status tabs with counts (drafts among them), filters, the table, bulk close, reopen
 * and delete, export.
 */
import { useEffect, useMemo, useState } from "react";
import { getRouteApi, Link } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { can, useAdmin } from "../session.ts";
import { jobListQuery, type JobListSearch } from "../queries.ts";
import { JobDetailsDialog } from "../components/job-details.tsx";
import { DuplicateDialog } from "./duplicate-dialog.tsx";
import { MOVE_BUTTONS, useDuplicate, useJobMoves } from "./job-actions.tsx";
import { JobFilters } from "./job-filters.tsx";
import {
  type JobDeletes,
  listOfRoles,
  type Selection,
  useJobDeletes,
  useJobExport,
  useSelection,
} from "./job-list-state.ts";
import { JobTable } from "./job-table.tsx";
import {
  AccessDenied,
  ConfirmDialog,
  formatNumber,
  LoadFailed,
  PageHeader,
  PaginationBar,
  plural,
  Tabs,
  useLastPage,
} from "../ui.tsx";
import type { Admin, AdminJobList, Job, StatusCounts } from "../types.ts";

const route = getRouteApi("/admin/jobs");

const TABS: { id: keyof StatusCounts; label: string }[] = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "dump", label: "Dump" },
  { id: "inactive", label: "Inactive" },
  { id: "draft", label: "Drafts" },
];

export function JobsScreen() {
  const admin = useAdmin();
  if (!can(admin, "canCreateJobs")) {
    return <AccessDenied reason="You don't have permission to manage jobs" />;
  }
  return <JobsList admin={admin} />;
}

function JobsList({ admin }: { admin: Admin }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const listQuery = jobListQuery(search);
  const list = useQuery({ ...listQuery, placeholderData: keepPreviousData });
  useEffect(() => {
    if (list.error) toast.error("Error fetching jobs");
  }, [list.error]);
  const pagination = list.data?.pagination;
  useLastPage(
    pagination,
    (page) => navigate({ search: (prev) => ({ ...prev, page }), replace: true }),
  );

  const [bulk, setBulk] = useState(false);
  const [openJob, setOpenJob] = useState<Job | null>(null);
  const jobs = useMemo(() => (list.error ? [] : list.data?.jobs ?? []), [list.data, list.error]);
  const selection = useSelection(jobs, JSON.stringify(listQuery.queryKey));
  const moves = useJobMoves(selection.clear);
  const deletes = useJobDeletes(selection);
  const duplicate = useDuplicate();
  const canDelete = can(admin, "canDeleteJobs");
  // One change to the jobs at a time: a move or a delete under way holds the others back.
  const busy = moves.busy || deletes.busy;

  return (
    <>
      <JobsHeader
        search={search}
        bulk={bulk}
        onBulk={() => {
          setBulk(!bulk);
          selection.clear();
        }}
      />
      <StatusTabs
        status={search.status}
        list={list.error ? undefined : list.data}
        onSelect={(id) => {
          selection.clear();
          void navigate({ search: (prev) => ({ ...prev, status: id, page: 1 }) });
        }}
      />
      <JobFilters
        search={search}
        onChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next, page: 1 }), replace: true })}
      />
      {bulk && (
        <BulkBar
          selection={selection}
          canDelete={canDelete}
          busy={busy}
          deleting={deletes.busy}
          onMove={(move) => moves.moveMany(selection.selectedJobs, move)}
          onDelete={deletes.askSelected}
        />
      )}

      <div className="card">
        {list.error
          ? <LoadFailed error={list.error} what="the jobs" onRetry={() => list.refetch()} />
          : (
            <JobTable
              jobs={jobs}
              loading={list.isPending}
              selection={bulk ? selection : null}
              actions={{
                view: search,
                canDelete,
                canViewAnalytics: can(admin, "canViewAnalytics"),
                busy: busy || duplicate.isPending,
                onDetails: setOpenJob,
                onDelete: deletes.askOne,
                onMove: moves.moveOne,
                onDuplicate: duplicate.mutate,
              }}
            />
          )}
        {!list.error && pagination && pagination.totalJobs > 0 && (
          <PaginationBar
            pagination={pagination}
            onPage={(next) => navigate({ search: (prev) => ({ ...prev, page: next }) })}
          />
        )}
      </div>

      <JobDetailsDialog job={openJob} canCreate onClose={() => setOpenJob(null)} />
      <DuplicateDialog duplicate={moves.duplicate} onClose={moves.closeDuplicate} />
      <DeleteJobsDialog deletes={deletes} selectedJobs={selection.selectedJobs} />
    </>
  );
}

function JobsHeader({ search, bulk, onBulk }: {
  search: JobListSearch;
  bulk: boolean;
  onBulk: () => void;
}) {
  const { exporting, exportList } = useJobExport(search);
  return (
    <PageHeader title="Manage Jobs" subtitle="Create, edit and review every job posting">
      <Link to="/admin/jobs/create" className="btn-primary">Add Job</Link>
      <Link to="/admin/jobs/dump" className="btn-secondary">Dump Jobs</Link>
      <button
        type="button"
        className="btn-secondary"
        disabled={exporting}
        onClick={exportList}
      >
        {exporting ? "Exporting..." : "Export CSV"}
      </button>
      <button type="button" className="btn-secondary" aria-pressed={bulk} onClick={onBulk}>
        Bulk Actions
      </button>
    </PageHeader>
  );
}

/** The status tabs, each with its count once the list is known. */
function StatusTabs({ status, list, onSelect }: {
  status: keyof StatusCounts;
  /** The list in view; none while it loads or when its load failed. */
  list: AdminJobList | undefined;
  onSelect: (id: keyof StatusCounts) => void;
}) {
  return (
    <Tabs
      label="Job status"
      className="mb-4"
      tabs={TABS.map((tab) => ({
        id: tab.id,
        // Until the counts are known (loading, or the load failed) no number is shown.
        label: `${tab.label} (${list ? formatNumber(list.statusCounts[tab.id]) : "…"})`,
      }))}
      selected={status}
      onSelect={onSelect}
    />
  );
}

/** The moves the bulk bar offers for the selected jobs. */
const BULK_MOVES = ["close", "reopen"] as const;

/** Bulk mode's bar: select all, the count picked, and what to do with them. */
function BulkBar({ selection, canDelete, busy, deleting, onMove, onDelete }: {
  selection: Selection;
  canDelete: boolean;
  busy: boolean;
  deleting: boolean;
  onMove: (move: (typeof BULK_MOVES)[number]) => void;
  onDelete: () => void;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm">
      <button type="button" className="btn-secondary" onClick={selection.toggleAll}>
        {selection.allSelected ? "Deselect All" : "Select All"}
      </button>
      <span aria-live="polite">{selection.selectedJobs.length} selected</span>
      {BULK_MOVES.map((move) => (
        <button
          key={move}
          type="button"
          className="btn-secondary"
          disabled={busy}
          onClick={() => onMove(move)}
        >
          {`${MOVE_BUTTONS[move].verb} Selected`}
        </button>
      ))}
      {canDelete && (
        <button type="button" className="btn-danger" disabled={busy} onClick={onDelete}>
          {deleting ? "Deleting..." : "Delete Selected"}
        </button>
      )}
    </div>
  );
}

function DeleteJobsDialog({ deletes, selectedJobs }: {
  deletes: JobDeletes;
  selectedJobs: Job[];
}) {
  const many = deletes.confirming === "selected";
  return (
    <ConfirmDialog
      open={deletes.confirming !== null}
      title={many ? `Delete ${plural(selectedJobs.length, "job")}?` : "Delete Job"}
      message="This action cannot be undone."
      confirmLabel="Delete"
      onConfirm={deletes.confirm}
      onClose={deletes.cancel}
    >
      {many && <p className="mb-2 text-sm text-slate-900">{listOfRoles(selectedJobs)}</p>}
    </ConfirmDialog>
  );
}
