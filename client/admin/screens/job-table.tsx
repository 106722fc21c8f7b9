/**
 * Manage Jobs' table: a row a job (with its selection box in bulk mode, its views and the way to
 * its insight, its dates, status and actions), skeleton rows while loading, and the empty state.
 */
import { Link } from "@tanstack/react-router";
import { JobCell, ScrollTable } from "../components/table.tsx";
import { formatDate, formatNumber, SkeletonRows, StatusBadge } from "../ui.tsx";
import { JobActions, type Move } from "./job-actions.tsx";
import type { Selection } from "./job-list-state.ts";
import type { JobListSearch } from "../queries.ts";
import type { Job } from "../types.ts";

const HEADINGS = [
  "Job Details",
  "Company",
  "Location",
  "Views",
  "Date Posted",
  "Status",
  "Actions",
];

/** What a row may do and what it reports back; the same for every row. */
export interface RowActions {
  /** The view the rows are in, for the editor and the insight to return to. */
  view: JobListSearch;
  canDelete: boolean;
  canViewAnalytics: boolean;
  /** A move or a copy is on its way: no second one starts meanwhile. */
  busy: boolean;
  onDetails: (job: Job) => void;
  onDelete: (job: Job) => void;
  onMove: (job: Job, move: Move) => void;
  onDuplicate: (job: Job) => void;
}

export function JobTable({ jobs, loading, selection, actions }: {
  jobs: Job[];
  loading: boolean;
  /** In bulk mode: the picked rows, with a selection box in each. */
  selection: Selection | null;
  actions: RowActions;
}) {
  const columns = HEADINGS.length + (selection ? 1 : 0);
  return (
    <ScrollTable
      label="Jobs"
      stacked
      className="w-full lg:min-w-[56rem]"
      headings={HEADINGS}
      leading={selection && (
        <th scope="col" className="px-4 py-3">
          <span className="sr-only">Select</span>
        </th>
      )}
    >
      {loading ? <SkeletonRows columns={columns} /> : jobs.length === 0
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
          <JobRow key={job._id} job={job} selection={selection} actions={actions} />
        ))}
    </ScrollTable>
  );
}

function JobRow({ job, selection, actions }: {
  job: Job;
  selection: Selection | null;
  actions: RowActions;
}) {
  return (
    <tr className="border-t border-slate-100 hover:bg-slate-50">
      {selection && (
        <td className="px-4 py-3">
          <input
            type="checkbox"
            className="size-4"
            aria-label={`Select ${job.role} at ${job.companyName}`}
            checked={selection.has(job._id)}
            onChange={() => selection.toggle(job._id)}
          />
        </td>
      )}
      <JobCell job={job} detail={job.experience} />
      <td data-label="Company" className="px-4 py-3">{job.companyName}</td>
      <td data-label="Location" className="px-4 py-3">{job.location}</td>
      <td data-label="Views" className="px-4 py-3">
        {formatNumber(job.analytics?.views)}
        {actions.canViewAnalytics && (
          <Link
            to="/admin/jobs/insight/$id"
            params={{ id: job._id }}
            state={{ jobList: actions.view }}
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
        view={actions.view}
        canDelete={actions.canDelete}
        busy={actions.busy}
        onDetails={() => actions.onDetails(job)}
        onDelete={() => actions.onDelete(job)}
        onMove={(move) => actions.onMove(job, move)}
        onDuplicate={() => actions.onDuplicate(job)}
      />
    </tr>
  );
}
