/**
 * A Manage Jobs row's actions: closing and reopening jobs (one row or the selection), publishing a
 * draft and duplicating a job. Reopening and publishing claim the hiring link, as a create does:
 * when an active job holds it, one job opens the Duplicate Job Detected dialog and a selection
 * names how many could not be reopened.
 */
import { useState } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api, ApiError, messageOf } from "../api.ts";
import { type JobListSearch, jobsChanged, queryKeys } from "../queries.ts";
import { Icon, plural } from "../ui.tsx";
import { jobPath } from "../../components/job-card.tsx";
import type { Job, JobAnswer } from "../types.ts";

export type Move = "close" | "reopen" | "publish";

const STATUS_OF: Record<Move, "inactive" | "active"> = {
  close: "inactive",
  reopen: "active",
  publish: "active",
};
const PAST: Record<Move, string> = { close: "closed", reopen: "reopened", publish: "published" };
/** The statuses each move applies to. */
const MOVES_FROM: Record<Move, readonly Job["status"][]> = {
  close: ["active", "dump"],
  reopen: ["inactive", "dump"],
  publish: ["draft"],
};

/**
 * Which jobs a move applies to: an active or dump job can close, an inactive or dump one reopen,
 * a draft be published.
 */
export function canMove(job: Job, move: Move): boolean {
  return MOVES_FROM[move].includes(job.status);
}

/** Duplicating a job: a draft copy, opened in the editor. */
export function useDuplicate() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (job: Job) => api.post<JobAnswer>(`/jobs/${job._id}/duplicate`),
    onSuccess: async ({ job }) => {
      // The editor opens at once on the copy the answer holds; the lists refresh meanwhile.
      void jobsChanged(queryClient);
      queryClient.setQueryData(queryKeys.job(job._id), job);
      toast.success("Draft copy created: edit it, then publish it");
      await navigate({ to: "/admin/jobs/edit/$id", params: { id: job._id } });
    },
    onError: (error) => toast.error(messageOf(error, "Error duplicating job")),
  });
}

function heldBy(error: unknown): Job | null {
  const existing = error instanceof ApiError && error.status === 409
    ? error.body.existingJob
    : null;
  return existing && typeof existing === "object" ? existing as Job : null;
}

export function useJobMoves(onManyDone: () => void) {
  const queryClient = useQueryClient();
  const [duplicate, setDuplicate] = useState<Job | null>(null);
  const put = (job: Job, move: Move) =>
    api.put(`/jobs/${job._id}/status`, { status: STATUS_OF[move] });

  const one = useMutation({
    mutationFn: ({ job, move }: { job: Job; move: Move }) => put(job, move),
    onSuccess: (_, { move }) => toast.success(`Job ${PAST[move]}`),
    onError: (error, { move }) => {
      const existing = heldBy(error);
      if (existing) setDuplicate(existing);
      else toast.error(messageOf(error, `Error: the job could not be ${PAST[move]}`));
    },
    onSettled: () => jobsChanged(queryClient),
  });

  const many = useMutation({
    mutationFn: ({ jobs, move }: { jobs: Job[]; move: Move }) =>
      Promise.allSettled(jobs.map((job) => put(job, move))),
    onSuccess: (results, { move }) => {
      const failures = results.flatMap((result) => result.status === "rejected" ? [result] : []);
      const done = results.length - failures.length;
      if (done > 0) toast.success(`${plural(done, "job")} ${PAST[move]}`);
      const taken = failures.filter((failure) => heldBy(failure.reason)).length;
      if (taken > 0) {
        toast.error(
          `${plural(taken, "job")} not reopened: an active job already uses ${
            taken === 1 ? "its hiring link" : "their hiring links"
          }`,
        );
      }
      if (failures.length > taken) {
        toast.error(`${plural(failures.length - taken, "job")} could not be ${PAST[move]}`);
      }
      onManyDone();
    },
    onSettled: () => jobsChanged(queryClient),
  });

  return {
    moveOne: (job: Job, move: Move) => one.mutate({ job, move }),
    moveMany: (jobs: Job[], move: Move) => {
      const movable = jobs.filter((job) => canMove(job, move));
      if (movable.length === 0) {
        return toast.error(
          move === "close"
            ? "Please select active jobs to close"
            : "Please select closed jobs to reopen",
        );
      }
      many.mutate({ jobs: movable, move });
    },
    busy: one.isPending || many.isPending,
    duplicate,
    closeDuplicate: () => setDuplicate(null),
  };
}

/** The row's button for each move, in the order they show. */
const MOVE_ORDER: Move[] = ["close", "reopen", "publish"];
export const MOVE_BUTTONS: Record<
  Move,
  { verb: string; title: string; icon: string; className?: string }
> = {
  close: {
    verb: "Close",
    title: "Close: stop taking applications",
    icon: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18ZM5.6 5.6l12.8 12.8",
  },
  reopen: {
    verb: "Reopen",
    title: "Reopen: make it public again",
    icon: "M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4",
  },
  publish: {
    verb: "Publish",
    title: "Publish: make it public",
    icon: "M12 19V5m-6 6 6-6 6 6",
    className: "text-indigo-700",
  },
};

export function JobActions(
  { job, view, canDelete, busy, onDetails, onDelete, onMove, onDuplicate }: {
    job: Job;
    view: JobListSearch;
    canDelete: boolean;
    /** A move or a copy is on its way: no second one starts meanwhile. */
    busy: boolean;
    onDetails: () => void;
    onDelete: () => void;
    onMove: (move: Move) => void;
    onDuplicate: () => void;
  },
) {
  // A draft may have no company yet.
  const name = job.companyName ? `${job.role} at ${job.companyName}` : job.role;
  return (
    <td data-label="Actions" className="px-4 py-3">
      <div className="flex flex-wrap items-center gap-1">
        {job.status === "active" && (
          <a
            href={jobPath(job)}
            target="_blank"
            rel="noopener noreferrer"
            className="btn-icon"
            aria-label={`View ${name} (opens in a new tab)`}
            title="View public page"
          >
            <Icon path="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z" />
          </a>
        )}
        <button
          type="button"
          className="btn-icon"
          aria-label={`Details of ${name}`}
          title="Details"
          onClick={onDetails}
        >
          <Icon path="M12 8h.01M11 12h1v5h1M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z" />
        </button>
        {(job.status === "active" || job.status === "draft") && (
          <Link
            to="/admin/jobs/edit/$id"
            params={{ id: job._id }}
            state={{ jobList: view }}
            className="btn-icon"
            aria-label={`Edit ${name}`}
            title="Edit"
          >
            <Icon path="M4 20h4L19 9l-4-4L4 16v4Zm11-15 4 4" />
          </Link>
        )}
        {MOVE_ORDER.filter((move) => canMove(job, move)).map((move) => (
          <button
            key={move}
            type="button"
            className={`btn-icon ${MOVE_BUTTONS[move].className ?? ""}`}
            aria-label={`${MOVE_BUTTONS[move].verb} ${name}`}
            title={MOVE_BUTTONS[move].title}
            disabled={busy}
            onClick={() => onMove(move)}
          >
            <Icon path={MOVE_BUTTONS[move].icon} />
          </button>
        ))}
        <button
          type="button"
          className="btn-icon"
          aria-label={`Duplicate ${name}`}
          title="Duplicate: a draft copy to edit"
          disabled={busy}
          onClick={onDuplicate}
        >
          <Icon path="M8 8h11v11H8zM5 16V5h11" />
        </button>
        {canDelete && (
          <button
            type="button"
            className="btn-icon text-red-700"
            aria-label={`Delete ${name}`}
            title="Delete"
            onClick={onDelete}
          >
            <Icon path="M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13" />
          </button>
        )}
      </div>
    </td>
  );
}
