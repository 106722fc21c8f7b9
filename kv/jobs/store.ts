/**
 * The job store, the one entry point to jobs in KV: reads (by id, by link, admin lists, view and
 * click totals), the public catalogue kept current with the revision of the job data, and the
 * writes, lifecycle and bulk writes, which it hands to the modules that own them.
 */
import { keys } from "../keys.ts";
import { GET_MANY_KEYS, getAll, sharedRead } from "../atomic.ts";
import type { Job, JobAnalytics, JobInput, JobStatus, JobWithAnalytics } from "../schemas.ts";
import type { Audit } from "../activity.ts";
import { AdminIndex } from "../search/admin.ts";
import { BoundedCache, CACHE_BUDGETS } from "../bounded-cache.ts";
import type { Loosenable } from "../search/looser.ts";
import { normaliseHiringLink } from "./validate.ts";
import {
  adminEntry,
  freshMeta,
  type JobIndexEntry,
  type JobsMeta,
  type JobWriter,
  type StatusCounts,
  type WriteResult,
} from "./records.ts";
import {
  type AdminListPage,
  type AdminListQuery,
  paginate,
  type Pagination,
  readIndexPage,
} from "./paging.ts";
import {
  ActiveCatalog,
  type FilterOptions,
  plainList,
  type PublicSearchQuery,
  type SearchPage,
} from "./catalogue.ts";
import { createJob, deleteJob, setJobStatus, updateJob } from "./writes.ts";
import { processStatusChanges } from "./lifecycle.ts";
import { bulkCreate, type BulkResult, importJobs } from "./bulk.ts";
import { type StoredJob, withoutVersion } from "./version.ts";

/** `fresh`: read the revision now rather than share a read up to REVISION_MAX_AGE_MS old. */
export interface Freshness {
  fresh?: boolean;
}

/** What one job's remembered totals cost: its id and a two-number record. */
const TOTALS_ENTRY_BYTES = 96;
/** Jobs read and indexed between two pauses of a whole catalogue load (about 10 ms of work). */
const LOAD_BATCH = 200;
/**
 * How old a read of the revision may be when a request uses it. Requests within this time of a
 * read's start share it, so another process's job writes show within 10 ms (this process's own at
 * once). One read per request held a cached page to 33k req/s; shared this way it serves 39-43k
 * (wrk, 32 connections, the bench's 2 cores): the reads kept KV's thread busy on the second core.
 */
export const REVISION_MAX_AGE_MS = 10;

export class JobStore {
  private catalog: ActiveCatalog | null = null;
  private totals = new BoundedCache<JobAnalytics>(CACHE_BUDGETS.jobTotals);
  /** The last `analytics_writes` read: a job's totals tagged with it need not be read beside it. */
  private lastAnalyticsVersion = -1n;
  private refreshing: Promise<ActiveCatalog> | null = null;
  /** What the write modules use of the store. */
  private readonly writer: JobWriter;

  constructor(
    private kv: Deno.Kv,
    private now: () => Date = () => new Date(),
    private revisionMaxAgeMs = REVISION_MAX_AGE_MS,
  ) {
    this.writer = {
      kv,
      now: () => this.now(),
      get: (idOrJobId) => this.get(idOrJobId),
      commit: (op) => this.commit(op),
    };
  }

  // ---- reads -------------------------------------------------------------------------------

  /** A job by `_id` or by its readable `jobId`. */
  async get(idOrJobId: string): Promise<Job | null> {
    if (!idOrJobId || idOrJobId.length > 64) return null;
    // An active job's page is read by its job ID: the catalogue knows its id, so one read.
    const known = this.catalog?.idOf(idOrJobId);
    if (known) {
      const record = (await this.kv.get<StoredJob>(keys.job(known))).value;
      if (record?.jobId === idOrJobId) return withoutVersion(record);
    }
    // An id or a job ID: both looked up in one read.
    const [direct, pointer] = await this.kv.getMany<[StoredJob, string]>([
      keys.job(idOrJobId),
      keys.jobByJobId(idOrJobId),
    ]);
    if (direct.value) return withoutVersion(direct.value);
    if (!pointer.value) return null;
    const record = (await this.kv.get<StoredJob>(keys.job(pointer.value))).value;
    return record && withoutVersion(record);
  }

  /**
   * What a job page not rendered yet needs, read in one snapshot: the revision of the job data,
   * the job by its job ID and its view count. Under load every trip to KV waits behind the other
   * requests' work, and these three reads one after another were three trips. Null when the
   * catalogue does not know the job ID or the job is gone (`get` then answers).
   */
  async pageRead(jobId: string): Promise<{ revision: number; job: Job; views: number } | null> {
    const id = this.catalog?.idOf(jobId);
    if (!id) return null;
    const [meta, record, writes, ...counters] = await this.kv.getMany<
      [JobsMeta, StoredJob, Deno.KvU64, Deno.KvU64, Deno.KvU64]
    >([
      keys.jobsMeta(),
      keys.job(id),
      keys.analyticsWrites(),
      keys.jobCounter(id, "views"),
      keys.jobCounter(id, "clicks"),
    ]);
    if (record.value?.jobId !== jobId) return null;
    const totals = new Map<string, JobAnalytics>();
    this.remember([id], counters, writes.value?.value ?? 0n, totals);
    return {
      revision: freshMeta(meta).revision,
      job: withoutVersion(record.value),
      views: totals.get(id)!.views,
    };
  }

  async getMany(ids: string[]): Promise<Job[]> {
    const entries = await getAll<StoredJob>(this.kv, ids.map((id) => keys.job(id)));
    return entries.flatMap((entry) => (entry.value ? [withoutVersion(entry.value)] : []));
  }

  /**
   * The running view and click totals of each job. Totals read earlier are reused while
   * `analytics_writes` is unchanged: every counter write bumps it in the same atomic write, so an
   * unchanged value means unchanged totals. When every job's totals are known, concurrent callers
   * share the read of that counter, so a job read by many visitors at once costs one read, not two
   * counter reads each. A job page's totals not known yet are read with that counter in one
   * snapshot, not after it.
   */
  async analyticsOf(ids: string[]): Promise<Map<string, JobAnalytics>> {
    const result = new Map<string, JobAnalytics>();
    const unknown = ids.filter((id) => !this.totals.get(id, this.lastAnalyticsVersion));
    let version: bigint;
    if (unknown.length > 0 && unknown.length * 2 < GET_MANY_KEYS) {
      const [writes, ...counters] = await this.kv.getMany<Deno.KvU64[]>([
        keys.analyticsWrites(),
        ...unknown.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
      ]);
      version = writes.value?.value ?? 0n;
      this.remember(unknown, counters, version, result);
    } else version = await this.analyticsVersion();
    this.lastAnalyticsVersion = version;
    const missing = ids.filter((id) => {
      if (result.has(id)) return false;
      const known = this.totals.get(id, version);
      if (!known) return true;
      result.set(id, known);
      return false;
    });
    if (missing.length === 0) return result;
    // Tagged with the version read before the counters, so a newer total is never taken as old.
    const entries = await getAll<Deno.KvU64>(
      this.kv,
      missing.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
    );
    this.remember(missing, entries, version, result);
    return result;
  }

  /** Takes in jobs' view and click counters (two entries a job) as of `version`. */
  private remember(
    ids: string[],
    counters: Deno.KvEntryMaybe<Deno.KvU64>[],
    version: bigint,
    result: Map<string, JobAnalytics>,
  ) {
    ids.forEach((id, i) => {
      const analytics = {
        views: Number(counters[i * 2]?.value?.value ?? 0n),
        clicks: Number(counters[i * 2 + 1]?.value?.value ?? 0n),
      };
      result.set(id, analytics);
      this.totals.set(id, version, analytics, TOTALS_ENTRY_BYTES);
    });
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
      const entries = await readIndexPage(this.kv, prefix, { reverse, offset, limit: query.limit });
      for (const entry of entries) pageIds.push(entry.key[entry.key.length - 1] as string);
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
    return this.activeAt(await this.revision(freshness));
  }

  /** Active jobs as of `revision` or later, read by the caller: no second read of it. */
  private async activeAt(revision: number): Promise<ActiveCatalog> {
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
        const entries = await getAll<StoredJob>(this.kv, ids.map((id) => keys.job(id)));
        ids.forEach((id, i) => current.apply(id, entries[i].value));
        current.invalidate();
        current.revision = revision;
        return current;
      }
    }
    const catalog = new ActiveCatalog(revision);
    let taken = 0;
    for await (
      const entry of this.kv.list<StoredJob>({ prefix: keys.jobsByStatus("active") }, {
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
    const entries = await readIndexPage<StoredJob>(this.kv, keys.jobsByStatus("active"), {
      // Relevance with nothing to rank by is newest first, as the catalogue answers it.
      reverse: query.sortBy !== "datePosted" || query.sortOrder !== "asc",
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const { counts } = await this.meta();
    return {
      jobs: entries.map((entry) => withoutVersion(entry.value)),
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

  /**
   * Active jobs in the same role or sharing skills, most in common first, `job` excluded; as of
   * `revision` when the caller has read it (a job page reads it with the job).
   */
  async similar(job: Job, limit: number, revision?: number): Promise<Job[]> {
    const catalog = revision === undefined ? await this.active() : await this.activeAt(revision);
    return catalog.similar(job, limit);
  }

  // ---- writes, each owned by its module -----------------------------------------------------

  /** Creates an active job, unless an active job already holds its hiring link. */
  create(input: JobInput, audit?: Audit): Promise<WriteResult> {
    return createJob(this.writer, input, audit);
  }

  /** Replaces a job's editable fields; an active job may not take another active job's link. */
  update(idOrJobId: string, input: JobInput, audit?: Audit): Promise<WriteResult> {
    return updateJob(this.writer, idOrJobId, input, audit);
  }

  /**
   * Moves a job to a status. Back to active renews it (datePosted is now, so the 7-day clock
   * restarts); to dump stamps movedToDumpAt.
   */
  setStatus(idOrJobId: string, status: JobStatus, audit?: Audit): Promise<WriteResult> {
    return setJobStatus(this.writer, idOrJobId, status, audit);
  }

  /** Deletes a job with its indexes and counters; null when there was none. */
  delete(idOrJobId: string, audit?: Audit): Promise<Job | null> {
    return deleteJob(this.writer, idOrJobId, audit);
  }

  /** Moves the jobs whose time is up: 7 days active to dump, 30 days in dump to inactive. */
  processStatusChanges(audit?: Audit): Promise<{ movedToDump: number; movedToInactive: number }> {
    return processStatusChanges(this.writer, audit);
  }

  /** A bulk upload: every row checked first, then the valid rows written. */
  bulkCreate(rows: readonly unknown[], audit?: Audit): Promise<BulkResult> {
    return bulkCreate(this.writer, rows, audit);
  }

  /** Writes many complete jobs (the demo seed, benchmarks); active links must be unique. */
  importJobs(jobs: Omit<Job, "jobId">[]): Promise<Job[]> {
    return importJobs(this.writer, jobs);
  }
}
