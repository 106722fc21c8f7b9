/**
 * The public catalogue of one store, kept current with the revision of the job data: loaded from
 * the snapshot (or, failing that, from every active job), caught up from the change log, following
 * the revision for visitors once `follow` starts it, and snapshotted again once changes settle.
 */
import { keys } from "../keys.ts";
import { getAll, sharedRead } from "../atomic.ts";
import { freshMeta, type JobsMeta } from "./records.ts";
import { ActiveCatalog } from "./catalogue.ts";
import { type FollowOptions, RevisionFollower } from "./follow.ts";
import { readSnapshot, writeSnapshot } from "./snapshot.ts";
import { type StoredJob, withoutVersion } from "./version.ts";

/** `fresh`: read the revision strongly now, for admin screens (an admin sees what they saved). */
export interface Freshness {
  fresh?: boolean;
}

/** How a store follows the job data and keeps its snapshot (see `CatalogKeeper.follow`). */
export interface StoreOptions {
  /** Quiet time after the last change before the catalogue's snapshot is rewritten. */
  snapshotSettleMs?: number;
  /** The least time between two snapshots, whichever processes write them. */
  snapshotIntervalMs?: number;
  /** Active jobs below which no snapshot is written: a small catalogue loads whole as fast. */
  snapshotMinJobs?: number;
}

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

export class CatalogKeeper {
  /** The catalogue when it is loaded: null while a cold process loads it. */
  catalog: ActiveCatalog | null = null;
  private refreshing: Promise<ActiveCatalog> | null = null;
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

  constructor(private kv: Deno.Kv, private now: () => Date, options: StoreOptions = {}) {
    this.settleMs = options.snapshotSettleMs ?? DEFAULT_SETTLE_MS;
    this.snapshotIntervalMs = options.snapshotIntervalMs ?? DEFAULT_SNAPSHOT_INTERVAL_MS;
    this.snapshotMinJobs = options.snapshotMinJobs ?? DEFAULT_SNAPSHOT_MIN_JOBS;
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

  /** The revision from the primary, shared by concurrent callers (admins, and stores not following). */
  private readonly readRevision = sharedRead(async () =>
    freshMeta(await this.kv.get<JobsMeta>(keys.jobsMeta())).revision
  );

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

  /** The analytics write counter as followed; undefined when not following or not known. */
  followedAnalytics(): bigint | undefined {
    this.follower?.touch();
    return this.follower?.analyticsVersion;
  }

  /** This process wrote view or click totals: its visitors see them from their next answer. */
  analyticsWritten(): void {
    this.follower?.forgetAnalytics();
  }

  /** A revision this store's own commit made: its answers after it are of that revision. */
  committed(revision: number): void {
    this.ownRevision = Math.max(this.ownRevision, revision);
    this.follower?.note(revision);
  }

  /** Active jobs as of the current revision (see `revision`). */
  async active(freshness?: Freshness): Promise<ActiveCatalog> {
    return this.activeAt(await this.revision(freshness));
  }

  /** Active jobs as of `revision` or later, read by the caller: no second read of it. */
  async activeAt(revision: number): Promise<ActiveCatalog> {
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
}
