/**
 * The one cache primitive of CareerEdge: a map bounded in bytes that keeps what is asked again and
 * lets the long tail go. Where every cache of the server lives:
 *
 * - server/cache.ts: every HTTP answer kept for reuse (the public `GET /api/jobs` pages and filter
 *   options, the admin list answers, the rendered public pages, the sitemaps and RSS feeds) in ONE
 *   BoundedCache with one budget, `CACHE_MB`. Keys are the normalised question, so equal questions
 *   share one answer, and every entry carries the revision of the job data it was made from.
 * - Smaller caches of data rather than answers, each a BoundedCache of its own with its budget in
 *   CACHE_BUDGETS below: view and click totals of jobs (kv/jobs/store.ts), analytics report answers and
 *   the job names they show (kv/analytics/reports.ts), verified admin tokens (server/auth.ts), user-agent
 *   verdicts (server/visitors.ts) and the job names the traffic counter records (server/counter.ts),
 *   each day's sources and search terms (kv/analytics/insight.ts), for one digest run its
 *   searches' newest matches and its mails (server/digest-mails.ts), the job cards the public
 *   lists show, as rendered HTML (routes/pages/cards.tsx), what the query strings of
 *   `GET /api/jobs` read as (routes/api/jobs.ts), and the public pages' gzipped answers from
 *   their first ask and kept pages' answers unzipped (routes/pages/cache.ts).
 * - Still bounded otherwise: the analytics reports' day counts (kv/analytics/reports.ts, one entry
 *   a day of the longest report period), what the traffic counter knows it counted
 *   (server/counter.ts, its own byte budget, oldest first), reads in flight shared by callers
 *   (kv/atomic.ts, gone once read), the day of each quarter hour (kv/days.ts, 4,096 a time zone),
 *   the stems of words the search has read (kv/search/vocabulary.ts, 1 MB, emptied when full),
 *   whether an address is a trusted proxy (server/request.ts, 4,096 addresses, emptied when full),
 *   the state and country words of a job's location (kv/place.ts, 1,024 locations of at most 200
 *   characters, emptied when full), and each day's text (client/components/dates.ts, 1,024 a format),
 *   and how often each key of the answer cache and of the job cards was asked lately (`AskCounts`
 *   below, five bytes for each 512 bytes of their budgets, at most 640 KB), by which a public page
 *   is kept from its second ask and a new entry pushes out only entries asked less often.
 *
 * The active-job catalogue (kv/jobs/catalogue.ts) and its search index are not caches: they are one copy of
 * the active jobs, sized by the data.
 *
 * Eviction is a segmented LRU. A new entry starts on probation; asked for again, it moves to the
 * protected segment (most of the budget). Only the least recently used entry on probation is let go
 * while probation holds any, so a crawler walking every job page once passes through probation and
 * cannot push out the home page or a popular search, which were asked for twice.
 *
 * A cache whose long tail is asked twice as well (20,000 job pages, each asked again a minute
 * later, beside 3,000 searches asked every few seconds) counts its asks (`admission`): a new entry
 * then pushes out only entries asked less often lately than itself, and is not kept otherwise
 * (TinyLFU's admission, docs/decisions/050-the-answer-cache-keeps-what-is-asked-most.md).
 */

const MB = 1024 * 1024;

/** The budget in bytes of each cache outside the answer cache (which has `CACHE_MB`). */
export const CACHE_BUDGETS = {
  /** View and click totals of jobs (kv/jobs/store.ts). */
  jobTotals: 2 * MB,
  /** Analytics report answers, each at most a few hundred rows (kv/analytics/reports.ts). */
  reportAnswers: 4 * MB,
  /** Names and companies of the jobs analytics reports list (kv/analytics/reports.ts). */
  reportJobNames: 2 * MB,
  /** Admin tokens whose signature was checked (server/auth.ts). */
  verifiedTokens: 1 * MB,
  /** Whether a user agent is a browser, and which (server/visitors.ts). */
  userAgentVerdicts: MB / 2,
  /** What each recent query string counts as a search (server/counter.ts). */
  searchedQueries: MB / 4,
  /** Names and companies of the jobs the traffic counter records (server/counter.ts). */
  counterJobNames: 2 * MB,
  /**
   * Each day's sources and search terms (kv/analytics/insight.ts): a day at its limits (400
   * values) is about 100 KB, a quiet day a few; 90 busy days fit.
   */
  insightDays: 8 * MB,
  /** A digest run's newest matches of each search (server/digest-mails.ts). */
  digestMatches: 1 * MB,
  /** A digest run's mails, shared by alerts with the same jobs (server/digest-mails.ts). */
  digestMails: 4 * MB,
  /** Job cards as rendered HTML, about 2.5 KB each: 3,000 of them (routes/pages/cards.tsx). */
  jobCards: 8 * MB,
  /** What `GET /api/jobs` query strings read as, about 1 KB each (server/cache.ts). */
  apiJobQueries: MB / 2,
  /**
   * Public pages' gzipped answers from their first ask, for their second (routes/pages/cache.ts):
   * a search page's is about 6 KB, so about 1,300 of them.
   */
  firstAnswers: 8 * MB,
  /**
   * Kept public pages' answers unzipped, for clients that take no gzip (routes/pages/cache.ts): a
   * page is about 30 KB, so about 130 of them.
   */
  plainAnswers: 4 * MB,
} as const;

/** Bytes a value takes in memory, roughly: two a character of its JSON, and an object's header. */
export function roughBytes(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return 2 * text.length + 64;
}

/** What a version tag may be: the revision of the job data, with the analytics version if shown. */
export type CacheVersion = string | number | bigint;

interface Entry<V> {
  value: V;
  version: CacheVersion;
  bytes: number;
  /** When it was last put in its map: entries newer than it were put there after. */
  placed: number;
}

/** Bytes an entry costs beyond its value: the key, the entry record and the maps' slots. */
const ENTRY_OVERHEAD = 160;
/** Share of the budget the protected segment may hold. */
const PROTECTED_SHARE = 0.8;
/** Share of the budget one entry may take; larger values are not kept (they would flush the rest). */
const LARGEST_SHARE = 0.125;

export interface BoundedCacheOptions {
  /**
   * Count every ask (`get`) and keep a new entry only if it was asked more often lately than each
   * entry it would push out.
   */
  admission?: boolean;
}

export class BoundedCache<V> {
  /** Insertion order is recency order: the first key is the least recently used. */
  private probation = new Map<string, Entry<V>>();
  private protected = new Map<string, Entry<V>>();
  private probationBytes = 0;
  private protectedBytes = 0;
  /** Puts into either map so far. */
  private placings = 0;
  /** How often each key was asked lately, with `admission`. */
  private readonly asks: AskCounts | null;

  constructor(readonly budgetBytes: number, { admission = false }: BoundedCacheOptions = {}) {
    this.asks = admission ? new AskCounts(askSlots(budgetBytes)) : null;
  }

  /** Bytes held, entry overheads included; never above the budget. */
  get bytes(): number {
    return this.probationBytes + this.protectedBytes;
  }

  get size(): number {
    return this.probation.size + this.protected.size;
  }

  /** The value under `key` if it was made for `version`; a hit counts as being asked again. */
  get(key: string, version: CacheVersion): V | undefined {
    this.asks?.count(key, Math.max(ASK_WINDOW_MIN, ASK_WINDOW_PER_ENTRY * this.size));
    const kept = this.protected.get(key);
    if (kept) {
      if (kept.version !== version) return undefined;
      // Moved to the newest end only once it is in the older half, so it is never the oldest. A
      // key moved at every hit costs each hit a walk over the places it left: V8's maps keep a
      // deleted place in its key's chain until the table is rebuilt, which in a map of thousands
      // took a hot key tens of microseconds a hit.
      if (this.placings - kept.placed >= this.protected.size / 2) {
        this.protected.delete(key);
        this.place(this.protected, key, kept);
      }
      return kept.value;
    }
    const trial = this.probation.get(key);
    if (!trial || trial.version !== version) return undefined;
    this.probation.delete(key);
    this.probationBytes -= trial.bytes;
    this.place(this.protected, key, trial);
    this.protectedBytes += trial.bytes;
    while (this.protectedBytes > this.budgetBytes * PROTECTED_SHARE) this.demoteOldest();
    return trial.value;
  }

  /**
   * Whether `key` was asked for (`get`) at least twice lately, this ask included; always false
   * without `admission`.
   */
  askedTwice(key: string): boolean {
    return (this.asks?.estimate(key) ?? 0) >= 2;
  }

  /** Whether `key` is held for any version; unlike `get`, not a sign of being asked again. */
  holds(key: string): boolean {
    return this.protected.has(key) || this.probation.has(key);
  }

  /**
   * Keeps `value`, `bytes` long, for `version`. A key already held (an older version of the same
   * answer) is replaced where it stands, so a hot page stays protected when the jobs change. With
   * `admission`, a new key that would push out an entry asked as often or more is not kept.
   */
  set(key: string, version: CacheVersion, value: V, bytes: number): void {
    const cost = Math.ceil(bytes) + ENTRY_OVERHEAD + key.length * 2;
    const wasProtected = this.protected.has(key);
    const held = wasProtected || this.probation.has(key);
    this.delete(key);
    if (cost > this.budgetBytes * LARGEST_SHARE) return;
    if (this.asks && !held && !this.admits(this.asks, key, cost)) return;
    const entry = { value, version, bytes: cost, placed: 0 };
    if (wasProtected) {
      this.place(this.protected, key, entry);
      this.protectedBytes += cost;
    } else {
      this.place(this.probation, key, entry);
      this.probationBytes += cost;
    }
    while (this.bytes > this.budgetBytes) this.evictOldest();
  }

  delete(key: string): void {
    const kept = this.protected.get(key);
    if (kept) {
      this.protected.delete(key);
      this.protectedBytes -= kept.bytes;
    }
    const trial = this.probation.get(key);
    if (trial) {
      this.probation.delete(key);
      this.probationBytes -= trial.bytes;
    }
  }

  clear(): void {
    this.probation.clear();
    this.protected.clear();
    this.probationBytes = 0;
    this.protectedBytes = 0;
  }

  /**
   * Whether `key` is asked more often than every entry that would make room for it (`cost` bytes):
   * those on probation, least recently used first, as `evictOldest` lets them go.
   */
  private admits(asks: AskCounts, key: string, cost: number): boolean {
    let room = this.budgetBytes - this.bytes;
    if (room >= cost) return true;
    const wanted = asks.estimate(key);
    for (const [victim, entry] of this.probation) {
      if (asks.estimate(victim) >= wanted) return false;
      room += entry.bytes;
      if (room >= cost) return true;
    }
    // Kept, it would be the next on probation to go: only the protected entries are older.
    return false;
  }

  /** The least recently used protected entry gets one more chance, on probation. */
  private demoteOldest(): void {
    const [key, entry] = this.protected.entries().next().value!;
    this.protected.delete(key);
    this.protectedBytes -= entry.bytes;
    this.place(this.probation, key, entry);
    this.probationBytes += entry.bytes;
  }

  private place(segment: Map<string, Entry<V>>, key: string, entry: Entry<V>): void {
    entry.placed = ++this.placings;
    segment.set(key, entry);
  }

  private evictOldest(): void {
    const segment = this.probation.size ? this.probation : this.protected;
    const [key, entry] = segment.entries().next().value!;
    segment.delete(key);
    if (segment === this.probation) this.probationBytes -= entry.bytes;
    else this.protectedBytes -= entry.bytes;
  }
}

/**
 * Asks counted before the counts are halved, for each entry held: TinyLFU's sample of ten times
 * the entries, so what was asked often a few windows ago weighs little against what is asked now.
 */
const ASK_WINDOW_PER_ENTRY = 10;
/** Asks counted before the counts are halved, however few entries are held. */
const ASK_WINDOW_MIN = 1024;

/** Slots of `AskCounts` for a cache of `budgetBytes`: one for each 512 bytes of budget. */
function askSlots(budgetBytes: number): number {
  const wanted = Math.min(Math.max(budgetBytes / 512, 1024), 131_072);
  return 2 ** Math.ceil(Math.log2(wanted));
}

/** FNV-1a over the UTF-16 code units of `key`; never 0, which marks an empty slot. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) || 1;
}

/**
 * How often each key was asked lately, in little memory (TinyLFU). A key's first ask goes to the
 * doorkeeper, a table of the hashes of keys asked once, each in one slot and forgotten when another
 * takes it; its later asks go to a count-min sketch of byte counters, where a key adds one to four
 * counters and its count is the least of them (never too low; too high only where other keys
 * share all four). Keys asked once, most of them, so never crowd the counters. Every `window` asks
 * the counts are halved and the doorkeeper emptied, and asks long past fade.
 */
export class AskCounts {
  private readonly door: Uint32Array;
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private asks = 0;

  /** `slots`, a power of two, is the size of each table: five bytes a slot in all. */
  constructor(slots: number) {
    if (slots <= 0 || (slots & (slots - 1)) !== 0) throw new RangeError(`${slots} slots`);
    this.door = new Uint32Array(slots);
    this.counters = new Uint8Array(slots);
    this.mask = slots - 1;
  }

  /** Counts an ask of `key`; every `window` asks, the counts are halved. */
  count(key: string, window: number): void {
    const hash = hashOf(key);
    const door = (hash ^ (hash >>> 16)) & this.mask;
    if (this.door[door] !== hash) this.door[door] = hash;
    else {
      const step = stepOf(hash);
      for (let i = 0; i < 4; i++) {
        const slot = (hash + i * step) & this.mask;
        if (this.counters[slot] < 255) this.counters[slot]++;
      }
    }
    if (++this.asks >= window) {
      this.asks = 0;
      this.door.fill(0);
      for (let i = 0; i < this.counters.length; i++) this.counters[i] >>= 1;
    }
  }

  /** How often `key` was asked lately (at least). */
  estimate(key: string): number {
    const hash = hashOf(key);
    const step = stepOf(hash);
    let least = 255;
    for (let i = 0; i < 4; i++) {
      least = Math.min(least, this.counters[(hash + i * step) & this.mask]);
    }
    return least + (this.door[(hash ^ (hash >>> 16)) & this.mask] === hash ? 1 : 0);
  }
}

/** The stride between a key's four counters: odd, so they are four different slots. */
function stepOf(hash: number): number {
  return (Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0) | 1;
}
