/**
 * The job store, the one entry point to jobs in KV: reads (by id, by link, admin lists, view and
 * click totals through totals.ts), the public catalogue (kept current with the revision of the job
 * data by keeper.ts), and the writes, lifecycle and bulk writes, which it hands to the modules that
 * own them.
 */
import { keys } from "../keys.ts";
import { SIMILAR_JOBS_FETCHED } from "../constants.ts";
import { EVENTUAL, getAll } from "../atomic.ts";
import type { Job, JobAnalytics, JobInput, JobWithAnalytics, LifecycleStatus } from "../schemas.ts";
import type { Audit } from "../activity.ts";
import { AdminIndex } from "../search/admin.ts";
import type { Loosenable } from "../search/looser.ts";
import { normaliseHiringLink } from "./validate.ts";
import {
  adminEntry,
  freshMeta,
  type JobIndexEntry,
  type JobsMeta,
  type JobWriter,
  revisionOf,
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
  type ActiveCatalog,
  type FilterOptions,
  plainList,
  type PublicSearchQuery,
  type SearchPage,
  similarBy,
} from "./catalogue.ts";
import {
  createJob,
  type CreateOptions,
  deleteJob,
  duplicateJob,
  setJobStatus,
  updateJob,
} from "./writes.ts";
import type { FollowOptions } from "./follow.ts";
import { JobTotals } from "./totals.ts";
import { CatalogKeeper, type Freshness, type StoreOptions } from "./keeper.ts";
import { processStatusChanges } from "./lifecycle.ts";
import { bulkCreate, type BulkResult, importJobs } from "./bulk.ts";
import { type StoredJob, withoutVersion } from "./version.ts";

export class JobStore {
  private readonly counts: JobTotals;
  /** What the write modules use of the store. */
  private readonly writer: JobWriter;
  private readonly keeper: CatalogKeeper;

  constructor(
    private kv: Deno.Kv,
    private now: () => Date = () => new Date(),
    options: StoreOptions = {},
  ) {
    this.keeper = new CatalogKeeper(kv, () => this.now(), options);
    this.counts = new JobTotals(kv, () => this.keeper.followedAnalytics());
    this.writer = {
      kv,
      now: () => this.now(),
      get: (idOrJobId) => this.get(idOrJobId),
      commit: (op) => this.commit(op),
    };
  }

  /** Starts following the job data for visitors (`CatalogKeeper.follow`). */
  follow(options: FollowOptions): void {
    this.keeper.follow(options);
  }

  /** Stops following and the snapshot timer (tests, shutdown). */
  close(): Promise<void> {
    return this.keeper.close();
  }

  // ---- reads -------------------------------------------------------------------------------

  /**
   * A job by `_id` or by its readable `jobId`, read strongly (admins, writes) or, for a visitor,
   * eventually: from a nearby replica, checked against the catalogue (`checked`); a visitor never
   * gets a draft.
   */
  async get(idOrJobId: string, { visitor = false } = {}): Promise<Job | null> {
    return (await this.entryOf(idOrJobId, visitor))?.job ?? null;
  }

  private async entryOf(
    idOrJobId: string,
    visitor: boolean,
  ): Promise<{ job: Job; stamp: string } | null> {
    if (!idOrJobId || idOrJobId.length > 64) return null;
    const options = visitor ? EVENTUAL : undefined;
    // An active job's page is read by its job ID: the catalogue knows its id, so one read.
    const known = this.keeper.catalog?.idOf(idOrJobId);
    if (known) {
      const entry = await this.kv.get<StoredJob>(keys.job(known), options);
      if (entry.value?.jobId === idOrJobId) return this.checked(entry, visitor);
    }
    // An id or a job ID: both looked up in one read.
    const [direct, pointer] = await this.kv.getMany<[StoredJob, string]>([
      keys.job(idOrJobId),
      keys.jobByJobId(idOrJobId),
    ], options);
    if (direct.value) return this.checked(direct, visitor);
    if (!pointer.value) return null;
    return this.checked(await this.kv.get<StoredJob>(keys.job(pointer.value), options), visitor);
  }

  /**
   * A job as read, unless an eventual read came from a replica behind this process's catalogue:
   * older than the catalogue's copy, or active where the catalogue (already past it) says it is
   * not. Then it is read again strongly, which happens only in the moments after a change.
   */
  private async checked(
    entry: Deno.KvEntryMaybe<StoredJob>,
    eventual: boolean,
  ): Promise<{ job: Job; stamp: string } | null> {
    if (!entry.value || !entry.versionstamp) return null;
    const stale = eventual && this.keeper.catalog &&
      this.staleAgainstCatalog(entry, this.keeper.catalog);
    const read = stale ? await this.kv.get<StoredJob>(entry.key) : entry;
    if (!read.value || !read.versionstamp) return null;
    // A draft is its recruiter's alone: no visitor's read finds it.
    if (eventual && read.value.status === "draft") return null;
    return { job: withoutVersion(read.value), stamp: read.versionstamp };
  }

  private staleAgainstCatalog(entry: Deno.KvEntry<StoredJob>, catalog: ActiveCatalog): boolean {
    const known = catalog.stampOf(entry.value._id);
    if (known !== undefined) return entry.versionstamp < known;
    return entry.value.status === "active";
  }

  /**
   * What a job page not rendered yet needs, in one trip to a nearby replica: the job by its job ID
   * and its view count, with the revision the page is kept under (the catalogue's); and the jobs
   * like it, found in the catalogue while KV reads (from the catalogue's copy of the job, kept only
   * when the record read has the same role and skills). Under load every trip to KV waits behind
   * the other requests' work, and a visitor never waits on the primary. Null when the catalogue
   * does not know the job ID (`get` then answers).
   *
   * Two keys, not the four that would let the count be remembered (the analytics write counter and
   * the click count beside it): on a local file each key costs KV's SQLite thread 0.04-0.06 ms, as
   * a lookup reads whole every neighbouring record it compares and job records overflow their pages
   * (decision 025), and most first views are a job's only view in this process. A later visitor's
   * count is read and remembered by `analyticsOf`.
   */
  async pageRead(
    jobId: string,
  ): Promise<{ revision: number; job: Job; views: number; similar?: Job[] } | null> {
    const id = this.keeper.catalog?.idOf(jobId);
    if (!id) return null;
    const revision = await this.revision();
    const reading = this.kv.getMany<[StoredJob, Deno.KvU64]>(
      [keys.job(id), keys.jobCounter(id, "views")],
      EVENTUAL,
    );
    const catalog = this.keeper.catalog;
    const listed = catalog && catalog.revision >= revision ? catalog.byId.get(id)?.job : undefined;
    const similar = listed && catalog!.similar(listed, SIMILAR_JOBS_FETCHED);
    const [record, views] = await reading;
    if (record.value?.jobId !== jobId) return null;
    const checked = await this.checked(record, true);
    if (!checked) return null;
    return {
      revision,
      job: checked.job,
      views: Number(views.value?.value ?? 0n),
      similar: listed && sameTerms(listed, checked.job) ? similar : undefined,
    };
  }

  async getMany(ids: string[], { visitor = false } = {}): Promise<Job[]> {
    const entries = await getAll<StoredJob>(
      this.kv,
      ids.map((id) => keys.job(id)),
      visitor ? EVENTUAL : undefined,
    );
    const checked = await Promise.all(entries.map((entry) => this.checked(entry, visitor)));
    return checked.flatMap((found) => (found ? [found.job] : []));
  }

  /**
   * The running view and click totals of each job (`JobTotals.of`); a visitor's counts are read
   * from a nearby replica.
   */
  analyticsOf(
    ids: string[],
    options: { visitor?: boolean } = {},
  ): Promise<Map<string, JobAnalytics>> {
    return this.counts.of(ids, options);
  }

  /** This process wrote view or click totals (the traffic counter's flush). */
  analyticsWritten(): void {
    this.keeper.analyticsWritten();
  }

  /** The analytics write counter: unchanged means no view or click total changed. */
  analyticsVersion(): Promise<bigint> {
    return this.counts.analyticsVersion();
  }

  async withAnalytics(jobs: Job[], { visitor = false } = {}): Promise<JobWithAnalytics[]> {
    const analytics = await this.analyticsOf(jobs.map((job) => job._id), { visitor });
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
    return { all: counts.active + counts.dump + counts.inactive + counts.draft, ...counts };
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
   * Every job a Manage Jobs filter finds, newest first, `size` at a time: one pass over the index
   * (a page list would skip every row before each page again) or over the admin search's ids.
   */
  async *exportPages(
    filter: Pick<AdminListQuery, "status" | "search" | "company" | "location">,
    size: number,
  ): AsyncGenerator<Job[]> {
    const search = { search: filter.search, company: filter.company, location: filter.location };
    let ids: AsyncIterable<string> | Iterable<string>;
    if (Object.values(search).some((text) => text?.trim())) {
      const admin = await this.adminIndex();
      ids = admin.find({
        ...search,
        status: filter.status,
        sortBy: "datePosted",
        newestFirst: true,
        offset: 0,
        limit: Number.MAX_SAFE_INTEGER,
      }).ids;
    } else {
      const prefix = filter.status === "all" ? keys.jobsByDate() : keys.jobsByStatus(filter.status);
      const entries = this.kv.list({ prefix }, { reverse: true, batchSize: size });
      ids = (async function* () {
        for await (const entry of entries) yield entry.key[entry.key.length - 1] as string;
      })();
    }
    let batch: string[] = [];
    for await (const id of ids) {
      batch.push(id);
      if (batch.length < size) continue;
      yield await this.getMany(batch);
      batch = [];
    }
    if (batch.length > 0) yield await this.getMany(batch);
  }

  /**
   * The admin search of the current revision: the public catalogue's jobs and, read once, the
   * jobs in dump, inactive and drafts; then it follows every change with the catalogue.
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
    for (const status of ["dump", "inactive", "draft"] as const) {
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

  // ---- the public catalogue (in memory, following the revision: keeper.ts) ------------------

  /** The revision of the job data that answers are made and kept for (`CatalogKeeper.revision`). */
  revision(freshness?: Freshness): Promise<number> {
    return this.keeper.revision(freshness);
  }

  /** Commits a job write; this store's answers after it are of the revision it made. */
  private async commit(op: Deno.AtomicOperation): Promise<boolean> {
    const { ok } = await op.commit();
    const revision = revisionOf(op);
    if (ok && revision !== undefined) this.keeper.committed(revision);
    return ok;
  }

  /** Active jobs as of the current revision (see `revision`). */
  active(freshness?: Freshness): Promise<ActiveCatalog> {
    return this.keeper.active(freshness);
  }

  /** The catalogue when it is loaded, without waiting: null while a cold process loads it. */
  loadedCatalog(): ActiveCatalog | null {
    return this.keeper.catalog;
  }

  /**
   * Writes the catalogue's snapshot now, unless one as new is there or another process writes one;
   * returns whether this call wrote it.
   */
  saveSnapshot(): Promise<boolean> {
    return this.keeper.saveSnapshot();
  }

  /** A page of the public search with the dropdowns' counts, as lists show jobs. */
  async search(query: PublicSearchQuery): Promise<SearchPage> {
    return (await this.active()).page(query);
  }

  /**
   * A page of the public search with whole job records (the API, the feed), read from a nearby
   * replica; `partial` when no job has every word and these are the jobs with the most of them.
   * Newest or oldest first with no words or filters is read straight from KV's date-ordered index
   * while a cold process's catalogue is still loading, so a process answers these at once after
   * it starts; the rest wait for the catalogue.
   */
  async list(
    query: PublicSearchQuery,
  ): Promise<{ jobs: Job[]; pagination: Pagination; partial: boolean; until: number }> {
    const revision = await this.revision();
    if (this.keeper.catalog?.revision !== revision && plainList(query)) {
      // The catalogue goes on loading meanwhile; a failure is met by the next caller that waits.
      this.active().catch(() => {});
      // No Date posted window chooses a plain list's jobs: it holds until the jobs change.
      return { ...await this.listFromKv(query), partial: false, until: Infinity };
    }
    const { jobs, pagination, partial, until } = (await this.keeper.activeAt(revision)).page(query);
    const records = await this.getMany(jobs.map((job) => job._id), { visitor: true });
    return { jobs: records.filter((job) => job.status === "active"), pagination, partial, until };
  }

  private async listFromKv(query: PublicSearchQuery) {
    const [entries, meta] = await Promise.all([
      readIndexPage<StoredJob>(this.kv, keys.jobsByStatus("active"), {
        // Relevance with nothing to rank by is newest first, as the catalogue answers it.
        reverse: query.sortBy !== "datePosted" || query.sortOrder !== "asc",
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        consistency: "eventual",
      }),
      this.kv.get<JobsMeta>(keys.jobsMeta(), EVENTUAL),
    ]);
    return {
      jobs: entries.map((entry) => withoutVersion(entry.value)),
      pagination: paginate(query.page, query.limit, freshMeta(meta).counts.active),
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
    const catalog = revision === undefined
      ? await this.active()
      : await this.keeper.activeAt(revision);
    return catalog.similar(job, limit);
  }

  // ---- writes, each owned by its module -----------------------------------------------------

  /**
   * Creates an active job, unless an active job already holds its hiring link; or a draft, which
   * claims no link.
   */
  create(input: JobInput, audit?: Audit, options?: CreateOptions): Promise<WriteResult> {
    return createJob(this.writer, input, audit, options);
  }

  /** A draft copy of a job in any status, as `duplicateJob` makes it. */
  duplicate(idOrJobId: string, audit?: Audit): Promise<WriteResult> {
    return duplicateJob(this.writer, idOrJobId, audit);
  }

  /**
   * Replaces a job's editable fields; an active job may not take another active job's link.
   * `incomplete` says why the input passed only a draft's check: then only a draft takes it.
   */
  update(
    idOrJobId: string,
    input: JobInput,
    audit?: Audit,
    incomplete?: string,
  ): Promise<WriteResult> {
    return updateJob(this.writer, idOrJobId, input, audit, incomplete);
  }

  /**
   * Moves a job to a status. Back to active renews it (datePosted is now, so the active days
   * start again); to dump stamps movedToDumpAt; a draft is published (see `setJobStatus`).
   */
  setStatus(idOrJobId: string, status: LifecycleStatus, audit?: Audit): Promise<WriteResult> {
    return setJobStatus(this.writer, idOrJobId, status, audit);
  }

  /** Deletes a job with its indexes and counters; null when there was none. */
  delete(idOrJobId: string, audit?: Audit): Promise<Job | null> {
    return deleteJob(this.writer, idOrJobId, audit);
  }

  /** Moves the jobs whose time is up: active ones to dump, those in the dump to inactive. */
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

/** Whether two copies of a job find the same jobs like it. */
function sameTerms(a: Job, b: Job): boolean {
  return JSON.stringify(similarBy(a)) === JSON.stringify(similarBy(b));
}
