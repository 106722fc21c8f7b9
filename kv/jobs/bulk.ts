/**
 * Many new jobs at once: the admin's bulk upload (every row checked before any is written) and
 * the import of complete jobs (the demo seed, benchmarks), written in as few atomic operations as
 * KV's limits on mutations, key bytes and size allow, each job whole within one.
 */
import { keys } from "../keys.ts";
import {
  ATOMIC_BYTES_BUDGET,
  ATOMIC_KEY_BYTES_BUDGET,
  ATOMIC_MUTATIONS_BUDGET,
  getAll,
  kvKeySize,
  kvValueSize,
  newId,
  retrying,
} from "../atomic.ts";
import type { Job, JobInput } from "../schemas.ts";
import type { Audit } from "../activity.ts";
import {
  duplicateMessage,
  LONGEST_SYSTEM_FIELDS,
  normaliseHiringLink,
  validateJob,
} from "./validate.ts";
import {
  adjustCounts,
  commitMeta,
  expiryKey,
  freshMeta,
  indexEntry,
  type JobIndexEntry,
  type JobsMeta,
  type JobWriter,
  timeOf,
  writeJob,
} from "./records.ts";
import { stamped, type StoredJob, withoutVersion } from "./version.ts";

/** A row of a bulk upload that became a job. */
export interface BulkCreated {
  index: number;
  _id: string;
  jobId: string;
  role: string;
  companyName: string;
}

/**
 * A row whose hiring link is taken: by an active job (`existingJob`) or by an earlier row of the
 * same upload (`existingJob` null, the message names the row).
 */
export interface BulkDuplicate {
  index: number;
  hiringLink: string;
  existingJob: Job | null;
  message: string;
}

/** A row that was not created, and why (naming the fields at fault). */
export interface BulkError {
  index: number;
  message: string;
}

/** What a bulk upload did with each row, each list in row order. */
export interface BulkResult {
  created: BulkCreated[];
  duplicates: BulkDuplicate[];
  errors: BulkError[];
}

/** What a write adds to an atomic operation, in the measures KV limits. */
interface WriteCost {
  mutations: number;
  keyBytes: number;
  /** Values plus twice the keys: KV counts each key twice towards an operation's total size. */
  bytes: number;
}

/** What every batch of new jobs writes once: the meta record and its check, the change list, a record. */
const BATCH_COST: WriteCost = { mutations: 4, keyBytes: 256, bytes: 4_096 };

/**
 * At least what V8 takes for an index entry, without serialising it (a bulk write sizes thousands):
 * each text at most two bytes a character plus its tag, length and alignment, and room for the
 * field names and the object's own framing.
 */
function indexEntryBound(entry: JobIndexEntry): number {
  return Object.values(entry).reduce((sum, text) => sum + 2 * text.length + 8, 96);
}

/**
 * What writing one new job costs: its record, index entries, link claim and history entry, each key
 * as KV encodes it, measured with the longest job number it could be given; plus its id in the
 * batch's change list and activity record.
 */
function newJobCost(job: Omit<Job, "jobId">): WriteCost {
  const numbered: Job = { ...job, jobId: LONGEST_SYSTEM_FIELDS.jobId };
  const posted = timeOf(job.datePosted);
  const record = kvValueSize(stamped(numbered));
  const entry = indexEntryBound(indexEntry(numbered));
  const writes: [Deno.KvKey, number][] = [
    [keys.job(job._id), record],
    [keys.jobByJobId(numbered.jobId), job._id.length + 8],
    [keys.jobByStatus(job.status, posted, job._id), job.status === "active" ? record : entry],
    [keys.jobByDate(posted, job._id), entry],
    [keys.jobActivityEntry(numbered.jobId, LONGEST_SYSTEM_FIELDS._id), 4],
  ];
  if (job.status === "dump") {
    writes.push([keys.jobDumpByMoved(timeOf(job.movedToDumpAt), job._id), entry]);
  }
  const expiry = expiryKey(numbered);
  if (expiry) writes.push([expiry, job._id.length + 8]);
  if (job.status === "active") {
    writes.push([keys.jobByLink(normaliseHiringLink(job.hiringLink)), job._id.length + 8]);
  }
  const keyBytes = writes.reduce((sum, [key]) => sum + kvKeySize(key), 0);
  const values = writes.reduce((sum, [, size]) => sum + size, 0);
  return { mutations: writes.length, keyBytes, bytes: values + 2 * keyBytes + 64 };
}

/**
 * Splits new jobs into batches that each fit one atomic write within KV's limits on mutations, key
 * bytes and total size (kept well inside them). Each job is whole within one batch.
 */
function newJobBatches<T extends { job: Omit<Job, "jobId"> }>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let used = { ...BATCH_COST };
  for (const item of items) {
    const cost = newJobCost(item.job);
    const full = used.mutations + cost.mutations > ATOMIC_MUTATIONS_BUDGET ||
      used.keyBytes + cost.keyBytes > ATOMIC_KEY_BYTES_BUDGET ||
      used.bytes + cost.bytes > ATOMIC_BYTES_BUDGET;
    if (full && batch.length > 0) {
      batches.push(batch);
      batch = [];
      used = { ...BATCH_COST };
    }
    batch.push(item);
    used = {
      mutations: used.mutations + cost.mutations,
      keyBytes: used.keyBytes + cost.keyBytes,
      bytes: used.bytes + cost.bytes,
    };
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * A bulk upload: every row is checked first (its fields and size, its hiring link against the
 * active jobs and against the rows before it), and nothing is written until all are. The valid
 * rows are then written in as few atomic writes as KV's limits allow, each job whole with its
 * indexes, and each write carrying the activity record of the jobs it created, so a write that
 * fails leaves only whole jobs, each with its record. A failed write stops the upload: the rows it
 * and the writes after it held are reported as not created.
 */
export async function bulkCreate(
  w: JobWriter,
  rows: readonly unknown[],
  audit?: Audit,
): Promise<BulkResult> {
  const result: BulkResult = { created: [], duplicates: [], errors: [] };
  const valid: { index: number; input: JobInput; link: string }[] = [];
  const firstRowOf = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    const validation = validateJob(row);
    if (!validation.ok) {
      result.errors.push({ index, message: validation.message });
      continue;
    }
    const link = normaliseHiringLink(validation.job.hiringLink);
    const first = firstRowOf.get(link);
    if (first !== undefined) {
      result.duplicates.push({
        index,
        hiringLink: validation.job.hiringLink,
        existingJob: null,
        message: `Duplicate hiring link! Row ${first + 1} of this upload has the same link`,
      });
      continue;
    }
    firstRowOf.set(link, index);
    valid.push({ index, input: validation.job, link });
  }
  const holders = await linkHolders(w, valid.map((row) => row.link));
  const now = w.now().toISOString();
  const pending = valid.filter((row) => {
    const existingJob = holders.get(row.link);
    if (existingJob) {
      result.duplicates.push({
        index: row.index,
        hiringLink: row.input.hiringLink,
        existingJob,
        message: duplicateMessage(existingJob),
      });
    }
    return !existingJob;
  }).map((row) => ({
    ...row,
    job: {
      ...row.input,
      _id: newId(w.now()),
      status: "active",
      datePosted: now,
      movedToDumpAt: null,
      createdAt: now,
      updatedAt: now,
    } satisfies Omit<Job, "jobId">,
  }));
  const batches = newJobBatches(pending);
  const counts = { rows: rows.length, duplicates: result.duplicates.length };
  for (const [part, batch] of batches.entries()) {
    try {
      const { written, taken } = await writeNew(w, batch, {
        claimLinks: true,
        record: audit && ((op, jobs) => {
          const createdJobIds = jobs.map((job) => job.jobId);
          audit.add(op, "jobs.bulk_upload", {
            kind: "jobs",
            id: null,
            label: `${jobs.length} job${
              jobs.length === 1 ? "" : "s"
            } created from ${rows.length} uploaded row${rows.length === 1 ? "" : "s"}${
              batches.length > 1 ? ` (part ${part + 1} of ${batches.length})` : ""
            }`,
          }, {
            rows: counts.rows,
            created: jobs.length,
            duplicates: counts.duplicates,
            errors: result.errors.length,
            createdJobIds,
            ...(batches.length > 1 ? { part: part + 1, parts: batches.length } : {}),
          }, createdJobIds);
        }),
      });
      for (const { item, job } of written) {
        result.created.push({
          index: item.index,
          _id: job._id,
          jobId: job.jobId,
          role: job.role,
          companyName: job.companyName,
        });
      }
      for (const { item, existingJob } of taken) {
        result.duplicates.push({
          index: item.index,
          hiringLink: item.input.hiringLink,
          existingJob,
          message: duplicateMessage(existingJob),
        });
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      for (const row of batches.slice(part).flat()) {
        result.errors.push({
          index: row.index,
          message:
            `Not created: the database failed while writing this row (${reason}). Upload it again.`,
        });
      }
      break;
    }
  }
  const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
  result.created.sort(byIndex);
  result.duplicates.sort(byIndex);
  result.errors.sort(byIndex);
  return result;
}

/** The active job holding each of these claim keys (normalised links), where one does. */
async function linkHolders(w: JobWriter, links: readonly string[]): Promise<Map<string, Job>> {
  const pointers = await getAll<string>(w.kv, links.map((link) => keys.jobByLink(link)));
  const claimed = pointers.flatMap((entry, i) =>
    entry.value ? [{ link: links[i], id: entry.value }] : []
  );
  const jobs = await getAll<StoredJob>(w.kv, claimed.map(({ id }) => keys.job(id)));
  return new Map(claimed.flatMap(({ link }, i) => {
    const job = jobs[i].value;
    return job ? [[link, withoutVersion(job)] as const] : [];
  }));
}

/**
 * Numbers and writes one batch of new jobs in one atomic write (with `record` adding its activity
 * record). With `claimLinks`, active jobs whose links were claimed meanwhile are left out and
 * returned as `taken`; the check on `jobs_meta`, which every job write makes, keeps a link from
 * being claimed between that read and the commit.
 */
function writeNew<T extends { job: Omit<Job, "jobId">; link?: string }>(
  w: JobWriter,
  batch: readonly T[],
  options: {
    claimLinks?: boolean;
    record?: (op: Deno.AtomicOperation, jobs: Job[]) => void;
  } = {},
): Promise<{ written: { item: T; job: Job }[]; taken: { item: T; existingJob: Job }[] }> {
  return retrying(async () => {
    const metaEntry = await w.kv.get<JobsMeta>(keys.jobsMeta());
    const holders = options.claimLinks
      ? await linkHolders(
        w,
        batch.map((item) => item.link ?? normaliseHiringLink(item.job.hiringLink)),
      )
      : new Map<string, Job>();
    const taken: { item: T; existingJob: Job }[] = [];
    const free = batch.filter((item) => {
      const existingJob = holders.get(item.link ?? normaliseHiringLink(item.job.hiringLink));
      if (existingJob) taken.push({ item, existingJob });
      return !existingJob;
    });
    if (free.length === 0) return { written: [], taken };
    const meta = freshMeta(metaEntry);
    const op = w.kv.atomic();
    const written = free.map((item) => ({
      item,
      job: { ...item.job, jobId: `JB-${++meta.lastJobNumber}` },
    }));
    for (const { job } of written) {
      adjustCounts(meta, null, job.status);
      writeJob(op, job, null);
    }
    const jobs = written.map(({ job }) => job);
    commitMeta(op, metaEntry, meta, jobs.map((job) => job._id));
    options.record?.(op, jobs);
    return await w.commit(op) ? { written, taken } : undefined;
  });
}

/**
 * Writes many complete jobs (the demo seed, benchmarks) in as few atomic operations as the limits
 * allow, numbering them and keeping indexes and counts exact. Hiring links of active jobs must
 * already be unique.
 */
export async function importJobs(w: JobWriter, jobs: Omit<Job, "jobId">[]): Promise<Job[]> {
  const written: Job[] = [];
  for (const batch of newJobBatches(jobs.map((job) => ({ job })))) {
    const done = await writeNew(w, batch);
    written.push(...done.written.map(({ job }) => job));
  }
  return written;
}
