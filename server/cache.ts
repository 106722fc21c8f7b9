/**
 * The HTTP answers the server keeps for reuse, all in one BoundedCache (kv/bounded-cache.ts says
 * where every other cache lives) with one budget in bytes, `CACHE_MB`. Each entry is keyed by the
 * normalised question and tagged with the revision of the job data it shows (and the analytics
 * version where it shows counts), so a changed job is never served from here.
 */
import type { Context } from "hono";
import { gzipSync } from "node:zlib";
import { BoundedCache, type CacheVersion, roughBytes } from "../kv/bounded-cache.ts";
import { type HeaderList, SecureAnswer } from "./security.ts";

/** What a kept Response costs beyond its body: the Response object and its header list. */
const ANSWER_OVERHEAD = 1024;

export class AnswerCache {
  private store: BoundedCache<unknown>;
  /** Answers being made, shared by every request that misses meanwhile; gone once settled. */
  private making = new Map<string, Promise<unknown>>();

  constructor(budgetBytes: number) {
    this.store = new BoundedCache(budgetBytes, { admission: true });
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.store.bytes;
  }

  get<T>(key: string, version: CacheVersion): T | undefined {
    return this.store.get(key, version) as T | undefined;
  }

  /** Whether `key` was asked for at least twice lately, this ask included. */
  askedTwice(key: string): boolean {
    return this.store.askedTwice(key);
  }

  holds(key: string): boolean {
    return this.store.holds(key);
  }

  set<T>(key: string, version: CacheVersion, value: T, bytes: number): void {
    this.store.set(key, version, value, bytes);
  }

  /**
   * The answer under `key` for `version`, made by `make` on a miss and kept with the size `make`
   * reports. A failed `make` is not kept: the next request tries again. An answer that `holds`
   * says no longer holds (its Date posted windows have moved on) is made again.
   */
  async remember<T>(
    key: string,
    version: CacheVersion,
    make: () => Promise<Sized<T>> | Sized<T>,
    holds: (value: T) => boolean = () => true,
  ): Promise<T> {
    const hit = this.get<T>(key, version);
    if (hit !== undefined && holds(hit)) return hit;
    const pendingKey = `${String(version)} ${key}`;
    let pending = this.making.get(pendingKey) as Promise<T> | undefined;
    if (!pending) {
      pending = Promise.resolve(make()).then(({ value, bytes }) => {
        this.set(key, version, value, bytes);
        return value;
      }).finally(() => this.making.delete(pendingKey));
      this.making.set(pendingKey, pending);
    }
    const value = await pending;
    // Begun before a minute turned, a shared answer may hold no longer: this ask makes its own.
    return holds(value) ? value : (await make()).value;
  }
}

/** A value and what it costs to keep. */
export interface Sized<T> {
  value: T;
  bytes: number;
}

const encoder = new TextEncoder();
const JSON_HEADERS: HeaderList = [["content-type", "application/json; charset=UTF-8"]];

/** How a kept answer's body goes out. */
export type Encoding = "identity" | "gzip";

/** Gzip when the request accepts it. */
export const encodingOf = (c: Context): Encoding =>
  /\bgzip\b/.test(c.req.header("accept-encoding") ?? "") ? "gzip" : "identity";

/**
 * `body` gzipped (text as UTF-8), in the request's own thread, with zlib at once: a
 * CompressionStream's hand-offs cost more than the compression. Level 2 gives pages a little larger
 * than level 4 in much less time. A worker gzipping off the thread cost more than it saved: handing
 * it a page cost about what compressing it does, and the trip back was a wait (the figures:
 * docs/decisions/020-pages-gzipped-in-the-thread-at-level-2.md).
 */
export function gzip(body: string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  // zlib's own conversion of a string to UTF-8 is the slower one (236 µs against 213 for a 27 KB page).
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  return new Uint8Array(gzipSync(bytes, { level: 2 }));
}

/**
 * A JSON or XML answer kept to give many times over: plain, or gzipped once, at the first ask that
 * accepts gzip, for every such ask after it (a sitemap of 20,000 jobs: 2 MB plain, 0.2 MB gzipped).
 */
export class KeptAnswer {
  readonly #answers: Partial<Record<Encoding, SecureAnswer>> = {};

  constructor(private body: Uint8Array<ArrayBuffer>, private headers: HeaderList) {}

  /** What keeping it costs: its body, its gzipped body (under half of it), the two Responses. */
  get bytes(): number {
    return this.body.length * 1.5 + 2 * ANSWER_OVERHEAD;
  }

  response(c: Context): Response {
    const encoding = encodingOf(c);
    this.#answers[encoding] ??= new SecureAnswer(
      encoding === "gzip" ? gzip(this.body) : this.body,
      200,
      encodedHeaders(this.headers, encoding),
    );
    return this.#answers[encoding].response();
  }
}

/** An answer's headers in `encoding`: either way it varies with what the client accepts. */
export function encodedHeaders(headers: HeaderList, encoding: Encoding): HeaderList {
  const vary: HeaderList = [...headers, ["vary", "accept-encoding"]];
  return encoding === "gzip" ? [...vary, ["content-encoding", "gzip"]] : vary;
}

function kept(answer: KeptAnswer): Sized<KeptAnswer> {
  return { value: answer, bytes: answer.bytes };
}

/** A JSON answer to give many times over, with its size. */
export function jsonAnswer(body: unknown): Sized<KeptAnswer> {
  return kept(new KeptAnswer(encoder.encode(JSON.stringify(body)), JSON_HEADERS));
}

/** A text answer (XML, RSS) to give many times over, with its size. */
export function textAnswer(text: string, headers: HeaderList): Sized<KeptAnswer> {
  return kept(new KeptAnswer(encoder.encode(text), headers));
}

/**
 * A query as a cache key: text trimmed with its white space collapsed, the fields in `caseless`
 * lower-cased (the search treats them so), empty fields dropped, and every field in name order,
 * so the same question however spelled is one key. The caller answers the normalised query too,
 * so one key can only ever mean one answer.
 */
export function normaliseQuery<T extends object>(
  query: T,
  caseless: readonly (keyof T & string)[],
): { query: T; key: string } {
  const normal: Record<string, unknown> = {};
  for (const name of Object.keys(query).sort() as (keyof T & string)[]) {
    let value: unknown = query[name];
    if (typeof value === "string") {
      value = value.trim().replace(/\s+/g, " ");
      if (caseless.includes(name)) value = (value as string).toLowerCase();
      if (value === "") continue;
    }
    if (value !== undefined) normal[name] = value;
  }
  return { query: normal as T, key: JSON.stringify(normal) };
}

/**
 * What query strings read as, kept by the string as it was asked, so a question asked again (a
 * popular search, a shared link) is not validated and normalised again: on an answer from the cache
 * that was half of the request's time. Only a query that reads is kept; a bad one fails each time
 * (docs/decisions/034-a-kept-answer-parses-nothing-it-parsed-before.md).
 */
export class QueryReadings<T> {
  private readings: BoundedCache<T>;

  constructor(private read: (c: Context) => T, budgetBytes: number) {
    this.readings = new BoundedCache(budgetBytes);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.readings.bytes;
  }

  of(c: Context): T {
    const url = c.req.url;
    const at = url.indexOf("?");
    const asked = at < 0 ? "" : url.slice(at + 1);
    const kept = this.readings.get(asked, 0);
    if (kept !== undefined) return kept;
    const reading = this.read(c);
    this.readings.set(asked, 0, reading, roughBytes(reading));
    return reading;
  }
}

/**
 * The default budget of every kept answer together, in MB: room for about 2,000 pages, while the
 * server grows by about twice the budget (the budget plus what V8 keeps around it; the figures:
 * docs/decisions/002-one-answer-cache-with-a-byte-budget.md).
 */
export const DEFAULT_CACHE_MB = 32;
