/** Dump Jobs: jobs waiting for review, the detail modal, the automatic rules. */
import { useEffect, useState } from "react";
import { getRouteApi } from "@tanstack/react-router";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api, ApiError } from "../api.ts";
import { JobCell, ScrollTable } from "../components/table.tsx";
import { DaysChip, daysInDump, JobDetailsDialog } from "../components/job-details.tsx";
import { can, useAdmin } from "../session.ts";
import { dumpListQuery, jobsChanged } from "../queries.ts";
import {
  formatDate,
  LoadFailed,
  PageHeader,
  PaginationBar,
  plural,
  SkeletonRows,
  useLastPage,
} from "../ui.tsx";
import type { Job } from "../types.ts";
import { adminSettings } from "../settings.ts";

const route = getRouteApi("/admin/jobs/dump");

export function DumpScreen() {
  const admin = useAdmin();
  const { page } = route.useSearch();
  const navigate = route.useNavigate();
  const [openJob, setOpenJob] = useState<Job | null>(null);
  const canCreate = can(admin, "canCreateJobs");
  const process = useProcessStatusChanges();
  const runProcess = () => {
    if (!canCreate) return toast.error("You do not have permission to process status changes");
    process.mutate();
  };

  const list = useQuery({ ...dumpListQuery(page), placeholderData: keepPreviousData });
  useEffect(() => {
    if (list.error) toast.error("Error fetching dump jobs");
  }, [list.error]);
  const pagination = list.data?.pagination;
  useLastPage(pagination, (last) => navigate({ search: { page: last }, replace: true }));

  return (
    <>
      <PageHeader title="Dump Jobs" subtitle="Jobs waiting for review before becoming inactive">
        <button
          type="button"
          className="btn-primary"
          disabled={process.isPending}
          onClick={runProcess}
        >
          {process.isPending ? "Processing..." : "Process Status Changes"}
        </button>
      </PageHeader>

      <DumpRules />

      <div className="card">
        {list.error
          ? <LoadFailed error={list.error} what="the dump jobs" onRetry={() => list.refetch()} />
          : (
            <DumpTable
              jobs={list.data?.jobs ?? []}
              loading={list.isPending}
              onOpen={setOpenJob}
            />
          )}
        {!list.error && pagination && pagination.totalPages > 1 && (
          <PaginationBar
            compact
            pagination={pagination}
            onPage={(next) => navigate({ search: { page: next } })}
          />
        )}
      </div>

      <JobDetailsDialog job={openJob} canCreate={canCreate} onClose={() => setOpenJob(null)} />
    </>
  );
}

/** Running the lifecycle now, with the counts it moved. */
function useProcessStatusChanges() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<{ result: { movedToDump: number; movedToInactive: number } }>(
        "/jobs/admin/process-status-changes",
      ),
    onSuccess: ({ result }) =>
      toast.success(
        `Processed: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`,
      ),
    // A server whose clock is wrong says so; anything else keeps the specification's words.
    onError: (error) =>
      toast.error(
        error instanceof ApiError && error.status === 503
          ? error.message
          : "Error processing status changes",
      ),
    onSettled: () => jobsChanged(queryClient),
  });
}

function DumpRules() {
  const { daysActiveBeforeDump, daysInDumpBeforeInactive } = adminSettings();
  return (
    <aside
      aria-label="How jobs move automatically"
      className="mb-6 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900"
    >
      <p className="font-semibold">How jobs move automatically</p>
      <p className="mt-1">
        An active job moves to the dump after {daysActiveBeforeDump} days. A job in the dump for
        {" "}
        {daysInDumpBeforeInactive}{" "}
        days becomes inactive. Review jobs here and move them back to active or on to inactive.
      </p>
    </aside>
  );
}

function DumpTable({ jobs, loading, onOpen }: {
  jobs: Job[];
  loading: boolean;
  onOpen: (job: Job) => void;
}) {
  const { daysActiveBeforeDump } = adminSettings();
  return (
    <ScrollTable
      label="Dump jobs"
      stacked
      className="w-full lg:min-w-[48rem]"
      headings={[
        "Job Details",
        "Company",
        "Posted Date",
        "Days in Dump",
        "Analytics",
        "Actions",
      ]}
    >
      {loading ? <SkeletonRows columns={6} /> : jobs.length === 0
        ? (
          <tr>
            <td colSpan={6} className="px-4 py-12 text-center">
              <p className="font-medium text-slate-900">No jobs in dump</p>
              <p className="mt-1 text-slate-600">
                Jobs older than {daysActiveBeforeDump} days will appear here automatically.
              </p>
            </td>
          </tr>
        )
        : jobs.map((job) => <DumpRow key={job._id} job={job} onOpen={() => onOpen(job)} />)}
    </ScrollTable>
  );
}

/** A dump job: the whole row, or its Review button, opens its detail. */
function DumpRow({ job, onOpen }: { job: Job; onOpen: () => void }) {
  return (
    <tr
      className="cursor-pointer border-t border-slate-100 hover:bg-slate-50"
      onClick={onOpen}
    >
      <JobCell job={job} detail={job.location} />
      <td data-label="Company" className="px-4 py-3">{job.companyName}</td>
      <td data-label="Posted Date" className="px-4 py-3 whitespace-nowrap">
        {formatDate(job.datePosted)}
      </td>
      <td data-label="Days in Dump" className="px-4 py-3">
        <DaysChip days={daysInDump(job)} />
      </td>
      <td
        data-label="Analytics"
        className="px-4 py-3 text-xs whitespace-nowrap text-slate-600"
      >
        {plural(job.analytics?.views ?? 0, "view")} · {plural(job.analytics?.clicks ?? 0, "click")}
      </td>
      <td data-label="Actions" className="px-4 py-3">
        <button
          type="button"
          className="btn-secondary"
          aria-label={`Review ${job.role} at ${job.companyName}`}
          onClick={(event) => {
            event.stopPropagation();
            onOpen();
          }}
        >
          Review
        </button>
      </td>
    </tr>
  );
}
