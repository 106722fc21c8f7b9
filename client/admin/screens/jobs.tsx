/**
 * Manage Jobs: status tabs with counts (drafts among them), filters, the table, bulk close, reopen
 * and delete, export.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { getRouteApi, Link } from "@tanstack/react-router";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../api.ts";
import { saveFile } from "../download.ts";
import { can, useAdmin } from "../session.ts";
import { jobListQuery, jobsChanged } from "../queries.ts";
import { JobCell, ScrollTable } from "../components/table.tsx";
import { JobDetailsDialog } from "../components/job-details.tsx";
import { DuplicateDialog } from "./duplicate-dialog.tsx";
import { JobActions, useDuplicate, useJobMoves } from "./job-actions.tsx";
import {
  AccessDenied,
  ConfirmDialog,
  formatDate,
  formatNumber,
  LoadFailed,
  PageHeader,
  PaginationBar,
  plural,
  SkeletonRows,
  StatusBadge,
  Tabs,
  useLastPage,
} from "../ui.tsx";
import type { Admin, Job, StatusCounts } from "../types.ts";

const route = getRouteApi("/admin/jobs");

const TABS: { id: keyof StatusCounts; label: string }[] = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "dump", label: "Dump" },
  { id: "inactive", label: "Inactive" },
  { id: "draft", label: "Drafts" },
];

/** How long typing settles before the filters go to the server. */
const FILTER_DELAY_MS = 300;

type FilterName = "search" | "company" | "location";

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
  const queryClient = useQueryClient();
  const { status } = search;

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

  const [filters, setFilters] = useState<Record<FilterName, string>>({
    search: search.search ?? "",
    company: search.company ?? "",
    location: search.location ?? "",
  });
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = {
        search: filters.search.trim() || undefined,
        company: filters.company.trim() || undefined,
        location: filters.location.trim() || undefined,
      };
      if (
        next.search !== search.search || next.company !== search.company ||
        next.location !== search.location
      ) {
        void navigate({ search: (prev) => ({ ...prev, ...next, page: 1 }), replace: true });
      }
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [filters]);

  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<Job | "selected" | null>(null);
  const [openJob, setOpenJob] = useState<Job | null>(null);
  // A selection only ever covers rows in view: whenever another page, tab or filter is asked for,
  // or the rows change under it, it starts again, so no job the admin cannot see gets deleted.
  const viewKey = JSON.stringify(listQuery.queryKey);
  const jobs = useMemo(() => (list.error ? [] : list.data?.jobs ?? []), [list.data, list.error]);
  useEffect(() => setSelected(new Set()), [viewKey, jobs]);
  const selectedJobs = jobs.filter((job) => selected.has(job._id));
  const moves = useJobMoves(() => setSelected(new Set()));
  const allSelected = jobs.length > 0 && selectedJobs.length === jobs.length;

  const deleteOne = useMutation({
    mutationFn: (job: Job) => api.delete(`/jobs/${job._id}`),
    onSuccess: () => toast.success("Job deleted successfully"),
    onError: () => toast.error("Error deleting job"),
    onSettled: () => jobsChanged(queryClient),
  });
  const deleteMany = useMutation({
    mutationFn: (targets: Job[]) =>
      Promise.allSettled(targets.map((job) => api.delete(`/jobs/${job._id}`))),
    onSuccess: (results, targets) => {
      const failed = targets.filter((_, index) => results[index].status === "rejected");
      const deleted = targets.length - failed.length;
      if (failed.length === 0) toast.success(`${deleted} jobs deleted successfully`);
      else if (deleted === 0) toast.error("Error deleting jobs");
      else {
        toast.error(
          `${plural(deleted, "job")} deleted; could not delete ${
            listOfRoles(failed, failed.length)
          }`,
        );
      }
      setSelected(new Set());
    },
    onSettled: () => jobsChanged(queryClient),
  });

  const askDeleteSelected = () => {
    if (selectedJobs.length === 0) return toast.error("Please select jobs to delete");
    setConfirming("selected");
  };
  const confirmDelete = () => {
    if (confirming === "selected") deleteMany.mutate(selectedJobs);
    else if (confirming) deleteOne.mutate(confirming);
    setConfirming(null);
  };
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const duplicate = useDuplicate();
  const canDelete = can(admin, "canDeleteJobs");
  const [exporting, setExporting] = useState(false);
  /** The jobs of the tab and filters in view, every page of them. */
  const exportList = async () => {
    setExporting(true);
    try {
      const { status: tab, search: text, company, location } = search;
      const day = new Date().toISOString().slice(0, 10);
      saveFile(
        await api.blob("/jobs/admin/export", { status: tab, search: text, company, location }),
        `careeredge-jobs-${tab}-${day}.csv`,
      );
      toast.success("Jobs exported as CSV");
    } catch {
      toast.error("Error exporting jobs");
    } finally {
      setExporting(false);
    }
  };
  const columns = 7 + (bulk ? 1 : 0);

  return (
    <>
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
        <button
          type="button"
          className="btn-secondary"
          aria-pressed={bulk}
          onClick={() => {
            setBulk(!bulk);
            setSelected(new Set());
          }}
        >
          Bulk Actions
        </button>
      </PageHeader>

      <Tabs
        label="Job status"
        className="mb-4"
        tabs={TABS.map((tab) => ({
          id: tab.id,
          // Until the counts are known (loading, or the load failed) no number is shown.
          label: `${tab.label} (${
            list.data && !list.error ? formatNumber(list.data.statusCounts[tab.id]) : "…"
          })`,
        }))}
        selected={status}
        onSelect={(id) => {
          setSelected(new Set());
          void navigate({ search: (prev) => ({ ...prev, status: id, page: 1 }) });
        }}
      />

      <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <FilterInput
          label="Search"
          placeholder="Role, company or job ID"
          value={filters.search}
          onChange={(value) => setFilters({ ...filters, search: value })}
        />
        <FilterInput
          label="Company"
          placeholder="Company name"
          value={filters.company}
          onChange={(value) => setFilters({ ...filters, company: value })}
        />
        <FilterInput
          label="Location"
          placeholder="City or remote"
          value={filters.location}
          onChange={(value) => setFilters({ ...filters, location: value })}
        />
      </div>

      {bulk && (
        <div className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm">
          <button
            type="button"
            className="btn-secondary"
            onClick={() =>
              setSelected(allSelected ? new Set() : new Set(jobs.map((job) => job._id)))}
          >
            {allSelected ? "Deselect All" : "Select All"}
          </button>
          <span aria-live="polite">{selectedJobs.length} selected</span>
          <button
            type="button"
            className="btn-secondary"
            disabled={moves.busy}
            onClick={() => moves.moveMany(selectedJobs, "close")}
          >
            Close Selected
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={moves.busy}
            onClick={() => moves.moveMany(selectedJobs, "reopen")}
          >
            Reopen Selected
          </button>
          {canDelete && (
            <button type="button" className="btn-danger" onClick={askDeleteSelected}>
              Delete Selected
            </button>
          )}
        </div>
      )}

      <div className="card">
        {list.error
          ? <LoadFailed error={list.error} what="the jobs" onRetry={() => list.refetch()} />
          : (
            <ScrollTable
              label="Jobs"
              stacked
              className="w-full lg:min-w-[56rem]"
              headings={[
                "Job Details",
                "Company",
                "Location",
                "Views",
                "Date Posted",
                "Status",
                "Actions",
              ]}
              leading={bulk && (
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Select</span>
                </th>
              )}
            >
              {list.isPending ? <SkeletonRows columns={columns} /> : jobs.length === 0
                ? (
                  <tr>
                    <td colSpan={columns} className="px-4 py-12 text-center text-slate-600">
                      <p>No jobs found.</p>
                      <Link
                        to="/admin/jobs/create"
                        className="mt-2 inline-block font-medium text-indigo-700"
                      >
                        Create your first job
                      </Link>
                    </td>
                  </tr>
                )
                : jobs.map((job) => (
                  <tr key={job._id} className="border-t border-slate-100 hover:bg-slate-50">
                    {bulk && (
                      <td className="px-4 py-3">
                        <input
                          type="checkbox"
                          className="size-4"
                          aria-label={`Select ${job.role} at ${job.companyName}`}
                          checked={selected.has(job._id)}
                          onChange={() => toggle(job._id)}
                        />
                      </td>
                    )}
                    <JobCell job={job} detail={job.experience} />
                    <td data-label="Company" className="px-4 py-3">{job.companyName}</td>
                    <td data-label="Location" className="px-4 py-3">{job.location}</td>
                    <td data-label="Views" className="px-4 py-3">
                      {formatNumber(job.analytics?.views)}
                      {can(admin, "canViewAnalytics") && (
                        <Link
                          to="/admin/jobs/insight/$id"
                          params={{ id: job._id }}
                          className="ml-2 text-indigo-700 underline-offset-2 hover:underline"
                          aria-label={`Insight: views and sources of ${job.role} at ${job.companyName}`}
                        >
                          Insight
                        </Link>
                      )}
                    </td>
                    <td data-label="Date Posted" className="px-4 py-3 whitespace-nowrap">
                      {job.status === "draft"
                        ? (
                          <>
                            <span className="block text-xs text-slate-600">Last saved</span>
                            {formatDate(job.updatedAt)}
                          </>
                        )
                        : formatDate(job.datePosted)}
                      {job.expiresAt && (
                        <span className="block text-xs text-slate-600">
                          Expires {formatDate(job.expiresAt)}
                        </span>
                      )}
                    </td>
                    <td data-label="Status" className="px-4 py-3">
                      <StatusBadge status={job.status} />
                    </td>
                    <JobActions
                      job={job}
                      canDelete={canDelete}
                      busy={moves.busy || duplicate.isPending}
                      onDetails={() =>
                        setOpenJob(job)}
                      onDelete={() =>
                        setConfirming(job)}
                      onMove={(move) => moves.moveOne(job, move)}
                      onDuplicate={() => duplicate.mutate(job)}
                    />
                  </tr>
                ))}
            </ScrollTable>
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

      <ConfirmDialog
        open={confirming !== null}
        title={confirming === "selected"
          ? `Delete ${plural(selectedJobs.length, "job")}?`
          : "Delete Job"}
        message="This action cannot be undone."
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onClose={() => setConfirming(null)}
      >
        {confirming === "selected" && (
          <p className="mb-2 text-sm text-slate-900">{listOfRoles(selectedJobs)}</p>
        )}
      </ConfirmDialog>
    </>
  );
}

/** How many roles a list of jobs names before it says "and N more". */
const ROLES_NAMED = 3;

/** "Engineer at Acme, Designer at Globex and 4 more". */
function listOfRoles(jobs: Job[], named = ROLES_NAMED): string {
  const names = jobs.slice(0, named).map((job) => `${job.role} at ${job.companyName}`);
  const more = jobs.length - names.length;
  return more > 0 ? `${names.join(", ")} and ${more} more` : names.join(", ");
}

function FilterInput({ label, placeholder, value, onChange }: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">{label}</label>
      <input
        id={id}
        type="search"
        className="field"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
