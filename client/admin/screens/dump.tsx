/** Dump Jobs (SPEC section 2): jobs waiting for review, the detail modal, the automatic rules. */
import { JobHistory } from "./activity.tsx";
import { useEffect, useState } from "react";
import { getRouteApi } from "@tanstack/react-router";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  CURRENCY_SYMBOL,
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
  DUMP_DANGER_DAYS,
  DUMP_WARNING_DAYS,
} from "../../../kv/constants.ts";
import { SKILL_GROUP_LABELS, SKILL_GROUPS } from "../../../kv/schemas.ts";
import { api } from "../api.ts";
import { JobCell, ScrollTable } from "../components/table.tsx";
import { can, useAdmin } from "../session.ts";
import { dumpListQuery, jobsChanged } from "../queries.ts";
import {
  CompanyLogo,
  Dialog,
  formatDate,
  formatNumber,
  PageHeader,
  PaginationBar,
  SkeletonRows,
} from "../ui.tsx";
import type { Job } from "../types.ts";

const route = getRouteApi("/admin/jobs/dump");

/** Whole days since the job entered the dump (SPEC section 9). */
function daysInDump(job: Job): number {
  if (!job.movedToDumpAt) return 0;
  return Math.max(0, Math.floor((Date.now() - Date.parse(job.movedToDumpAt)) / DAY_MS));
}

/** Yellow from 15 days, red from 25 with the days left before the job turns inactive. */
export function DaysChip({ days }: { days: number }) {
  const colours = days >= DUMP_DANGER_DAYS
    ? "bg-red-100 text-red-800"
    : days >= DUMP_WARNING_DAYS
    ? "bg-yellow-100 text-yellow-800"
    : "bg-slate-100 text-slate-700";
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${colours}`}>
      {days} {days === 1 ? "day" : "days"}
      {days >= DUMP_DANGER_DAYS &&
        ` · ${Math.max(0, DAYS_IN_DUMP_BEFORE_INACTIVE - days)}d left`}
    </span>
  );
}

export function DumpScreen() {
  const admin = useAdmin();
  const { page } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const [openJob, setOpenJob] = useState<Job | null>(null);
  const canCreate = can(admin, "canCreateJobs");

  const list = useQuery({ ...dumpListQuery(page), placeholderData: keepPreviousData });
  useEffect(() => {
    if (list.error) toast.error("Error fetching dump jobs");
  }, [list.error]);

  const move = useMutation({
    mutationFn: ({ job, status }: { job: Job; status: "active" | "inactive" }) =>
      api.put(`/jobs/${job._id}/status`, { status }),
    onSuccess: (_, { status }) => {
      toast.success(`Job moved to ${status}`);
      setOpenJob(null);
    },
    onError: () => toast.error("Error updating job status"),
    onSettled: () => jobsChanged(queryClient),
  });

  const process = useMutation({
    mutationFn: () =>
      api.post<{ result: { movedToDump: number; movedToInactive: number } }>(
        "/jobs/admin/process-status-changes",
      ),
    onSuccess: ({ result }) =>
      toast.success(
        `Processed: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`,
      ),
    onError: () => toast.error("Error processing status changes"),
    onSettled: () => jobsChanged(queryClient),
  });
  const runProcess = () => {
    if (!canCreate) return toast.error("You do not have permission to process status changes");
    process.mutate();
  };

  const jobs = list.data?.jobs ?? [];
  const pagination = list.data?.pagination;

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

      <aside className="mb-6 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900">
        <p className="font-semibold">How jobs move automatically</p>
        <p className="mt-1">
          An active job moves to the dump after {DAYS_ACTIVE_BEFORE_DUMP}{" "}
          days. A job in the dump for {DAYS_IN_DUMP_BEFORE_INACTIVE}{" "}
          days becomes inactive. Review jobs here and move them back to active or on to inactive.
        </p>
      </aside>

      <div className="card">
        <ScrollTable
          label="Dump jobs"
          className="w-full min-w-[48rem]"
          headings={[
            "Job Details",
            "Company",
            "Posted Date",
            "Days in Dump",
            "Analytics",
            "Actions",
          ]}
        >
          {list.isPending ? <SkeletonRows columns={6} /> : jobs.length === 0
            ? (
              <tr>
                <td colSpan={6} className="px-4 py-12 text-center">
                  <p className="font-medium text-slate-900">No jobs in dump</p>
                  <p className="mt-1 text-slate-600">
                    Jobs older than {DAYS_ACTIVE_BEFORE_DUMP} days will appear here automatically.
                  </p>
                </td>
              </tr>
            )
            : jobs.map((job) => (
              <tr
                key={job._id}
                className="cursor-pointer border-t border-slate-100 hover:bg-slate-50"
                onClick={() => setOpenJob(job)}
              >
                <JobCell job={job} detail={job.location} />
                <td className="px-4 py-3">{job.companyName}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatDate(job.datePosted)}</td>
                <td className="px-4 py-3">
                  <DaysChip days={daysInDump(job)} />
                </td>
                <td className="px-4 py-3 text-xs whitespace-nowrap text-slate-600">
                  {formatNumber(job.analytics?.views)} views · {formatNumber(job.analytics?.clicks)}
                  {" "}
                  clicks
                </td>
                <td className="px-4 py-3">
                  <button
                    type="button"
                    className="btn-secondary"
                    aria-label={`Review ${job.role} at ${job.companyName}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      setOpenJob(job);
                    }}
                  >
                    Review
                  </button>
                </td>
              </tr>
            ))}
        </ScrollTable>
        {pagination && pagination.totalPages > 1 && (
          <PaginationBar
            compact
            pagination={pagination}
            onPage={(next) => navigate({ search: { page: next } })}
          />
        )}
      </div>

      <Dialog
        open={openJob !== null}
        onClose={() => setOpenJob(null)}
        title={openJob?.role ?? "Job"}
        wide
      >
        {openJob && (
          <DumpJobDetails
            job={openJob}
            canCreate={canCreate}
            busy={move.isPending}
            onMove={(status) => move.mutate({ job: openJob, status })}
            onClose={() => setOpenJob(null)}
          />
        )}
      </Dialog>
    </>
  );
}

function DumpJobDetails({ job, canCreate, busy, onMove, onClose }: {
  job: Job;
  canCreate: boolean;
  busy: boolean;
  onMove: (status: "active" | "inactive") => void;
  onClose: () => void;
}) {
  const groups = SKILL_GROUPS.filter((group) => job.skills[group]?.length);
  return (
    <div className="space-y-5 text-sm">
      <div className="flex items-center gap-4">
        <CompanyLogo name={job.companyName} logo={job.companyLogo} size="size-14" />
        <div>
          <p className="text-base font-medium text-slate-900">{job.companyName}</p>
          <ul className="mt-2 flex flex-wrap gap-2 text-xs">
            {[job.location, job.experience, job.employmentType].map((chip) => (
              <li key={chip} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-slate-700">
                {chip}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-4 rounded-lg bg-slate-50 p-4 sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">Posted Date</dt>
          <dd className="font-medium">{formatDate(job.datePosted)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Days in Dump</dt>
          <dd className="mt-0.5">
            <DaysChip days={daysInDump(job)} />
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Views/Clicks</dt>
          <dd className="font-medium">
            {formatNumber(job.analytics?.views)}/{formatNumber(job.analytics?.clicks)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Estimated Package</dt>
          <dd className="font-medium">
            {job.estPackage ? `${CURRENCY_SYMBOL} ${job.estPackage}` : "—"}
          </dd>
        </div>
      </dl>
      <section>
        <h3 className="font-semibold text-slate-900">Job Description</h3>
        <p className="mt-1 whitespace-pre-line text-slate-700">{job.description}</p>
      </section>
      <section>
        <h3 className="font-semibold text-slate-900">Required Qualifications</h3>
        <p className="mt-1 whitespace-pre-line text-slate-700">{job.requiredDegree}</p>
      </section>
      {groups.length > 0 && (
        <section>
          <h3 className="font-semibold text-slate-900">Required Skills</h3>
          <dl className="mt-2 space-y-2">
            {groups.map((group) => (
              <div key={group}>
                <dt className="text-xs font-medium text-slate-600">{SKILL_GROUP_LABELS[group]}</dt>
                <dd className="mt-1 flex flex-wrap gap-1.5">
                  {job.skills[group].map((skill) => (
                    <span key={skill} className="rounded bg-indigo-50 px-2 py-0.5 text-indigo-800">
                      {skill}
                    </span>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <JobHistory jobId={job.jobId} />
      <div className="sticky -bottom-6 -mx-6 -mb-6 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-white px-6 py-4">
        <button type="button" className="btn-secondary" onClick={onClose}>Close</button>
        {canCreate && (
          <>
            <a
              href={job.hiringLink}
              target="_blank"
              rel="noopener noreferrer"
              className="btn-secondary"
            >
              Apply Link
            </a>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy}
              onClick={() => onMove("inactive")}
            >
              Move to Inactive
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => onMove("active")}
            >
              Move to Active
            </button>
          </>
        )}
      </div>
    </div>
  );
}
