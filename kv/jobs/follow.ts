/**
 * Follows the revision of the job data (`jobs_meta.revision`) and the analytics write counter
 * (`analytics_writes`, bumped by every write of view and click totals) without a read on a
 * visitor's request: `kv.watch` pushes every change of either (restarted whenever its stream ends),
 * eventual reads fill in while the watch is down, and, where the watch cannot see other processes'
 * writes (a local SQLite file watched by another process), a cheap read every few milliseconds
 * while requests come (an idle process reads nothing).
 */
import { keys } from "../keys.ts";
import type { JobsMeta } from "./records.ts";

export interface FollowOptions {
  /**
   * How often, at most, an eventual read of the revision runs beside the watch while requests ask
   * for the revision (no request waits for it); 0 leaves it to the watch. A local database file
   * needs it: SQLite's watch sees only the writes of the process watching.
   */
  pollMs: number;
  /** How long to wait before restarting a watch that failed, and between reads while it is down. */
  retryMs?: number;
}

/** The keys followed: the job data's revision and the analytics write counter. */
const FOLLOWED = [keys.jobsMeta(), keys.analyticsWrites()] as const;

/** Reads the watch is given back while it is down (in ms). */
const DEFAULT_RETRY_MS = 1000;

export class RevisionFollower {
  /** The newest revision seen; -1 before the first. */
  revision = -1;
  /**
   * The newest analytics write counter seen, or undefined when it is not known: before the first,
   * and from this process's own analytics write (`forgetAnalytics`) until a read after it.
   */
  analyticsVersion: bigint | undefined = undefined;
  /** Bumped by `forgetAnalytics`: a counter read begun before it may be older than that write. */
  private analyticsEpoch = 0;
  /** Watch streams started (the first and every restart): tests and the bench read it. */
  watchStarts = 0;
  private closed = false;
  private polling: Promise<void> | null = null;
  /** When the last read asked for by `touch` started (performance.now()). */
  private polledAt = -Infinity;
  private readonly pollMs: number;
  private first: Promise<void>;
  private stopWatch: (() => void) | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly retryMs: number;

  constructor(
    private kv: Deno.Kv,
    options: FollowOptions,
    /** Told of every newer revision, in order of arrival. */
    private onRevision: (revision: number) => void,
  ) {
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.pollMs = options.pollMs;
    // Whichever comes first: the watch's first value or an eventual read.
    this.first = new Promise((resolve) => {
      const settle = this.onRevision;
      this.onRevision = (revision) => {
        resolve();
        settle(revision);
      };
    });
    this.watch();
    this.poll();
  }

  /**
   * A request read the revision: where the watch misses other processes' writes, a read starts
   * when the last is `pollMs` old, so a busy process learns of them within a few milliseconds
   * and an idle one spends nothing (docs/decisions/025-visitors-never-wait-on-kvs-primary.md).
   */
  touch(): void {
    if (this.pollMs <= 0) return;
    const now = performance.now();
    if (now - this.polledAt < this.pollMs) return;
    this.polledAt = now;
    this.poll();
  }

  /** Resolves once a revision is known (at once after the first). */
  ready(): Promise<void> {
    return this.first;
  }

  /** Takes a revision learnt elsewhere (this process's own commit, a strong read). */
  note(revision: number): void {
    if (revision <= this.revision || this.closed) return;
    this.revision = revision;
    this.onRevision(revision);
  }

  /**
   * This process wrote analytics: the counter is unknown until a read begun after the write, so
   * its own visitors never see totals from before it (the counter only grows, and a newer value is
   * never replaced by an older one).
   */
  forgetAnalytics(): void {
    this.analyticsEpoch++;
    this.analyticsVersion = undefined;
  }

  /** Takes both values of one read (the watch's or a poll's) begun in `epoch`. */
  private take(
    [meta, writes]: [Deno.KvEntryMaybe<JobsMeta>, Deno.KvEntryMaybe<Deno.KvU64>],
    epoch: number,
  ): void {
    this.note(meta.value?.revision ?? 0);
    const version = writes.value?.value ?? 0n;
    if (epoch !== this.analyticsEpoch || this.closed) return;
    if (this.analyticsVersion === undefined || version > this.analyticsVersion) {
      this.analyticsVersion = version;
    }
  }

  private poll(): void {
    if (this.polling || this.closed) return;
    const epoch = this.analyticsEpoch;
    this.polling = this.kv.getMany<[JobsMeta, Deno.KvU64]>(FOLLOWED, { consistency: "eventual" })
      .then((entries) => this.take(entries, epoch))
      .catch(() => {})
      .finally(() => (this.polling = null));
  }

  private watch(): void {
    if (this.closed) return;
    this.watchStarts++;
    let stream: ReadableStream<[Deno.KvEntryMaybe<JobsMeta>, Deno.KvEntryMaybe<Deno.KvU64>]>;
    try {
      stream = this.kv.watch<[JobsMeta, Deno.KvU64]>(FOLLOWED);
    } catch {
      return this.retry();
    }
    const reader = stream.getReader();
    this.stopWatch = () => reader.cancel().catch(() => {});
    (async () => {
      try {
        while (!this.closed) {
          // A value the watch sends was read after any write this process had made before.
          const epoch = this.analyticsEpoch;
          const { done, value } = await reader.read();
          if (done) break;
          this.take(value, epoch);
        }
      } catch {
        // A broken stream is restarted below like an ended one.
      }
      this.retry();
    })();
  }

  /** While the watch is down, an eventual read every `retryMs` until it is back. */
  private retry(): void {
    this.stopWatch = null;
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.poll();
      this.watch();
    }, this.retryMs);
  }

  /** Stops following; resolves once no read of its own is under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopWatch?.();
    await this.polling;
  }
}
