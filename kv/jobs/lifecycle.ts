/**
 * The job lifecycle: active for `DAYS_ACTIVE_BEFORE_DUMP` days goes to dump, in the dump for
 * `DAYS_IN_DUMP_BEFORE_INACTIVE` days goes to inactive (`kv/constants.ts`), an active or dump job
 * past its expiry date goes to inactive, in batches that fit KV's limits, each job moved
 * exactly once however many processes run it at once.
 */
import { keys } from "../keys.ts";
import {
  ATOMIC_BYTES_BUDGET,
  ATOMIC_MUTATIONS_BUDGET,
  ConflictError,
  getAll,
  kvValueSize,
  retrying,
} from "../atomic.ts";
import type { Job, JobStatus } from "../schemas.ts";
import { DAY_MS, DAYS_ACTIVE_BEFORE_DUMP, DAYS_IN_DUMP_BEFORE_INACTIVE } from "../constants.ts";
import type { Audit } from "../activity.ts";
import { recordSizeProblem } from "./validate.ts";
import {
  adjustCounts,
  commitMeta,
  freshMeta,
  holdsLink,
  type JobsMeta,
  type JobWriter,
  timeOf,
  writeJob,
} from "./records.ts";
import { stamped, type StoredJob, withoutVersion } from "./version.ts";
import { expiryTime } from "./expiry.ts";

/** Jobs read per lifecycle step; their moves are written in as few atomic writes as fit. */
const LIFECYCLE_BATCH = 120;

/**
 * Expired jobs close first; then active for its days goes to dump and its days in the dump go to
 * inactive (an expired job counts among `movedToInactive`). Each batch commits with a check on
 * `jobs_meta`, so when several processes run this at once each job moves exactly once and the
 * counts report only what this call moved. With `audit`, each batch's write carries a record of
 * the jobs it moved.
 */
export async function processStatusChanges(
  w: JobWriter,
  audit?: Audit,
): Promise<{ movedToDump: number; movedToInactive: number }> {
  const now = w.now();
  const expired = await moveDue(
    w,
    keys.jobsByExpiry(),
    now.getTime() - 1,
    (job) => hasExpired(job, now) ? lifecycleMove(job, now) : null,
    audit,
    "expired",
  );
  // A job this run found expired but could not move is left to the next run, not sent to dump.
  const move = (job: Job) => hasExpired(job, now) ? null : lifecycleMove(job, now);
  const movedToDump = await moveDue(
    w,
    keys.jobsByStatus("active"),
    now.getTime() - DAYS_ACTIVE_BEFORE_DUMP * DAY_MS,
    move,
    audit,
  );
  const aged = await moveDue(
    w,
    keys.jobsDumpByMoved(),
    now.getTime() - DAYS_IN_DUMP_BEFORE_INACTIVE * DAY_MS,
    move,
    audit,
  );
  return { movedToDump, movedToInactive: expired + aged };
}

/** Whether `job`, active or in dump, is past the end of its expiry day at `now`. */
function hasExpired(job: Job, now: Date): boolean {
  return (job.status === "active" || job.status === "dump") && job.expiresAt !== undefined &&
    expiryTime(job.expiresAt) < now.getTime();
}

/**
 * Where the lifecycle moves `job` at `now`: an active or dump job past its expiry date goes to
 * inactive; an active job posted `DAYS_ACTIVE_BEFORE_DUMP` days ago or more goes to dump (stamped
 * with the move), a job in dump for `DAYS_IN_DUMP_BEFORE_INACTIVE` days or more goes to inactive;
 * null when it stays.
 */
export function lifecycleMove(job: Job, now: Date): Job | null {
  const at = now.toISOString();
  const ago = (days: number) => now.getTime() - days * DAY_MS;
  if (hasExpired(job, now)) return { ...job, status: "inactive", updatedAt: at };
  if (job.status === "active" && timeOf(job.datePosted) <= ago(DAYS_ACTIVE_BEFORE_DUMP)) {
    return { ...job, status: "dump", movedToDumpAt: at, updatedAt: at };
  }
  if (job.status === "dump" && timeOf(job.movedToDumpAt) <= ago(DAYS_IN_DUMP_BEFORE_INACTIVE)) {
    return { ...job, status: "inactive", updatedAt: at };
  }
  return null;
}

async function moveDue(
  w: JobWriter,
  prefix: Deno.KvKey,
  cutoffMs: number,
  move: (job: Job) => Job | null,
  audit?: Audit,
  reason?: "expired",
): Promise<number> {
  let moved = 0;
  // Paged by cursor, not from the range's start again: a job that was skipped stays in the range.
  let cursor: string | undefined;
  do {
    const entries = w.kv.list({ start: [...prefix], end: [...prefix, cutoffMs + 1] }, {
      limit: LIFECYCLE_BATCH,
      cursor,
    });
    const ids: string[] = [];
    for await (const entry of entries) ids.push(entry.key[entry.key.length - 1] as string);
    // A page shorter than the limit was the last (its cursor then starts over).
    cursor = ids.length === LIFECYCLE_BATCH ? entries.cursor : undefined;
    moved += await moveJobs(w, ids, move, audit, reason);
  } while (cursor);
  return moved;
}

/**
 * Moves the due jobs among `ids` in as few writes as the limits allow. A job that cannot be
 * written is logged and skipped: once a write fails, the jobs go one at a time, so only that one
 * stays behind and every other job moves.
 */
async function moveJobs(
  w: JobWriter,
  ids: string[],
  move: (job: Job) => Job | null,
  audit?: Audit,
  reason?: "expired",
): Promise<number> {
  let moved = 0;
  let rest = ids;
  let alone = false;
  while (rest.length > 0) {
    const batch = alone ? rest.slice(0, 1) : rest;
    try {
      const done = await retrying(() => moveBatch(w, batch, move, audit, reason));
      moved += done.moved;
      rest = rest.slice(done.handled);
    } catch (error) {
      if (error instanceof ConflictError) throw error;
      if (alone) {
        console.error(`The job lifecycle skipped job ${rest[0]}: ${(error as Error).message}`);
        rest = rest.slice(1);
      }
      alone = true;
    }
  }
  return moved;
}

/** One atomic write moving the due jobs at the start of `ids`; says how many ids it handled. */
async function moveBatch(
  w: JobWriter,
  ids: string[],
  move: (job: Job) => Job | null,
  audit?: Audit,
  reason?: "expired",
): Promise<{ moved: number; handled: number } | undefined> {
  const metaEntry = await w.kv.get<JobsMeta>(keys.jobsMeta());
  const entries = await getAll<StoredJob>(w.kv, ids.map((id) => keys.job(id)));
  const olds = entries.flatMap(({ value }) => value ? [withoutVersion(value)] : []);
  const held = await holdsLink(w.kv, olds);
  const holding = new Set(olds.filter((_, i) => held[i]).map((job) => job._id));
  const meta = freshMeta(metaEntry);
  const op = w.kv.atomic();
  const changed: string[] = [];
  const jobIds: string[] = [];
  let to: JobStatus | null = null;
  let bytes = 0;
  let handled = 0;
  for (const { value } of entries) {
    const old = value && withoutVersion(value);
    const job = old && move(old);
    if (!old || !job) {
      handled++;
      continue;
    }
    const problem = recordSizeProblem(job);
    if (problem) {
      console.error(`The job lifecycle skipped job ${job.jobId} (${job._id}): ${problem}`);
      handled++;
      continue;
    }
    // The record, its index entries and keys; a move is at most ten mutations.
    bytes += kvValueSize(stamped(job)) + 1_024;
    const full = bytes > ATOMIC_BYTES_BUDGET ||
      (changed.length + 1) * 10 + 2 > ATOMIC_MUTATIONS_BUDGET;
    if (full && changed.length > 0) break;
    adjustCounts(meta, old.status, job.status);
    writeJob(op, job, old, holding.has(old._id));
    changed.push(job._id);
    jobIds.push(job.jobId);
    to = job.status;
    handled++;
  }
  if (changed.length === 0) return { moved: 0, handled };
  commitMeta(op, metaEntry, meta, changed);
  const jobs = `${changed.length}${reason ? ` ${reason}` : ""} job${
    changed.length === 1 ? "" : "s"
  }`;
  audit?.add(op, "jobs.lifecycle", { kind: "jobs", id: null, label: `${jobs} to ${to}` }, {
    to,
    moved: changed.length,
    jobIds,
    ...(reason ? { reason } : {}),
  });
  return await w.commit(op) ? { moved: changed.length, handled } : undefined;
}
