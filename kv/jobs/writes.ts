/**
 * One job's writes: create (or save a draft), duplicate, edit, status change and delete, each one
 * atomic operation with the job's index entries and the `jobs_meta` revision, retried when another
 * write got there first.
 */
import { keys } from "../keys.ts";
import { newId, retrying } from "../atomic.ts";
import { type Job, type JobInput, type LifecycleStatus, TEXT_LIMITS } from "../schemas.ts";
import { type Audit, changedFields } from "../activity.ts";
import { withDerived } from "./derived.ts";
import { expiryTime } from "./expiry.ts";
import {
  contentOf,
  jobSizeProblem,
  normaliseHiringLink,
  publishProblem,
  recordSizeProblem,
} from "./validate.ts";
import {
  adjustCounts,
  commitMeta,
  freshMeta,
  holdsLink,
  type JobsMeta,
  jobTarget,
  type JobWriter,
  unindexJob,
  writeJob,
  type WriteResult,
} from "./records.ts";
import { type StoredJob, withoutVersion } from "./version.ts";

/** What a create makes: an active job, or a draft (`copyOf` names the job it duplicates). */
export interface CreateOptions {
  draft?: boolean;
  copyOf?: Job;
}

/**
 * Creates an active job, unless an active job already holds its hiring link; or a draft, which
 * claims no link.
 */
export function createJob(
  w: JobWriter,
  input: JobInput,
  audit?: Audit,
  { draft = false, copyOf }: CreateOptions = {},
): Promise<WriteResult> {
  const problem = jobSizeProblem(input);
  if (problem) return Promise.resolve({ ok: false, reason: "invalid", message: problem });
  return retrying(async () => {
    const linkKey = keys.jobByLink(normaliseHiringLink(input.hiringLink));
    const [metaEntry, linkEntry] = await w.kv.getMany<[JobsMeta, string]>([
      keys.jobsMeta(),
      linkKey,
    ]);
    if (!draft && linkEntry.value) {
      const existingJob = await w.get(linkEntry.value);
      if (existingJob) return { ok: false, reason: "duplicate", existingJob } as const;
    }
    const meta = freshMeta(metaEntry);
    const now = w.now().toISOString();
    meta.lastJobNumber += 1;
    const job: Job = {
      ...withDerived(input),
      _id: newId(w.now()),
      jobId: `JB-${meta.lastJobNumber}`,
      status: draft ? "draft" : "active",
      datePosted: now,
      movedToDumpAt: null,
      createdAt: now,
      updatedAt: now,
    };
    adjustCounts(meta, null, job.status);
    const op = w.kv.atomic();
    if (!draft) op.check(linkEntry);
    writeJob(op, job, null);
    commitMeta(op, metaEntry, meta, [job._id]);
    if (copyOf) audit?.add(op, "job.duplicate", jobTarget(job), { from: copyOf.jobId });
    else {
      audit?.add(op, "job.create", jobTarget(job), {
        hiringLink: job.hiringLink,
        ...(draft ? { status: job.status } : {}),
      });
    }
    return await w.commit(op) ? { ok: true, job } as const : undefined;
  });
}

const COPY_SUFFIX = " (copy)";

/** A copy's role: the original's marked as a copy, cut to fit the role's length limit. */
export function copyRole(role: string): string {
  if (role.endsWith(COPY_SUFFIX)) return role;
  const room = TEXT_LIMITS.role - COPY_SUFFIX.length;
  // A cut never leaves half of a character written as two UTF-16 units.
  const kept = role.length > room ? role.slice(0, room).replace(/[\uD800-\uDBFF]$/, "") : role;
  return `${kept.trimEnd()}${COPY_SUFFIX}`;
}

/**
 * A draft copy of a job in any status: its content with the role marked as a copy, without the
 * expiry date (a new posting gets its own) and with no claim on the hiring link.
 */
export async function duplicateJob(
  w: JobWriter,
  idOrJobId: string,
  audit?: Audit,
): Promise<WriteResult> {
  const original = await w.get(idOrJobId);
  if (!original) return { ok: false, reason: "not_found" };
  const { expiresAt: _own, ...content } = contentOf(original);
  return createJob(w, { ...content, role: copyRole(original.role) }, audit, {
    draft: true,
    copyOf: original,
  });
}

/**
 * Replaces a job's editable fields; an active job may not take another active job's link.
 * `incomplete` says why the input passed only a draft's check: then only a draft takes it.
 */
export function updateJob(
  w: JobWriter,
  idOrJobId: string,
  input: JobInput,
  audit?: Audit,
  incomplete?: string,
): Promise<WriteResult> {
  return changeJob(
    w,
    idOrJobId,
    (job, old) => (incomplete && old.status !== "draft" ? incomplete : jobSizeProblem(job)),
    ({ payOverride: _cleared, expiresAt: _none, ...old }) => ({
      // A pay set by hand or an expiry date left out of the edit is cleared, not kept from before.
      ...old,
      ...withDerived(input),
      updatedAt: w.now().toISOString(),
    }),
    audit &&
      ((op, old, job) =>
        audit.add(op, "job.update", jobTarget(job), changedFields(old, job, ["updatedAt"]))),
  );
}

/**
 * Moves a job to a status. Back to active renews it (datePosted is now, so the 7-day clock
 * restarts, and an expiry date that has passed is dropped: kept, the reopened job would show a
 * closing date gone by and be closed again by the next lifecycle run); to dump stamps
 * movedToDumpAt. A draft moves only to active (it is published): checked fully as a create is,
 * and claiming its link as a create does.
 */
export function setJobStatus(
  w: JobWriter,
  idOrJobId: string,
  status: LifecycleStatus,
  audit?: Audit,
): Promise<WriteResult> {
  return changeJob(
    w,
    idOrJobId,
    (job, old) => {
      if (old.status !== "draft") return recordSizeProblem(job);
      return status === "active"
        ? publishProblem(job, w.now())
        : "A draft can only be published: publish it, or delete it";
    },
    (old) => {
      if (old.status === status) return old;
      const at = w.now();
      const now = at.toISOString();
      const { expiresAt: _passed, ...renewed } = old;
      const expired = old.expiresAt !== undefined && expiryTime(old.expiresAt) <= at.getTime();
      return {
        ...(status === "active" && old.status !== "draft" && expired ? renewed : old),
        status,
        datePosted: status === "active" ? now : old.datePosted,
        movedToDumpAt: status === "dump" ? now : old.movedToDumpAt,
        updatedAt: now,
      };
    },
    audit && ((op, old, job) => {
      // The log says when a reopening dropped the passed expiry date.
      const dropped = old.expiresAt !== job.expiresAt;
      audit.add(op, "job.status", jobTarget(job), {
        before: { status: old.status, ...(dropped ? { expiresAt: old.expiresAt } : {}) },
        after: { status: job.status, ...(dropped ? { expiresAt: null } : {}) },
      });
    }),
  );
}

/**
 * Rewrites a job as `next` makes it, unless `problem` finds the change cannot be made (a record
 * too large, a draft incomplete); `record` adds the change's activity record to its atomic write.
 */
function changeJob(
  w: JobWriter,
  idOrJobId: string,
  problem: (job: Job, old: Job) => string | null,
  next: (old: Job) => Job,
  record?: (op: Deno.AtomicOperation, old: Job, job: Job) => void,
): Promise<WriteResult> {
  return retrying(async () => {
    const found = await w.get(idOrJobId);
    if (!found) return { ok: false, reason: "not_found" } as const;
    const [metaEntry, jobEntry] = await w.kv.getMany<[JobsMeta, StoredJob]>([
      keys.jobsMeta(),
      keys.job(found._id),
    ]);
    if (!jobEntry.value) return { ok: false, reason: "not_found" } as const;
    const old = withoutVersion(jobEntry.value);
    const job = next(old);
    if (job === old) return { ok: true, job } as const;
    const why = problem(job, old);
    if (why) return { ok: false, reason: "invalid", message: why } as const;
    const op = w.kv.atomic().check(jobEntry);
    if (job.status === "active") {
      const linkKey = keys.jobByLink(normaliseHiringLink(job.hiringLink));
      const linkEntry = await w.kv.get<string>(linkKey);
      if (linkEntry.value && linkEntry.value !== job._id) {
        const existingJob = await w.get(linkEntry.value);
        if (existingJob) return { ok: false, reason: "duplicate", existingJob } as const;
      }
      op.check(linkEntry);
    }
    const [oldHoldsLink] = await holdsLink(w.kv, [old]);
    const meta = freshMeta(metaEntry);
    adjustCounts(meta, old.status, job.status);
    writeJob(op, job, old, oldHoldsLink);
    commitMeta(op, metaEntry, meta, [job._id]);
    record?.(op, old, job);
    return await w.commit(op) ? { ok: true, job } as const : undefined;
  });
}

/** Deletes a job with its indexes and counters; false when there was none. */
export function deleteJob(w: JobWriter, idOrJobId: string, audit?: Audit): Promise<Job | null> {
  return retrying(async () => {
    const found = await w.get(idOrJobId);
    if (!found) return null;
    const [metaEntry, jobEntry] = await w.kv.getMany<[JobsMeta, StoredJob]>([
      keys.jobsMeta(),
      keys.job(found._id),
    ]);
    if (!jobEntry.value) return null;
    const job = withoutVersion(jobEntry.value);
    const [heldLink] = await holdsLink(w.kv, [job]);
    const meta = freshMeta(metaEntry);
    adjustCounts(meta, job.status, null);
    const op = w.kv.atomic().check(jobEntry);
    unindexJob(op, job, heldLink);
    op.delete(keys.job(job._id)).delete(keys.jobByJobId(job.jobId))
      .delete(keys.jobCounter(job._id, "views")).delete(keys.jobCounter(job._id, "clicks"));
    commitMeta(op, metaEntry, meta, [job._id]);
    audit?.add(op, "job.delete", jobTarget(job), { job });
    return await w.commit(op) ? job : undefined;
  });
}
