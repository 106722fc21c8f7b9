/**
 * How a job lies in KV: its record, its index entries (by status, date, move to dump, readable
 * id, hiring link), and the `jobs_meta` record (revision, jobId sequence, status counts) that every
 * job write bumps with a versionstamp check, so status counts never drift, a hiring link can be
 * claimed by only one active job, and caches in every process learn which jobs changed.
 */
import { keys } from "../keys.ts";
import { getAll } from "../atomic.ts";
import { DAY_MS } from "../constants.ts";
import type { Job, JobStatus } from "../schemas.ts";
import type { ActivityTarget } from "../activity.ts";
import type { AdminEntry } from "../search/admin.ts";
import { normaliseHiringLink } from "./validate.ts";
import { stamped } from "./version.ts";
import { expiryTime } from "./expiry.ts";

/** What the job writes need of the store: its KV, its clock, reads, and its commit. */
export interface JobWriter {
  readonly kv: Deno.Kv;
  now(): Date;
  get(idOrJobId: string): Promise<Job | null>;
  /** Commits a job write; requests after it read the revision it made. */
  commit(op: Deno.AtomicOperation): Promise<boolean>;
}

export interface StatusCounts {
  all: number;
  active: number;
  dump: number;
  inactive: number;
  draft: number;
}

export interface JobsMeta {
  revision: number;
  lastJobNumber: number;
  counts: Omit<StatusCounts, "all">;
}

/** What an index entry carries so admin lists can filter without reading every job. */
export interface JobIndexEntry {
  role: string;
  companyName: string;
  location: string;
  jobId: string;
}

export type WriteResult =
  | { ok: true; job: Job }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "duplicate"; existingJob: Job }
  /** The job cannot be written so: too large to store, or a draft not ready to publish. */
  | { ok: false; reason: "invalid"; message: string };

const EMPTY_META: JobsMeta = {
  revision: 0,
  lastJobNumber: 1000,
  counts: { active: 0, dump: 0, inactive: 0, draft: 0 },
};

/** How long each revision's change list is kept for other processes to catch up from. */
const CHANGE_LOG_TTL_MS = DAY_MS;

/** A stored date as milliseconds, 0 for none. */
export const timeOf = (iso: string | null) => (iso ? Date.parse(iso) : 0);

export function indexEntry(job: Job): JobIndexEntry {
  return {
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    jobId: job.jobId,
  };
}

export function adminEntry(job: Job): AdminEntry {
  return {
    id: job._id,
    jobId: job.jobId,
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    status: job.status,
    posted: timeOf(job.datePosted),
    moved: timeOf(job.movedToDumpAt),
  };
}

export function adjustCounts(meta: JobsMeta, from: JobStatus | null, to: JobStatus | null): void {
  if (from) meta.counts[from] = Math.max(0, meta.counts[from] - 1);
  if (to) meta.counts[to] += 1;
}

/**
 * Adds the index writes of `job` (the new state) and removes those of `old` to an atomic op;
 * `oldHoldsLink` says whether `old` holds its hiring link's claim (see `holdsLink`), and
 * `claimLink` whether `job` takes its own (an active job does, but for the one case `holdsLink`
 * describes).
 */
export function writeJob(
  op: Deno.AtomicOperation,
  job: Job,
  old: Job | null,
  oldHoldsLink = false,
  claimLink = job.status === "active",
): void {
  if (old) unindexJob(op, old, oldHoldsLink);
  const record = stamped(job);
  op.set(keys.job(job._id), record);
  op.set(keys.jobByJobId(job.jobId), job._id);
  const entry = indexEntry(job);
  const posted = timeOf(job.datePosted);
  // Active jobs carry the whole record in their index, so the public catalogue loads in one scan.
  op.set(keys.jobByStatus(job.status, posted, job._id), job.status === "active" ? record : entry);
  op.set(keys.jobByDate(posted, job._id), entry);
  if (job.status === "dump") op.set(keys.jobDumpByMoved(timeOf(job.movedToDumpAt), job._id), entry);
  const expiry = expiryKey(job);
  if (expiry) op.set(expiry, job._id);
  if (claimLink) op.set(keys.jobByLink(normaliseHiringLink(job.hiringLink)), job._id);
}

/**
 * The lifecycle's entry for a job that an expiry closes: only active and dump jobs have one (a
 * draft's date is checked when it is published).
 */
export function expiryKey(job: Job): Deno.KvKey | null {
  return job.expiresAt && (job.status === "active" || job.status === "dump")
    ? keys.jobByExpiry(expiryTime(job.expiresAt), job._id)
    : null;
}

/** How the activity log names a job. */
export function jobTarget(job: Job): ActivityTarget {
  return { kind: "job", id: job._id, jobId: job.jobId, label: `${job.role} at ${job.companyName}` };
}

/** Removes a job's index entries; its link claim only when it holds it (see `holdsLink`). */
export function unindexJob(op: Deno.AtomicOperation, job: Job, heldLink: boolean): void {
  const posted = timeOf(job.datePosted);
  op.delete(keys.jobByStatus(job.status, posted, job._id));
  op.delete(keys.jobByDate(posted, job._id));
  if (job.status === "dump") op.delete(keys.jobDumpByMoved(timeOf(job.movedToDumpAt), job._id));
  const expiry = expiryKey(job);
  if (expiry) op.delete(expiry);
  if (heldLink) op.delete(keys.jobByLink(normaliseHiringLink(job.hiringLink)));
}

/**
 * Which of these jobs hold their hiring link's claim. An active job normally does; one whose link
 * became the same as an older active job's when links took their canonical spelling does not, and
 * its writes must leave the other job's claim alone. Read after `jobs_meta`, whose check in the
 * same write keeps the answer true until the commit.
 */
export async function holdsLink(kv: Deno.Kv, jobs: readonly Job[]): Promise<boolean[]> {
  const active = jobs.filter((job) => job.status === "active");
  const claims = await getAll<string>(
    kv,
    active.map((job) => keys.jobByLink(normaliseHiringLink(job.hiringLink))),
  );
  const holders = new Set(active.flatMap((job, i) => claims[i].value === job._id ? [job._id] : []));
  return jobs.map((job) => holders.has(job._id));
}

/** The revision each pending job write makes, for the store to follow its own writes at once. */
const revisions = new WeakMap<Deno.AtomicOperation, number>();

/** The revision `op` makes when it commits, if it is a job write. */
export const revisionOf = (op: Deno.AtomicOperation): number | undefined => revisions.get(op);

/** Bumps the revision and records which jobs it changed, so caches in any process can catch up. */
export function commitMeta(
  op: Deno.AtomicOperation,
  metaEntry: Deno.KvEntryMaybe<JobsMeta>,
  meta: JobsMeta,
  changedIds: string[],
): void {
  meta.revision += 1;
  revisions.set(op, meta.revision);
  op.check(metaEntry).set(keys.jobsMeta(), meta).set(keys.jobsChange(meta.revision), changedIds, {
    expireIn: CHANGE_LOG_TTL_MS,
  });
}

export function freshMeta(entry: Deno.KvEntryMaybe<JobsMeta>): JobsMeta {
  const value = entry.value ?? EMPTY_META;
  // Counts stored before drafts existed have none.
  return { ...value, counts: { ...EMPTY_META.counts, ...value.counts } };
}
