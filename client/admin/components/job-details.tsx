/**
 * A job's full detail for admins, whatever its status: the dump modal's view, also opened from
 * every Manage Jobs tab, with the status moves an account with canCreateJobs may make from there.
 */
import { describePay } from "../../../kv/jobs/pay.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { CURRENCY_SYMBOL, DAY_MS } from "../../../kv/constants.ts";
import { SKILL_GROUP_LABELS, SKILL_GROUPS } from "../../../kv/schemas.ts";
import { api, ApiError } from "../api.ts";
import { jobsChanged } from "../queries.ts";
import { adminSettings } from "../settings.ts";
import { JobHistory } from "../screens/activity.tsx";
import { AdminCompanyLogo, Dialog, formatDate, formatNumber, StatusBadge } from "../ui.tsx";
import type { Job } from "../types.ts";

/** Whole days since the job entered the dump, counted as the product counts them. */
export function daysInDump(job: Job): number {
  if (!job.movedToDumpAt) return 0;
  return Math.max(0, Math.floor((Date.now() - Date.parse(job.movedToDumpAt)) / DAY_MS));
}

/** Yellow from `dumpWarningDays`, red from `dumpDangerDays` with the days left before inactive. */
export function DaysChip({ days }: { days: number }) {
  const { dumpDangerDays, dumpWarningDays, daysInDumpBeforeInactive } = adminSettings();
  const colours = days >= dumpDangerDays
    ? "bg-red-100 text-red-800"
    : days >= dumpWarningDays
    ? "bg-yellow-100 text-yellow-800"
    : "bg-slate-100 text-slate-700";
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${colours}`}>
      {days} {days === 1 ? "day" : "days"}
      {days >= dumpDangerDays && ` · ${Math.max(0, daysInDumpBeforeInactive - days)}d left`}
    </span>
  );
}

type Move = "active" | "inactive";

/**
 * Moves a job to active or inactive with the specification's messages; a move refused because
 * another active job holds the hiring link says which job, in the server's words.
 */
function useMoveJob(onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ job, status }: { job: Job; status: Move }) =>
      api.put(`/jobs/${job._id}/status`, { status }),
    onSuccess: (_, { job, status }) => {
      toast.success(job.status === "draft" ? "Job published" : `Job moved to ${status}`);
      onDone();
    },
    // A link held by another job, or a draft not ready to publish, is said in the server's words.
    onError: (error) =>
      toast.error(
        error instanceof ApiError && (error.status === 409 || error.status === 400) &&
          error.message
          ? error.message
          : "Error updating job status",
      ),
    onSettled: () => jobsChanged(queryClient),
  });
}

/** The detail of `job` (none: closed) in a modal, with its moves. */
export function JobDetailsDialog({ job, canCreate, onClose }: {
  job: Job | null;
  canCreate: boolean;
  onClose: () => void;
}) {
  const move = useMoveJob(onClose);
  return (
    <Dialog open={job !== null} onClose={onClose} title={job?.role ?? "Job"} wide>
      {job && (
        <JobDetails
          job={job}
          canCreate={canCreate}
          busy={move.isPending}
          onMove={(status) => move.mutate({ job, status })}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function JobDetails({ job, canCreate, busy, onMove, onClose }: {
  job: Job;
  canCreate: boolean;
  busy: boolean;
  onMove: (status: Move) => void;
  onClose: () => void;
}) {
  return (
    <div className="space-y-5 text-sm">
      <div className="flex items-center gap-4">
        <AdminCompanyLogo name={job.companyName} logo={job.companyLogo} size={56} />
        <div>
          <p className="text-base font-medium text-slate-900">{job.companyName}</p>
          <ul className="mt-2 flex flex-wrap gap-2 text-xs">
            {[job.location, job.experience, job.employmentType, job.workMode, job.category].filter(
              Boolean,
            ).map((chip) => (
              <li key={chip} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-slate-700">
                {chip}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <JobFigures job={job} />
      <section>
        <h3 className="font-semibold text-slate-900">Job Description</h3>
        <p className="mt-1 whitespace-pre-line text-slate-700">{job.description}</p>
      </section>
      <section>
        <h3 className="font-semibold text-slate-900">Required Qualifications</h3>
        <p className="mt-1 whitespace-pre-line text-slate-700">{job.requiredDegree}</p>
      </section>
      <RequiredSkills job={job} />
      <JobHistory jobId={job.jobId} />
      <div className="sticky -bottom-6 -mx-6 -mb-6 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-white px-6 py-4">
        <button type="button" className="btn-secondary" onClick={onClose}>Close</button>
        {canCreate && <JobMoves job={job} busy={busy} onMove={onMove} />}
      </div>
    </div>
  );
}

/** Its dates, status (or days in the dump), counts and pay, in a row of figures. */
function JobFigures({ job }: { job: Job }) {
  return (
    <dl className="grid grid-cols-2 gap-4 rounded-lg bg-slate-50 p-4 sm:grid-cols-4">
      <div>
        <dt className="text-slate-600">Posted Date</dt>
        <dd className="font-medium">{formatDate(job.datePosted)}</dd>
      </div>
      {job.expiresAt && (
        <div>
          <dt className="text-slate-600">Expiry Date</dt>
          <dd className="font-medium">{formatDate(job.expiresAt)}</dd>
        </div>
      )}
      {job.status === "dump"
        ? (
          <div>
            <dt className="text-slate-600">Days in Dump</dt>
            <dd className="mt-0.5">
              <DaysChip days={daysInDump(job)} />
            </dd>
          </div>
        )
        : (
          <div>
            <dt className="text-slate-600">Status</dt>
            <dd className="mt-0.5">
              <StatusBadge status={job.status} />
            </dd>
          </div>
        )}
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
        <dd className="text-xs text-slate-600">
          {job.pay ? `Read as ${describePay(job.pay)}` : "No pay for the salary filter"}
        </dd>
      </div>
    </dl>
  );
}

/** Its skills by group; nothing when it names none. */
function RequiredSkills({ job }: { job: Job }) {
  const groups = SKILL_GROUPS.filter((group) => job.skills[group]?.length);
  if (groups.length === 0) return null;
  return (
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
  );
}

/** The hiring link and the moves its status allows, for an account with canCreateJobs. */
function JobMoves({ job, busy, onMove }: {
  job: Job;
  busy: boolean;
  onMove: (status: Move) => void;
}) {
  return (
    <>
      {job.hiringLink && (
        <a
          href={job.hiringLink}
          target="_blank"
          rel="noopener noreferrer"
          className="btn-secondary"
        >
          Apply Link
        </a>
      )}
      {job.status === "dump" && (
        <button
          type="button"
          className="btn-secondary"
          disabled={busy}
          onClick={() => onMove("inactive")}
        >
          Move to Inactive
        </button>
      )}
      {job.status !== "active" && (
        <button
          type="button"
          className="btn-primary"
          disabled={busy}
          onClick={() => onMove("active")}
        >
          {job.status === "draft" ? "Publish" : "Move to Active"}
        </button>
      )}
    </>
  );
}
