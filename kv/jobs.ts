/**
 * Jobs in Deno KV. Every job write goes through one atomic operation that also rewrites the job's
 * index entries and the `jobs_meta` record (revision, jobId sequence, status counts) with a
 * versionstamp check on that record, so status counts never drift, a hiring link can be claimed by
 * only one active job, and the lifecycle moves each job exactly once however many processes run it.
 */
import { keys } from "./keys.ts";
import {
  ATOMIC_BYTES_BUDGET,
  ATOMIC_KEY_BYTES_BUDGET,
  ATOMIC_MUTATIONS_BUDGET,
  ConflictError,
  getAll,
  KV_KEY_BYTES,
  KV_VALUE_BYTES,
  kvKeySize,
  kvValueSize,
  newId,
  readBackSize,
  retrying,
  sharedRead,
} from "./atomic.ts";
import {
  canonicalHiringLink,
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  type Job,
  type JobAnalytics,
  type JobInput,
  type JobStatus,
  type JobValidation,
  type JobWithAnalytics,
  validateJobInput,
} from "./schemas.ts";
import {
  CARD_DESCRIPTION_CUT,
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "./constants.ts";
import { type ActivityTarget, type Audit, changedFields } from "./activity.ts";
import { type IndexedDoc, SearchIndex } from "./search/index.ts";
import { type AdminEntry, AdminIndex } from "./search/admin.ts";
import { type Facets, MAX_ROLE_OPTIONS, searchJobs, similarJobs } from "./search/search.ts";
import { topK } from "./search/top.ts";
import { BoundedCache, CACHE_BUDGETS } from "./bounded-cache.ts";
import { type Loosenable, looserSearch } from "./search/looser.ts";

export interface StatusCounts {
  all: number;
  active: number;
  dump: number;
  inactive: number;
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

export interface AdminListPage {
  jobs: Job[];
  pagination: Pagination;
  statusCounts: StatusCounts;
}

export interface Pagination {
  currentPage: number;
  totalJobs: number;
  totalPages: number;
  hasPrev: boolean;
  hasNext: boolean;
  limit: number;
}

/** `fresh`: read the revision now rather than share a read up to REVISION_MAX_AGE_MS old. */
export interface Freshness {
  fresh?: boolean;
}

export type WriteResult =
  | { ok: true; job: Job }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "duplicate"; existingJob: Job }
  | { ok: false; reason: "too_large"; message: string };

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

const EMPTY_META: JobsMeta = {
  revision: 0,
  lastJobNumber: 1000,
  counts: { active: 0, dump: 0, inactive: 0 },
};

/** What one job's remembered totals cost: its id and a two-number record. */
const TOTALS_ENTRY_BYTES = 96;
/** How long each revision's change list is kept for other processes to catch up from. */
const CHANGE_LOG_TTL_MS = DAY_MS;
/** Jobs read and indexed between two pauses of a whole catalogue load (about 10 ms of work). */
const LOAD_BATCH = 200;
/** Jobs read per lifecycle step; their moves are written in as few atomic writes as fit. */
const LIFECYCLE_BATCH = 120;
/**
 * How old a read of the revision may be when a request uses it. Requests within this time of a
 * read's start share it, so another process's job writes show within 10 ms (this process's own at
 * once). One read per request held a cached page to 33k req/s; shared this way it serves 39-43k
 * (wrk, 32 connections, the bench's 2 cores): the reads kept KV's thread busy on the second core.
 */
export const REVISION_MAX_AGE_MS = 10;

/**
 * The key a hiring link claims among active jobs: its canonical spelling. A link stored before links
 * were checked so strictly, and not usable now, keeps its own trimmed spelling.
 */
export function normaliseHiringLink(link: string): string {
  return canonicalHiringLink(link) ?? link.trim();
}

/** Why a hiring link's claim key cannot be stored (KV's key limit, in encoded bytes), or null. */
export function linkKeyProblem(link: string): string | null {
  const size = kvKeySize(keys.jobByLink(normaliseHiringLink(link)));
  if (size <= KV_KEY_BYTES) return null;
  const most = KV_KEY_BYTES - kvKeySize(keys.jobByLink(""));
  return `hiringLink: is too long: ${
    (size - kvKeySize(keys.jobByLink(""))).toLocaleString("en-US")
  } bytes once encoded, at most ${
    most.toLocaleString("en-US")
  } (a character beyond ASCII or a space counts several)`;
}

const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);

/** What an admin reads when a hiring link is already held by an active job. */
export function duplicateMessage(existing: Job): string {
  return `Duplicate hiring link! This link is already used by "${existing.role}" at ${existing.companyName}`;
}

/**
 * Room left in every job record for what later rewrites may add beyond the system fields at their
 * longest: a field added to the record later (a schema version, say), and the byte or so of
 * alignment V8 may put before each text holding a character beyond U+00FF (about 360 texts at most).
 */
const JOB_RECORD_HEADROOM = 2_048;
/** The most a job's record may take when written with its content, as KV measures values. */
export const JOB_RECORD_BYTES = KV_VALUE_BYTES - JOB_RECORD_HEADROOM;

const LONGEST_DATE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)).toISOString();
/** The fields the store sets, each at the longest it can become in any later state of the job. */
const LONGEST_SYSTEM_FIELDS = {
  _id: newId(),
  jobId: `JB-${Number.MAX_SAFE_INTEGER}`,
  status: "inactive",
  datePosted: LONGEST_DATE,
  movedToDumpAt: LONGEST_DATE,
  createdAt: LONGEST_DATE,
  updatedAt: LONGEST_DATE,
} satisfies Record<Exclude<keyof Job, keyof JobInput>, string>;

const bytes = (count: number) => `${count.toLocaleString("en-US")} bytes`;

/** Names the largest content fields, so a too-large job says what to shorten. */
function tooLarge(job: JobInput | Job, size: number, limit: number): string {
  const largest = Object.entries(job)
    .filter(([name]) => !(name in LONGEST_SYSTEM_FIELDS))
    .map(([name, value]) => ({ name, size: readBackSize(value) }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 3);
  return `Job is too large to store: ${bytes(size)}, at most ${bytes(limit)}. Shorten ${
    largest.map((field) => `${field.name} (${bytes(field.size)})`).join(", ")
  }. A text holding a character such as ₹, € or ’ takes 2 bytes a character.`;
}

/**
 * Why a job's content cannot be stored, or null when it can: its hiring link's key must fit, and
 * the record is measured as KV measures it, with every system field at its longest and headroom
 * kept, so each later status change, edit or lifecycle move of the job fits too.
 */
export function jobSizeProblem(job: JobInput | Job): string | null {
  const linkProblem = linkKeyProblem(job.hiringLink);
  if (linkProblem) return linkProblem;
  const size = readBackSize({ ...job, ...LONGEST_SYSTEM_FIELDS });
  return size > JOB_RECORD_BYTES ? tooLarge(job, size, JOB_RECORD_BYTES) : null;
}

/** Why this exact record cannot be written (a record stored before sizes were measured so). */
function recordSizeProblem(job: Job): string | null {
  const linkProblem = job.status === "active" ? linkKeyProblem(job.hiringLink) : null;
  if (linkProblem) return linkProblem;
  const size = readBackSize(job);
  return size > KV_VALUE_BYTES ? tooLarge(job, size, KV_VALUE_BYTES) : null;
}

/** Validates a job body for create, edit or bulk: its fields, then whether it fits in storage. */
export function validateJob(input: unknown): JobValidation {
  const validation = validateJobInput(input);
  if (!validation.ok) return validation;
  const problem = jobSizeProblem(validation.job);
  return problem ? { ok: false, message: problem } : validation;
}

function indexEntry(job: Job): JobIndexEntry {
  return {
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    jobId: job.jobId,
  };
}

function adminEntry(job: Job): AdminEntry {
  return {
    id: job._id,
    jobId: job.jobId,
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    status: job.status,
    posted: time(job.datePosted),
    moved: time(job.movedToDumpAt),
  };
}

function adjustCounts(meta: JobsMeta, from: JobStatus | null, to: JobStatus | null): void {
  if (from) meta.counts[from] = Math.max(0, meta.counts[from] - 1);
  if (to) meta.counts[to] += 1;
}

/** Adds the index writes of `job` (the new state) and removes those of `old` to an atomic op. */
function writeJob(op: Deno.AtomicOperation, job: Job, old: Job | null): void {
  if (old) unindexJob(op, old);
  op.set(keys.job(job._id), job);
  op.set(keys.jobByJobId(job.jobId), job._id);
  const entry = indexEntry(job);
  const posted = time(job.datePosted);
  // Active jobs carry the whole record in their index, so the public catalogue loads in one scan.
  op.set(keys.jobByStatus(job.status, posted, job._id), job.status === "active" ? job : entry);
  op.set(keys.jobByDate(posted, job._id), entry);
  if (job.status === "dump") op.set(keys.jobDumpByMoved(time(job.movedToDumpAt), job._id), entry);
  if (job.status === "active") op.set(keys.jobByLink(normaliseHiringLink(job.hiringLink)), job._id);
}

/** How the activity log names a job. */
function jobTarget(job: Job): ActivityTarget {
  return { kind: "job", id: job._id, jobId: job.jobId, label: `${job.role} at ${job.companyName}` };
}

function unindexJob(op: Deno.AtomicOperation, job: Job): void {
  const posted = time(job.datePosted);
  op.delete(keys.jobByStatus(job.status, posted, job._id));
  op.delete(keys.jobByDate(posted, job._id));
  if (job.status === "dump") op.delete(keys.jobDumpByMoved(time(job.movedToDumpAt), job._id));
  if (job.status === "active") op.delete(keys.jobByLink(normaliseHiringLink(job.hiringLink)));
}

/** Bumps the revision and records which jobs it changed, so caches in any process can catch up. */
function commitMeta(
  op: Deno.AtomicOperation,
  metaEntry: Deno.KvEntryMaybe<JobsMeta>,
  meta: JobsMeta,
  changedIds: string[],
): void {
  meta.revision += 1;
  op.check(metaEntry).set(keys.jobsMeta(), meta).set(keys.jobsChange(meta.revision), changedIds, {
    expireIn: CHANGE_LOG_TTL_MS,
  });
}

function freshMeta(entry: Deno.KvEntryMaybe<JobsMeta>): JobsMeta {
  const value = entry.value ?? EMPTY_META;
  return { ...value, counts: { ...value.counts } };
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
  const posted = time(job.datePosted);
  const record = kvValueSize(numbered);
  const entry = indexEntryBound(indexEntry(numbered));
  const writes: [Deno.KvKey, number][] = [
    [keys.job(job._id), record],
    [keys.jobByJobId(numbered.jobId), job._id.length + 8],
    [keys.jobByStatus(job.status, posted, job._id), job.status === "active" ? record : entry],
    [keys.jobByDate(posted, job._id), entry],
    [keys.jobActivityEntry(numbered.jobId, LONGEST_SYSTEM_FIELDS._id), 4],
  ];
  if (job.status === "dump") {
    writes.push([keys.jobDumpByMoved(time(job.movedToDumpAt), job._id), entry]);
  }
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

export interface AdminListQuery {
  status: JobStatus | "all";
  page: number;
  limit: number;
  search?: string;
  company?: string;
  location?: string;
  sortBy?: "datePosted" | "movedToDumpAt";
  sortOrder?: "asc" | "desc";
}

export interface PublicSearchQuery {
  page: number;
  limit: number;
  keywords?: string;
  location?: string;
  role?: string;
  experience?: string;
  employmentType?: string;
  /** Relevance (the default) ranks keyword matches; without keywords it is newest first. */
  sortBy?: "relevance" | "datePosted" | "companyName" | "role";
  sortOrder?: "asc" | "desc";
}

export interface FilterOptions {
  roles: string[];
  locations: string[];
  companies: string[];
  experienceOptions: string[];
  employmentTypes: string[];
}

/**
 * A job as the lists show it: its description cut to what a card shows, its repeated texts (a
 * company, a city, a skill) shared with every other job holding them. The whole record is read
 * from KV where it is shown whole (the job's page, the API, the feed).
 */
export type ListedJob = Job;

/** Characters of a description a list keeps: one more than a card shows, so the card still cuts. */
const LISTED_DESCRIPTION = CARD_DESCRIPTION_CUT + 1;

interface CachedJob {
  job: ListedJob;
}

/** One copy of each repeated text of the catalogue (and of each repeated list of texts). */
class SharedTexts {
  private texts = new Map<string, string>();
  private lists = new Map<string, string[]>();

  text<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const known = this.texts.get(value);
    if (known !== undefined) return known as T;
    this.texts.set(value, value);
    return value;
  }

  list(values: string[]): string[] {
    const key = values.join("\u0000");
    let known = this.lists.get(key);
    if (!known) {
      known = values.map((value) => this.text(value));
      this.lists.set(key, known);
    }
    return known;
  }

  /** The job as a list holds it. */
  listed(job: Job): ListedJob {
    // Cut by characters as a card counts them; most text has no pair of UTF-16 halves to respect.
    const start = job.description.slice(0, LISTED_DESCRIPTION * 2);
    const cut = /[\uD800-\uDBFF]/.test(start)
      ? Array.from(start).slice(0, LISTED_DESCRIPTION).join("")
      : start.slice(0, LISTED_DESCRIPTION);
    const skills = {} as Job["skills"];
    for (const [group, values] of Object.entries(job.skills)) {
      skills[group as keyof Job["skills"]] = this.list(values);
    }
    return {
      ...job,
      companyName: this.text(job.companyName),
      companyLogo: this.text(job.companyLogo),
      role: this.text(job.role),
      location: this.text(job.location),
      experience: this.text(job.experience),
      employmentType: this.text(job.employmentType),
      description: this.text(cut),
      requiredDegree: this.text(job.requiredDegree),
      estPackage: this.text(job.estPackage),
      status: this.text(job.status),
      skills,
      keywords: this.list(job.keywords),
    };
  }
}

/** What the search index takes from a job. */
export function indexedJob(job: Job): IndexedDoc {
  return {
    id: job._id,
    posted: time(job.datePosted),
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    skills: [...Object.values(job.skills).flat(), ...job.keywords],
    description: `${job.description}\n${job.requiredDegree}`,
    experience: job.experience,
    employmentType: job.employmentType,
  };
}

/** A list in date order with no words or filters: KV's date-ordered index answers it alone. */
function plainList(query: PublicSearchQuery): boolean {
  const { keywords, location, role, experience, employmentType } = query;
  const sortBy = query.sortBy ?? "relevance";
  return !keywords?.trim() && !location?.trim() && !role && !experience && !employmentType &&
    (sortBy === "relevance" || sortBy === "datePosted");
}

/** A page of the public search, with the counts of each dropdown's options. */
export interface SearchPage {
  jobs: Job[];
  pagination: Pagination;
  facets: Facets;
}

/** The active jobs held in memory for public reads, valid for one revision of `jobs_meta`. */
export class ActiveCatalog {
  readonly byId = new Map<string, CachedJob>();
  private newestFirst: CachedJob[] | null = null;
  private sorted = new Map<string, CachedJob[]>();
  private options: FilterOptions | null = null;
  /** The search index of these jobs, following every change (put, remove) in place. */
  private index = new SearchIndex();
  private readonly texts = new SharedTexts();

  constructor(public revision: number) {}

  /** The admin search over jobs in every status, built at the first admin search. */
  admin: Promise<AdminIndex> | null = null;

  /** Takes in a job's whole record: the index reads all its text, the list keeps what lists show. */
  put(job: Job) {
    const listed = this.texts.listed(job);
    this.byId.set(job._id, { job: listed });
    this.index.put(indexedJob(job));
  }

  /** Follows a change: the job's record as it is now, or null when it was deleted. */
  apply(id: string, job: Job | null) {
    if (job?.status === "active") this.put(job);
    else {
      this.byId.delete(id);
      this.index.remove(id);
    }
    this.admin?.then((admin) => job ? admin.put(adminEntry(job)) : admin.remove(id));
  }

  invalidate() {
    this.newestFirst = null;
    this.sorted.clear();
    this.options = null;
    // Removed and replaced jobs stay in the index as dead entries; once they outnumber the live
    // ones, dropping them halves memory and work.
    if (this.index.wasteful) this.index.compact();
  }

  /** Active jobs, newest first (ties by id so the order is stable across processes). */
  list(
    sortBy: "datePosted" | "companyName" | "role" = "datePosted",
    order: "asc" | "desc" = "desc",
  ) {
    const name = `${sortBy}:${order}`;
    let list = this.sorted.get(name);
    if (list) return list;
    if (!this.newestFirst) {
      this.newestFirst = [...this.byId.values()].sort((a, b) =>
        time(b.job.datePosted) - time(a.job.datePosted) || (b.job._id < a.job._id ? -1 : 1)
      );
    }
    if (sortBy === "datePosted") {
      list = order === "desc" ? this.newestFirst : [...this.newestFirst].reverse();
    } else {
      const collator = new Intl.Collator("en", { sensitivity: "base" });
      const sign = order === "asc" ? 1 : -1;
      list = [...this.newestFirst].sort((a, b) =>
        sign * collator.compare(a.job[sortBy], b.job[sortBy])
      );
    }
    this.sorted.set(name, list);
    return list;
  }

  /** One page of a search, in the asked order, with the counts of each dropdown's options. */
  page(query: PublicSearchQuery): SearchPage {
    const sortBy = query.sortBy ?? "relevance";
    const answer = searchJobs(this.index, {
      keywords: query.keywords,
      location: query.location,
      role: query.role,
      experience: query.experience,
      employmentType: query.employmentType,
      order: sortBy === "relevance" ? "relevance" : query.sortOrder === "asc" ? "oldest" : "newest",
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const jobOf = (id: string) => this.byId.get(id)!.job;
    let jobs: Job[];
    if (sortBy === "companyName" || sortBy === "role") {
      const collator = new Intl.Collator("en", { sensitivity: "base" });
      const sign = query.sortOrder === "asc" ? 1 : -1;
      const offset = (query.page - 1) * query.limit;
      jobs = Array.from(answer.docs, (doc) => jobOf(this.index.ids[doc])).sort((a, b) =>
        sign * collator.compare(a[sortBy], b[sortBy]) ||
        time(b.datePosted) - time(a.datePosted) || (b._id < a._id ? -1 : 1)
      ).slice(offset, offset + query.limit);
    } else jobs = answer.ids.map(jobOf);
    return {
      jobs,
      pagination: paginate(query.page, query.limit, answer.total),
      facets: answer.facets,
    };
  }

  looser(query: Loosenable): { search: Loosenable; total: number } | null {
    return looserSearch(this.index, query);
  }

  /** Active jobs in the same role or sharing skills, most in common first, `job` excluded. */
  similar(job: Job, limit: number): Job[] {
    return similarJobs(this.index, {
      id: job._id,
      role: job.role,
      skills: Object.values(job.skills).flat(),
    }, limit).map((id) => this.byId.get(id)!.job);
  }

  /**
   * The dropdowns' values: the most common roles, locations and companies (at most
   * MAX_ROLE_OPTIONS each, in name order), so the answer stays small however many jobs there are.
   */
  filterOptions(): FilterOptions {
    if (this.options) return this.options;
    const { facets } = searchJobs(this.index, { order: "newest", offset: 0, limit: 0 });
    const jobs = [...this.byId.values()];
    this.options = {
      roles: facets.roles.map(([role]) => role),
      locations: mostCommon(jobs.map(({ job }) => job.location)),
      companies: mostCommon(jobs.map(({ job }) => job.companyName)),
      experienceOptions: [...EXPERIENCE_OPTIONS],
      employmentTypes: [...EMPLOYMENT_TYPES],
    };
    return this.options;
  }
}

/** The MAX_ROLE_OPTIONS values that occur most often, in name order. */
function mostCommon(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const names = [...counts.keys()];
  const top = topK(
    names.map((_, i) => i),
    MAX_ROLE_OPTIONS,
    (a, b) =>
      counts.get(names[a])! > counts.get(names[b])! ||
      (counts.get(names[a]) === counts.get(names[b]) && names[a] < names[b]),
  );
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  return top.map((i) => names[i]).sort(collator.compare);
}

export function paginate(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    currentPage: page,
    totalJobs: total,
    totalPages,
    hasPrev: page > 1,
    hasNext: page < totalPages,
    limit,
  };
}

export class JobStore {
  private catalog: ActiveCatalog | null = null;
  private totals = new BoundedCache<JobAnalytics>(CACHE_BUDGETS.jobTotals);
  private refreshing: Promise<ActiveCatalog> | null = null;

  constructor(
    private kv: Deno.Kv,
    private now: () => Date = () => new Date(),
    private revisionMaxAgeMs = REVISION_MAX_AGE_MS,
  ) {}

  // ---- reads -------------------------------------------------------------------------------

  /** A job by `_id` or by its readable `jobId`. */
  async get(idOrJobId: string): Promise<Job | null> {
    if (!idOrJobId || idOrJobId.length > 64) return null;
    const direct = await this.kv.get<Job>(keys.job(idOrJobId));
    if (direct.value) return direct.value;
    const pointer = await this.kv.get<string>(keys.jobByJobId(idOrJobId));
    if (!pointer.value) return null;
    return (await this.kv.get<Job>(keys.job(pointer.value))).value;
  }

  async getMany(ids: string[]): Promise<Job[]> {
    const entries = await getAll<Job>(this.kv, ids.map((id) => keys.job(id)));
    return entries.flatMap((entry) => (entry.value ? [entry.value] : []));
  }

  /**
   * The running view and click totals of each job. Totals read earlier are reused while
   * `analytics_writes` is unchanged: every counter write bumps it in the same atomic write, so an
   * unchanged value means unchanged totals. Concurrent callers share the read of that counter, so
   * a job read by many visitors at once costs one read, not two counter reads each.
   */
  async analyticsOf(ids: string[]): Promise<Map<string, JobAnalytics>> {
    const result = new Map<string, JobAnalytics>();
    const version = await this.analyticsVersion();
    const missing = ids.filter((id) => {
      const known = this.totals.get(id, version);
      if (!known) return true;
      result.set(id, known);
      return false;
    });
    if (missing.length === 0) return result;
    const entries = await getAll<Deno.KvU64>(
      this.kv,
      missing.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
    );
    missing.forEach((id, i) => {
      const analytics = {
        views: Number(entries[i * 2]?.value?.value ?? 0n),
        clicks: Number(entries[i * 2 + 1]?.value?.value ?? 0n),
      };
      result.set(id, analytics);
      // Tagged with the version read before the counters, so a newer total is never taken as old.
      this.totals.set(id, version, analytics, TOTALS_ENTRY_BYTES);
    });
    return result;
  }

  async withAnalytics(jobs: Job[]): Promise<JobWithAnalytics[]> {
    const analytics = await this.analyticsOf(jobs.map((job) => job._id));
    return jobs.map((job) => ({
      ...job,
      analytics: analytics.get(job._id) ?? { views: 0, clicks: 0 },
    }));
  }

  async meta(): Promise<JobsMeta> {
    return freshMeta(await this.kv.get<JobsMeta>(keys.jobsMeta()));
  }

  async statusCounts(): Promise<StatusCounts> {
    const { counts } = await this.meta();
    return { all: counts.active + counts.dump + counts.inactive, ...counts };
  }

  /** The active job that holds this hiring link, if any, other than `excludeId`. */
  async findActiveByLink(link: string, excludeId?: string): Promise<Job | null> {
    const pointer = await this.kv.get<string>(keys.jobByLink(normaliseHiringLink(link)));
    if (!pointer.value) return null;
    const job = await this.get(pointer.value);
    if (!job || job._id === excludeId || job.jobId === excludeId) return null;
    return job;
  }

  /** The Manage Jobs and Dump Jobs lists, read from KV's indexes. */
  async adminList(query: AdminListQuery): Promise<AdminListPage> {
    const prefix = query.sortBy === "movedToDumpAt" && query.status === "dump"
      ? keys.jobsDumpByMoved()
      : query.status === "all"
      ? keys.jobsByDate()
      : keys.jobsByStatus(query.status);
    const reverse = query.sortOrder !== "asc";
    const search = { search: query.search, company: query.company, location: query.location };
    const filtered = Object.values(search).some((text) => text?.trim());
    const offset = (query.page - 1) * query.limit;

    const pageIds: string[] = [];
    const statusCounts = await this.statusCounts();
    let total = 0;
    if (!filtered) {
      total = statusCounts[query.status];
      let index = 0;
      for await (
        const entry of this.kv.list({ prefix }, {
          reverse,
          limit: offset + query.limit,
          // A batch is read whole even past the limit: never ask for more than the page needs.
          batchSize: Math.min(offset + query.limit, 500),
        })
      ) {
        if (index++ >= offset) pageIds.push(entry.key[entry.key.length - 1] as string);
      }
    } else {
      const admin = await this.adminIndex();
      const found = admin.find({
        ...search,
        status: query.status,
        sortBy: query.sortBy === "movedToDumpAt" && query.status === "dump"
          ? "movedToDumpAt"
          : "datePosted",
        newestFirst: reverse,
        offset,
        limit: query.limit,
      });
      total = found.total;
      pageIds.push(...found.ids);
    }
    const jobs = await this.getMany(pageIds);
    return { jobs, pagination: paginate(query.page, query.limit, total), statusCounts };
  }

  /**
   * The admin search of the current revision: the public catalogue's jobs and, read once, the
   * jobs in dump and inactive; then it follows every change with the catalogue.
   */
  private async adminIndex(): Promise<AdminIndex> {
    const catalog = await this.active({ fresh: true });
    catalog.admin ??= this.loadAdminIndex(catalog).catch((error) => {
      catalog.admin = null;
      throw error;
    });
    return await catalog.admin;
  }

  private async loadAdminIndex(catalog: ActiveCatalog): Promise<AdminIndex> {
    const admin = new AdminIndex();
    for (const { job } of catalog.byId.values()) admin.put(adminEntry(job));
    const moved = new Map<string, number>();
    for await (
      const entry of this.kv.list({ prefix: keys.jobsDumpByMoved() }, { batchSize: 1000 })
    ) {
      moved.set(entry.key[2] as string, entry.key[1] as number);
    }
    for (const status of ["dump", "inactive"] as const) {
      for await (
        const entry of this.kv.list<JobIndexEntry>({ prefix: keys.jobsByStatus(status) }, {
          batchSize: 1000,
        })
      ) {
        const id = entry.key[3] as string;
        admin.put({
          ...entry.value,
          id,
          status,
          posted: entry.key[2] as number,
          moved: moved.get(id) ?? 0,
        });
      }
    }
    return admin;
  }

  // ---- the public catalogue (in memory, checked against the revision on every call) --------

  private readonly readRevision = sharedRead(async () => (await this.meta()).revision);
  /** The revision read that requests share, and when it was asked for (on the store's clock). */
  private revisionRead: { at: number; revision: Promise<number> } | null = null;

  /**
   * The revision of the job data, read at most `revisionMaxAgeMs` before this call, and after
   * every write this store made: a write here drops the shared read (`commit`). `fresh` reads it
   * after this call began, for admin screens: an admin sees the jobs as they are, whichever
   * process made the last change.
   */
  revision({ fresh = false }: Freshness = {}): Promise<number> {
    const now = this.now().getTime();
    const shared = this.revisionRead;
    if (!fresh && shared && now >= shared.at && now - shared.at < this.revisionMaxAgeMs) {
      return shared.revision;
    }
    const revision = this.readRevision();
    const read = { at: now, revision };
    this.revisionRead = read;
    // A failed read is not shared: the next request tries again.
    revision.catch(() => {
      if (this.revisionRead === read) this.revisionRead = null;
    });
    return revision;
  }

  /** Commits a job write; requests after it read the revision it made. */
  private async commit(op: Deno.AtomicOperation): Promise<boolean> {
    const { ok } = await op.commit();
    if (ok) this.revisionRead = null;
    return ok;
  }

  /** The analytics write counter: unchanged means no view or click total changed. */
  readonly analyticsVersion = sharedRead(async () =>
    (await this.kv.get<Deno.KvU64>(keys.analyticsWrites())).value?.value ?? 0n
  );

  /** Active jobs as of the current revision: caught up from the change log, else reloaded whole. */
  async active(freshness?: Freshness): Promise<ActiveCatalog> {
    const revision = await this.revision(freshness);
    // A refresh under way may be for an older revision than this caller read: then another follows.
    while (!this.catalog || this.catalog.revision < revision) {
      this.refreshing ??= this.refresh(revision).finally(() => (this.refreshing = null));
      await this.refreshing;
    }
    return this.catalog;
  }

  private async refresh(revision: number): Promise<ActiveCatalog> {
    const current = this.catalog;
    if (current && revision - current.revision <= 1000) {
      const changed = new Set<string>();
      let seen = 0;
      for await (
        const entry of this.kv.list<string[]>({
          start: keys.jobsChange(current.revision + 1),
          end: keys.jobsChange(revision + 1),
        })
      ) {
        seen++;
        for (const id of entry.value) changed.add(id);
      }
      if (seen === revision - current.revision) {
        const ids = [...changed];
        const entries = await getAll<Job>(this.kv, ids.map((id) => keys.job(id)));
        ids.forEach((id, i) => current.apply(id, entries[i].value));
        current.invalidate();
        current.revision = revision;
        return current;
      }
    }
    const catalog = new ActiveCatalog(revision);
    let taken = 0;
    for await (
      const entry of this.kv.list<Job>({ prefix: keys.jobsByStatus("active") }, {
        batchSize: LOAD_BATCH,
      })
    ) {
      catalog.put(entry.value);
      // Requests go on being answered while a large catalogue loads: a pause every batch.
      if (++taken % LOAD_BATCH === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.catalog = catalog;
    return catalog;
  }

  /** A page of the public search with the dropdowns' counts, as lists show jobs. */
  async search(query: PublicSearchQuery): Promise<SearchPage> {
    return (await this.active()).page(query);
  }

  /**
   * A page of the public search with whole job records (the API, the feed, the home page). Newest
   * or oldest first with no words or filters is read straight from KV's date-ordered index while
   * the catalogue of this revision is still loading, so a process answers these at once after it
   * starts; the rest wait for the catalogue.
   */
  async list(query: PublicSearchQuery): Promise<{ jobs: Job[]; pagination: Pagination }> {
    const revision = await this.revision();
    if (this.catalog?.revision !== revision && plainList(query)) {
      // The catalogue goes on loading meanwhile; a failure is met by the next caller that waits.
      this.active().catch(() => {});
      return await this.listFromKv(query);
    }
    const { jobs, pagination } = (await this.active()).page(query);
    const records = await this.getMany(jobs.map((job) => job._id));
    return { jobs: records.filter((job) => job.status === "active"), pagination };
  }

  private async listFromKv(query: PublicSearchQuery) {
    const offset = (query.page - 1) * query.limit;
    const jobs: Job[] = [];
    for await (
      const entry of this.kv.list<Job>({ prefix: keys.jobsByStatus("active") }, {
        // Relevance with nothing to rank by is newest first, as the catalogue answers it.
        reverse: query.sortBy !== "datePosted" || query.sortOrder !== "asc",
        limit: offset + query.limit,
        batchSize: Math.min(offset + query.limit, 500),
      })
    ) jobs.push(entry.value);
    const { counts } = await this.meta();
    return {
      jobs: jobs.slice(offset),
      pagination: paginate(query.page, query.limit, counts.active),
    };
  }

  /** For a search that finds nothing: the same without one filter or word, if that finds jobs. */
  async looser(query: Loosenable): Promise<{ search: Loosenable; total: number } | null> {
    return (await this.active()).looser(query);
  }

  async filterOptions(): Promise<FilterOptions> {
    return (await this.active()).filterOptions();
  }

  /** Active jobs in the same role or sharing skills, most in common first, `job` excluded. */
  async similar(job: Job, limit: number): Promise<Job[]> {
    return (await this.active()).similar(job, limit);
  }

  // ---- writes ------------------------------------------------------------------------------

  /** Creates an active job, unless an active job already holds its hiring link. */
  create(input: JobInput, audit?: Audit): Promise<WriteResult> {
    const problem = jobSizeProblem(input);
    if (problem) return Promise.resolve({ ok: false, reason: "too_large", message: problem });
    return retrying(async () => {
      const linkKey = keys.jobByLink(normaliseHiringLink(input.hiringLink));
      const [metaEntry, linkEntry] = await this.kv.getMany<[JobsMeta, string]>([
        keys.jobsMeta(),
        linkKey,
      ]);
      if (linkEntry.value) {
        const existingJob = await this.get(linkEntry.value);
        if (existingJob) return { ok: false, reason: "duplicate", existingJob } as const;
      }
      const meta = freshMeta(metaEntry);
      const now = this.now().toISOString();
      meta.lastJobNumber += 1;
      const job: Job = {
        ...input,
        _id: newId(this.now()),
        jobId: `JB-${meta.lastJobNumber}`,
        status: "active",
        datePosted: now,
        movedToDumpAt: null,
        createdAt: now,
        updatedAt: now,
      };
      adjustCounts(meta, null, "active");
      const op = this.kv.atomic().check(linkEntry);
      writeJob(op, job, null);
      commitMeta(op, metaEntry, meta, [job._id]);
      audit?.add(op, "job.create", jobTarget(job), { hiringLink: job.hiringLink });
      return await this.commit(op) ? { ok: true, job } as const : undefined;
    });
  }

  /** Replaces a job's editable fields; an active job may not take another active job's link. */
  update(idOrJobId: string, input: JobInput, audit?: Audit): Promise<WriteResult> {
    return this.change(
      idOrJobId,
      jobSizeProblem,
      (old) => ({
        ...old,
        ...input,
        updatedAt: this.now().toISOString(),
      }),
      audit &&
        ((op, old, job) =>
          audit.add(op, "job.update", jobTarget(job), changedFields(old, job, ["updatedAt"]))),
    );
  }

  /**
   * Moves a job to a status. Back to active renews it (datePosted is now, so the 7-day clock
   * restarts); to dump stamps movedToDumpAt.
   */
  setStatus(idOrJobId: string, status: JobStatus, audit?: Audit): Promise<WriteResult> {
    return this.change(
      idOrJobId,
      recordSizeProblem,
      (old) => {
        if (old.status === status) return old;
        const now = this.now().toISOString();
        return {
          ...old,
          status,
          datePosted: status === "active" ? now : old.datePosted,
          movedToDumpAt: status === "dump" ? now : old.movedToDumpAt,
          updatedAt: now,
        };
      },
      audit && ((op, old, job) =>
        audit.add(op, "job.status", jobTarget(job), {
          before: { status: old.status },
          after: { status: job.status },
        })),
    );
  }

  /**
   * Rewrites a job as `next` makes it, unless `sizeProblem` finds the new record too large;
   * `record` adds the change's activity record to its atomic write.
   */
  private change(
    idOrJobId: string,
    sizeProblem: (job: Job) => string | null,
    next: (old: Job) => Job,
    record?: (op: Deno.AtomicOperation, old: Job, job: Job) => void,
  ): Promise<WriteResult> {
    return retrying(async () => {
      const found = await this.get(idOrJobId);
      if (!found) return { ok: false, reason: "not_found" } as const;
      const [metaEntry, jobEntry] = await this.kv.getMany<[JobsMeta, Job]>([
        keys.jobsMeta(),
        keys.job(found._id),
      ]);
      const old = jobEntry.value;
      if (!old) return { ok: false, reason: "not_found" } as const;
      const job = next(old);
      if (job === old) return { ok: true, job } as const;
      const problem = sizeProblem(job);
      if (problem) return { ok: false, reason: "too_large", message: problem } as const;
      const op = this.kv.atomic().check(jobEntry);
      if (job.status === "active") {
        const linkKey = keys.jobByLink(normaliseHiringLink(job.hiringLink));
        const linkEntry = await this.kv.get<string>(linkKey);
        if (linkEntry.value && linkEntry.value !== job._id) {
          const existingJob = await this.get(linkEntry.value);
          if (existingJob) return { ok: false, reason: "duplicate", existingJob } as const;
        }
        op.check(linkEntry);
      }
      const meta = freshMeta(metaEntry);
      adjustCounts(meta, old.status, job.status);
      writeJob(op, job, old);
      commitMeta(op, metaEntry, meta, [job._id]);
      record?.(op, old, job);
      return await this.commit(op) ? { ok: true, job } as const : undefined;
    });
  }

  /** Deletes a job with its indexes and counters; false when there was none. */
  delete(idOrJobId: string, audit?: Audit): Promise<Job | null> {
    return retrying(async () => {
      const found = await this.get(idOrJobId);
      if (!found) return null;
      const [metaEntry, jobEntry] = await this.kv.getMany<[JobsMeta, Job]>([
        keys.jobsMeta(),
        keys.job(found._id),
      ]);
      const job = jobEntry.value;
      if (!job) return null;
      const meta = freshMeta(metaEntry);
      adjustCounts(meta, job.status, null);
      const op = this.kv.atomic().check(jobEntry);
      unindexJob(op, job);
      op.delete(keys.job(job._id)).delete(keys.jobByJobId(job.jobId))
        .delete(keys.jobCounter(job._id, "views")).delete(keys.jobCounter(job._id, "clicks"));
      commitMeta(op, metaEntry, meta, [job._id]);
      audit?.add(op, "job.delete", jobTarget(job), { job });
      return await this.commit(op) ? job : undefined;
    });
  }

  // ---- the lifecycle -----------------------------------------------------------------------

  /**
   * Active for 7 days goes to dump; 30 days in dump goes to inactive. Each batch commits with a
   * check on `jobs_meta`, so when several processes run this at once each job moves exactly once
   * and the counts report only what this call moved. With `audit`, each batch's write carries a
   * record of the jobs it moved.
   */
  async processStatusChanges(
    audit?: Audit,
  ): Promise<{ movedToDump: number; movedToInactive: number }> {
    const now = this.now();
    const movedToDump = await this.moveDue(
      keys.jobsByStatus("active"),
      now.getTime() - DAYS_ACTIVE_BEFORE_DUMP * DAY_MS,
      (job) =>
        job.status === "active" &&
        time(job.datePosted) <= now.getTime() - DAYS_ACTIVE_BEFORE_DUMP * DAY_MS,
      (job) => ({
        ...job,
        status: "dump",
        movedToDumpAt: now.toISOString(),
        updatedAt: now.toISOString(),
      }),
      audit,
    );
    const inactiveCutoff = now.getTime() - DAYS_IN_DUMP_BEFORE_INACTIVE * DAY_MS;
    const movedToInactive = await this.moveDue(
      keys.jobsDumpByMoved(),
      inactiveCutoff,
      (job) => job.status === "dump" && time(job.movedToDumpAt) <= inactiveCutoff,
      (job) => ({ ...job, status: "inactive", updatedAt: now.toISOString() }),
      audit,
    );
    return { movedToDump, movedToInactive };
  }

  private async moveDue(
    prefix: Deno.KvKey,
    cutoffMs: number,
    isDue: (job: Job) => boolean,
    next: (job: Job) => Job,
    audit?: Audit,
  ): Promise<number> {
    let moved = 0;
    // Paged by cursor, not from the range's start again: a job that was skipped stays in the range.
    let cursor: string | undefined;
    do {
      const entries = this.kv.list({ start: [...prefix], end: [...prefix, cutoffMs + 1] }, {
        limit: LIFECYCLE_BATCH,
        cursor,
      });
      const ids: string[] = [];
      for await (const entry of entries) ids.push(entry.key[entry.key.length - 1] as string);
      // A page shorter than the limit was the last (its cursor then starts over).
      cursor = ids.length === LIFECYCLE_BATCH ? entries.cursor : undefined;
      moved += await this.moveJobs(ids, isDue, next, audit);
    } while (cursor);
    return moved;
  }

  /**
   * Moves the due jobs among `ids` in as few writes as the limits allow. A job that cannot be
   * written is logged and skipped: once a write fails, the jobs go one at a time, so only that one
   * stays behind and every other job moves.
   */
  private async moveJobs(
    ids: string[],
    isDue: (job: Job) => boolean,
    next: (job: Job) => Job,
    audit?: Audit,
  ): Promise<number> {
    let moved = 0;
    let rest = ids;
    let alone = false;
    while (rest.length > 0) {
      const batch = alone ? rest.slice(0, 1) : rest;
      try {
        const done = await retrying(() => this.moveBatch(batch, isDue, next, audit));
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
  private async moveBatch(
    ids: string[],
    isDue: (job: Job) => boolean,
    next: (job: Job) => Job,
    audit?: Audit,
  ): Promise<{ moved: number; handled: number } | undefined> {
    const metaEntry = await this.kv.get<JobsMeta>(keys.jobsMeta());
    const entries = await getAll<Job>(this.kv, ids.map((id) => keys.job(id)));
    const meta = freshMeta(metaEntry);
    const op = this.kv.atomic();
    const changed: string[] = [];
    const jobIds: string[] = [];
    let to: JobStatus | null = null;
    let bytes = 0;
    let handled = 0;
    for (const { value: old } of entries) {
      if (!old || !isDue(old)) {
        handled++;
        continue;
      }
      const job = next(old);
      const problem = recordSizeProblem(job);
      if (problem) {
        console.error(`The job lifecycle skipped job ${job.jobId} (${job._id}): ${problem}`);
        handled++;
        continue;
      }
      // The record, its index entries and keys; a move is at most eight mutations.
      bytes += kvValueSize(job) + 1_024;
      const full = bytes > ATOMIC_BYTES_BUDGET ||
        (changed.length + 1) * 8 + 2 > ATOMIC_MUTATIONS_BUDGET;
      if (full && changed.length > 0) break;
      adjustCounts(meta, old.status, job.status);
      writeJob(op, job, old);
      changed.push(job._id);
      jobIds.push(job.jobId);
      to = job.status;
      handled++;
    }
    if (changed.length === 0) return { moved: 0, handled };
    commitMeta(op, metaEntry, meta, changed);
    audit?.add(op, "jobs.lifecycle", {
      kind: "jobs",
      id: null,
      label: `${changed.length} job${changed.length === 1 ? "" : "s"} to ${to}`,
    }, { to, moved: changed.length, jobIds });
    return await this.commit(op) ? { moved: changed.length, handled } : undefined;
  }

  // ---- bulk writes: the admin's bulk upload, the demo seed, benchmarks ----------------------

  /**
   * A bulk upload: every row is checked first (its fields and size, its hiring link against the
   * active jobs and against the rows before it), and nothing is written until all are. The valid
   * rows are then written in as few atomic writes as KV's limits allow, each job whole with its
   * indexes, and each write carrying the activity record of the jobs it created, so a write that
   * fails leaves only whole jobs, each with its record. A failed write stops the upload: the rows it
   * and the writes after it held are reported as not created.
   */
  async bulkCreate(rows: readonly unknown[], audit?: Audit): Promise<BulkResult> {
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
    const holders = await this.linkHolders(valid.map((row) => row.link));
    const now = this.now().toISOString();
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
        _id: newId(this.now()),
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
        const { written, taken } = await this.writeNew(batch, {
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
  private async linkHolders(links: readonly string[]): Promise<Map<string, Job>> {
    const pointers = await getAll<string>(this.kv, links.map((link) => keys.jobByLink(link)));
    const claimed = pointers.flatMap((entry, i) =>
      entry.value ? [{ link: links[i], id: entry.value }] : []
    );
    const jobs = await getAll<Job>(this.kv, claimed.map(({ id }) => keys.job(id)));
    return new Map(claimed.flatMap(({ link }, i) => {
      const job = jobs[i].value;
      return job ? [[link, job] as const] : [];
    }));
  }

  /**
   * Numbers and writes one batch of new jobs in one atomic write (with `record` adding its activity
   * record). With `claimLinks`, active jobs whose links were claimed meanwhile are left out and
   * returned as `taken`; the check on `jobs_meta`, which every job write makes, keeps a link from
   * being claimed between that read and the commit.
   */
  private writeNew<T extends { job: Omit<Job, "jobId">; link?: string }>(
    batch: readonly T[],
    options: {
      claimLinks?: boolean;
      record?: (op: Deno.AtomicOperation, jobs: Job[]) => void;
    } = {},
  ): Promise<{ written: { item: T; job: Job }[]; taken: { item: T; existingJob: Job }[] }> {
    return retrying(async () => {
      const metaEntry = await this.kv.get<JobsMeta>(keys.jobsMeta());
      const holders = options.claimLinks
        ? await this.linkHolders(
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
      const op = this.kv.atomic();
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
      return await this.commit(op) ? { written, taken } : undefined;
    });
  }

  /**
   * Writes many complete jobs (the demo seed, benchmarks) in as few atomic operations as the limits
   * allow, numbering them and keeping indexes and counts exact. Hiring links of active jobs must
   * already be unique.
   */
  async importJobs(jobs: Omit<Job, "jobId">[]): Promise<Job[]> {
    const written: Job[] = [];
    for (const batch of newJobBatches(jobs.map((job) => ({ job })))) {
      const done = await this.writeNew(batch);
      written.push(...done.written.map(({ job }) => job));
    }
    return written;
  }
}
