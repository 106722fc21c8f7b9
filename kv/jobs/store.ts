/**
 * The job store, the one entry point to jobs in KV: reads (by id, by link, admin lists, view and
 * click totals), the public catalogue kept current with the revision of the job data, and the
 * writes, lifecycle and bulk writes, which it hands to the modules that own them.
 */
import { keys } from "../keys.ts";
import { GET_MANY_KEYS, getAll, sharedRead } from "../atomic.ts";
import type { Job, JobAnalytics, JobInput, JobWithAnalytics, LifecycleStatus } from "../schemas.ts";
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
  ActiveCatalog,
  type FilterOptions,
  plainList,
  type PublicSearchQuery,
  type SearchPage,
} from "./catalogue.ts";
import {
  createJob,
  type CreateOptions,
  deleteJob,
  duplicateJob,
  setJobStatus,
  updateJob,
} from "./writes.ts";
import { type FollowOptions, RevisionFollower } from "./follow.ts";
import { readSnapshot, writeSnapshot } from "./snapshot.ts";
import { processStatusChanges } from "./lifecycle.ts";
import { bulkCreate, type BulkResult, importJobs } from "./bulk.ts";
import { type StoredJob, withoutVersion } from "./version.ts";

/** `fresh`: read the revision strongly now, for admin screens (an admin sees what they saved). */
export interface Freshness {
  fresh?: boolean;
}

/** How a store follows the job data and keeps its snapshot (see `JobStore.follow`). */
export interface StoreOptions {
  /** Quiet time after the last change before the catalogue's snapshot is rewritten. */
  snapshotSettleMs?: number;
  /** The least time between two snapshots, whichever processes write them. */
  snapshotIntervalMs?: number;
  /** Active jobs below which no snapshot is written: a small catalogue loads whole as fast. */
  snapshotMinJobs?: number;
}

/** What one job's remembered totals cost: its id and a two-number record. */
const TOTALS_ENTRY_BYTES = 96;
/**
 * Jobs read and indexed between two pauses of a whole catalogue load: small enough that answers
 * waiting meanwhile are not held up
 * (docs/decisions/007-lean-catalogue-loads-without-blocking-answers.md).
 */
const LOAD_BATCH = 200;
/** Revisions a catalogue catches up from the change log; further behind, it is loaded again. */
const CATCH_UP_REVISIONS = 1000;
const DEFAULT_SETTLE_MS = 30_000;
const DEFAULT_SNAPSHOT_INTERVAL_MS = 5 * 60_000;
const DEFAULT_SNAPSHOT_MIN_JOBS = 500;
const EVENTUAL = { consistency: "eventual" } as const;

export class JobStore {
  private catalog: ActiveCatalog | null = null;
  private totals = new BoundedCache<JobAnalytics>(CACHE_BUDGETS.jobTotals);
  /** The last `analytics_writes` read: a job's totals tagged with it need not be read beside it. */
  private lastAnalyticsVersion = -1n;
  private refreshing: Promise<ActiveCatalog> | null = null;
  /** What the write modules use of the store. */
  private readonly writer: JobWriter;
  /** Follows the revision for visitors' requests, once `follow` started it. */
  private follower: RevisionFollower | null = null;
  /** The newest revision this store's own commits made: its own pages show them at once. */
  private ownRevision = -1;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  /** The snapshot being written, which closing waits for: its database must stay open until done. */
  private snapshotWrite: Promise<unknown> | null = null;
  private closed = false;
  /** When the first change not in a snapshot yet was applied (on the store's clock), or null. */
  private unsnapshotted: number | null = null;
  private readonly settleMs: number;
  private readonly snapshotIntervalMs: number;
  private readonly snapshotMinJobs: number;

  constructor(
    private kv: Deno.Kv,
    private now: () => Date = () => new Date(),
    options: StoreOptions = {},
  ) {
    this.settleMs = options.snapshotSettleMs ?? DEFAULT_SETTLE_MS;
    this.snapshotIntervalMs = options.snapshotIntervalMs ?? DEFAULT_SNAPSHOT_INTERVAL_MS;
    this.snapshotMinJobs = options.snapshotMinJobs ?? DEFAULT_SNAPSHOT_MIN_JOBS;
    this.writer = {
      kv,
      now: () => this.now(),
      get: (idOrJobId) => this.get(idOrJobId),
      commit: (op) => this.commit(op),
    };
  }

  /**
   * Starts following the job data for visitors: the revision comes from the follower (a watch,
   * and reads that requests never wait for) instead of a read per request, and the catalogue
   * catches up in the background, so a visitor's answer never waits on a strong read. The
   * catalogue starts loading at once, from the snapshot when there is a good one.
   */
  follow(options: FollowOptions): void {
    this.follower ??= new RevisionFollower(this.kv, options, (revision) => {
      this.activeAt(revision).catch((error) =>
        console.error(`Following the job data failed (the next change tries again): ${error}`)
      );
    });
  }

  /** Stops following and the snapshot timer (tests, shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.snapshotTimer);
    await this.follower?.close();
    // What following started must end before the database closes under it.
    while (this.refreshing) await this.refreshing.catch(() => {});
    await this.snapshotWrite;
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
    const known = this.catalog?.idOf(idOrJobId);
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
    const stale = eventual && this.catalog && this.staleAgainstCatalog(entry, this.catalog);
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
   * and its view count, with the revision the page is kept under (the catalogue's). Under load
   * every trip to KV waits behind the other requests' work, and a visitor never waits on the
   * primary. Null when the catalogue does not know the job ID (`get` then answers).
   */
  async pageRead(jobId: string): Promise<{ revision: number; job: Job; views: number } | null> {
    const catalog = this.catalog;
    const id = catalog?.idOf(jobId);
    if (!catalog || !id) return null;
    const revision = await this.revision();
    const [record, writes, ...counters] = await this.kv.getMany<
      [StoredJob, Deno.KvU64, Deno.KvU64, Deno.KvU64]
    >([
      keys.job(id),
      keys.analyticsWrites(),
      keys.jobCounter(id, "views"),
      keys.jobCounter(id, "clicks"),
    ], EVENTUAL);
    if (record.value?.jobId !== jobId) return null;
    const checked = await this.checked(record, true);
    if (!checked) return null;
    const totals = new Map<string, JobAnalytics>();
    this.remember([id], counters, writes.value?.value ?? 0n, totals);
    return { revision, job: checked.job, views: totals.get(id)!.views };
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
   * The running view and click totals of each job. Totals read earlier are reused while
   * `analytics_writes` is unchanged: every counter write bumps it in the same atomic write, so an
   * unchanged value means unchanged totals. When every job's totals are known, concurrent callers
   * share the read of that counter, so a job read by many visitors at once costs one read, not two
   * counter reads each. A job page's totals not known yet are read with that counter in one
   * snapshot, not after it. A visitor's counts are read from a nearby replica.
   */
  async analyticsOf(
    ids: string[],
    { visitor = false } = {},
  ): Promise<Map<string, JobAnalytics>> {
    const result = new Map<string, JobAnalytics>();
    const unknown = ids.filter((id) => !this.totals.get(id, this.lastAnalyticsVersion));
    const options = visitor ? EVENTUAL : undefined;
    let version: bigint;
    if (unknown.length > 0 && unknown.length * 2 < GET_MANY_KEYS) {
      const [writes, ...counters] = await this.kv.getMany<Deno.KvU64[]>([
        keys.analyticsWrites(),
        ...unknown.flatMap((id) => [keys.jobCounter(id, "views"), keys.jobCounter(id, "clicks")]),
      ], options);
      version = writes.value?.value ?? 0n;
      this.remember(unknown, counters, version, result);
    } else version = await (visitor ? this.visitorAnalyticsVersion() : this.analyticsVersion());
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
      options,
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

  // ---- the public catalogue (in memory, following the revision) --------------------------

  /** The revision from the primary, shared by concurrent callers (admins, and stores not following). */
  private readonly readRevision = sharedRead(async () => (await this.meta()).revision);

  /**
   * The revision of the job data that answers are made and kept for. `fresh` reads it strongly,
   * for admin screens: an admin sees the jobs as they are, whichever process made the last change.
   * A store that follows (`follow`) answers visitors from what it follows, with no read: the
   * catalogue's revision once it is loaded (it catches up in the background), and the newest of
   * its own writes at once. A store that does not follow reads it on every call.
   */
  async revision({ fresh = false }: Freshness = {}): Promise<number> {
    const follower = this.follower;
    if (fresh || !follower) {
      const revision = await this.readRevision();
      follower?.note(revision);
      return revision;
    }
    follower.touch();
    if (!this.catalog) await follower.ready();
    return Math.max(this.catalog?.revision ?? follower.revision, this.ownRevision);
  }

  /** Commits a job write; this store's answers after it are of the revision it made. */
  private async commit(op: Deno.AtomicOperation): Promise<boolean> {
    const { ok } = await op.commit();
    const revision = revisionOf(op);
    if (ok && revision !== undefined) {
      this.ownRevision = Math.max(this.ownRevision, revision);
      this.follower?.note(revision);
    }
    return ok;
  }

  /** The analytics write counter: unchanged means no view or click total changed. */
  readonly analyticsVersion = sharedRead(async () =>
    (await this.kv.get<Deno.KvU64>(keys.analyticsWrites())).value?.value ?? 0n
  );

  /** The same from a nearby replica, for the counts a visitor sees. */
  private readonly visitorAnalyticsVersion = sharedRead(async () =>
    (await this.kv.get<Deno.KvU64>(keys.analyticsWrites(), EVENTUAL)).value?.value ?? 0n
  );

  /** Active jobs as of the current revision (see `revision`). */
  async active(freshness?: Freshness): Promise<ActiveCatalog> {
    return this.activeAt(await this.revision(freshness));
  }

  /** The catalogue when it is loaded, without waiting: null while a cold process loads it. */
  loadedCatalog(): ActiveCatalog | null {
    return this.catalog;
  }

  /** Active jobs as of `revision` or later, read by the caller: no second read of it. */
  private async activeAt(revision: number): Promise<ActiveCatalog> {
    // A refresh under way may be for an older revision than this caller read: then another follows.
    while (!this.catalog || this.catalog.revision < revision) {
      const target = Math.max(revision, this.follower?.revision ?? -1);
      this.refreshing ??= this.refresh(target).finally(() => (this.refreshing = null));
      await this.refreshing;
    }
    return this.catalog;
  }

  /**
   * Brings the catalogue to `revision`: from the change log when it is close enough; a cold
   * process starts from the snapshot; failing both, every active job is read.
   */
  private async refresh(revision: number): Promise<ActiveCatalog> {
    let current = this.catalog;
    if (!current) {
      const snapshot = await readSnapshot(this.kv).catch((error) => ({
        catalog: null,
        reason: String(error),
      }));
      if (snapshot.catalog) current = snapshot.catalog;
      else if (this.follower) {
        // A server says why its start reads every job; a task's output stays its own.
        console.log(
          `Loading every active job: the catalogue's snapshot is unusable (${snapshot.reason}).`,
        );
      }
    }
    if (current && await this.catchUp(current, revision)) {
      this.catalog = current;
      this.snapshotLater();
      return current;
    }
    const catalog = await this.loadWhole(revision);
    this.catalog = catalog;
    this.unsnapshotted ??= this.now().getTime();
    this.snapshotLater(0);
    return catalog;
  }

  /**
   * Applies the changes after the catalogue's revision up to `revision` from the change log;
   * false when the log no longer holds them all (then the catalogue is loaded whole).
   */
  private async catchUp(catalog: ActiveCatalog, revision: number): Promise<boolean> {
    if (catalog.revision >= revision) return true;
    if (revision - catalog.revision > CATCH_UP_REVISIONS) return false;
    const changed = new Set<string>();
    let seen = 0;
    for await (
      const entry of this.kv.list<string[]>({
        start: keys.jobsChange(catalog.revision + 1),
        end: keys.jobsChange(revision + 1),
      })
    ) {
      seen++;
      for (const id of entry.value) changed.add(id);
    }
    if (seen !== revision - catalog.revision) return false;
    const ids = [...changed];
    for (let first = 0; first < ids.length; first += LOAD_BATCH) {
      // A bulk upload's thousands of jobs are taken in batches, requests answered between them.
      if (first > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const batch = ids.slice(first, first + LOAD_BATCH);
      const entries = await getAll<StoredJob>(this.kv, batch.map((id) => keys.job(id)));
      batch.forEach((id, i) => {
        const entry = entries[i];
        catalog.apply(id, entry.value && withoutVersion(entry.value), entry.versionstamp ?? "");
      });
    }
    catalog.invalidate();
    catalog.revision = revision;
    if (ids.length > 0) this.unsnapshotted ??= this.now().getTime();
    return true;
  }

  private async loadWhole(revision: number): Promise<ActiveCatalog> {
    const catalog = new ActiveCatalog(revision);
    let taken = 0;
    for await (
      const entry of this.kv.list<StoredJob>({ prefix: keys.jobsByStatus("active") }, {
        batchSize: LOAD_BATCH,
      })
    ) {
      // The index entry is written in the job's own atomic write: it has the record's stamp.
      catalog.put(withoutVersion(entry.value), entry.versionstamp);
      // Requests go on being answered while a large catalogue loads: a pause every batch.
      if (++taken % LOAD_BATCH === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return catalog;
  }
  /**
   * Schedules the snapshot once the changes settle: `settleMs` after the last change, or at once
   * when the first change not in a snapshot is older than the interval between snapshots, so a
   * steady stream of edits still gets one. Only a following store (a server) writes snapshots.
   */
  private snapshotLater(delayMs = this.settleMs): void {
    if (!this.follower || this.unsnapshotted === null || this.closed) return;
    clearTimeout(this.snapshotTimer);
    const waited = this.now().getTime() - this.unsnapshotted;
    const delay = waited >= this.snapshotIntervalMs ? 0 : delayMs;
    this.snapshotTimer = setTimeout(() => {
      const saving = this.saveSnapshot().catch((error) =>
        console.error(
          "Writing the catalogue's snapshot failed (the next change tries again):",
          error,
        )
      );
      // An earlier write may still be under way: closing waits for both.
      const writing: Promise<unknown> = Promise.all([this.snapshotWrite, saving]).finally(() => {
        if (this.snapshotWrite === writing) this.snapshotWrite = null;
      });
      this.snapshotWrite = writing;
    }, delay);
    Deno.unrefTimer(this.snapshotTimer as unknown as number);
  }

  /**
   * Writes the catalogue's snapshot now, unless one as new is there or another process writes one;
   * returns whether this call wrote it.
   */
  async saveSnapshot(): Promise<boolean> {
    const catalog = this.catalog;
    if (!catalog || catalog.byId.size < this.snapshotMinJobs) return false;
    const since = this.unsnapshotted;
    const head = await writeSnapshot(this.kv, catalog, this.now(), {
      minIntervalMs: this.snapshotIntervalMs,
      hold: (read) => this.holdingCatalog(read),
    });
    if (this.unsnapshotted === since) this.unsnapshotted = null;
    return head !== null;
  }

  /**
   * Runs `read` while the catalogue stays as it is: it waits for a catch-up under way, and later
   * ones wait for it, as they wait for each other.
   */
  private async holdingCatalog<T>(read: () => Promise<T>): Promise<T> {
    while (this.refreshing) await this.refreshing.catch(() => {});
    const catalog = this.catalog!;
    const reading = read();
    const held = reading.then(() => catalog, () => catalog);
    this.refreshing = held.finally(() => (this.refreshing = null));
    return await reading;
  }

  /** A page of the public search with the dropdowns' counts, as lists show jobs. */
  async search(query: PublicSearchQuery): Promise<SearchPage> {
    return (await this.active()).page(query);
  }

  /**
   * A page of the public search with whole job records (the API, the feed), read from a nearby
   * replica. Newest or oldest first with no words or filters is read straight from KV's
   * date-ordered index while a cold process's catalogue is still loading, so a process answers
   * these at once after it starts; the rest wait for the catalogue.
   */
  async list(query: PublicSearchQuery): Promise<{ jobs: Job[]; pagination: Pagination }> {
    const revision = await this.revision();
    if (this.catalog?.revision !== revision && plainList(query)) {
      // The catalogue goes on loading meanwhile; a failure is met by the next caller that waits.
      this.active().catch(() => {});
      return await this.listFromKv(query);
    }
    const { jobs, pagination } = (await this.activeAt(revision)).page(query);
    const records = await this.getMany(jobs.map((job) => job._id), { visitor: true });
    return { jobs: records.filter((job) => job.status === "active"), pagination };
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
    const catalog = revision === undefined ? await this.active() : await this.activeAt(revision);
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
