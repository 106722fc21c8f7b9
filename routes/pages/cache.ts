/**
 * Rendered public pages, kept in the server's one answer cache (server/cache.ts) per canonical URL
 * and valid for one revision of the job data (`jobs_meta.revision`, bumped by every job write in
 * any process). Each request checks the page against the revision the job store follows
 * (`JobStore.revision`: the watch of that record, with no read on the request), so a page is
 * served until the process learns of a change, within a second of the write. This module holds a
 * kept page's bytes and answers; what a page is kept under, and when, is the caching policy's
 * (routes/cache-policy.ts).
 */

import { type HeaderList, SecureAnswer, secureResponse } from "../../server/security.ts";
import { gunzipSync } from "node:zlib";
import { type AnswerCache, encodedHeaders, type Encoding, gzip } from "../../server/cache.ts";
import { BoundedCache, CACHE_BUDGETS } from "../../kv/bounded-cache.ts";
import { HTML_HEADERS } from "./render.ts";

/** Marks where a job page's view count goes: the count changes too often to be cached. */
export const VIEWS_PLACEHOLDER = "<!--views-->";

const PAGE_HEADERS: Record<Encoding, HeaderList> = {
  identity: encodedHeaders(HTML_HEADERS, "identity"),
  gzip: encodedHeaders(HTML_HEADERS, "gzip"),
};

export interface CachedPage {
  status: number;
  /**
   * The HTML of a page with a view count, split at the placeholder: its answers are made again
   * when the count changes. Empty for a page without one, which keeps only `gzipped`.
   */
  parts: Uint8Array<ArrayBuffer>[];
  /**
   * All a page without a view count keeps: its gzipped answer, a fifth of its HTML. The answer
   * cache then holds five to six times as many searches as when each kept its HTML beside it (a
   * kept results page cost 1.5 times its HTML). `id` finds its unzipped answer in `plainAnswers`.
   */
  gzipped?: { bytes: Uint8Array<ArrayBuffer>; id: string };
  /** The job shown, for counting its views and reading its count. */
  jobKey?: string;
  /** The last minute (ms) the page holds for (`PageOrder.until`); Infinity for every minute. */
  until: number;
  /**
   * The page's answer in each encoding, made on first demand and again when the view count in it
   * changes: a page is compressed once, not once per visitor.
   */
  answers: Partial<Record<Encoding, { views: number; answer: SecureAnswer }>>;
}

const encoder = new TextEncoder();

export function cachedPage(
  status: number,
  html: string,
  { jobKey, until = Infinity }: { jobKey?: string; until?: number } = {},
): CachedPage {
  const parts = html.split(VIEWS_PLACEHOLDER);
  if (parts.length === 1) return pageOf({ status, gzipped: gzip(html), until }, jobKey);
  return { status, parts: parts.map((part) => encoder.encode(part)), jobKey, until, answers: {} };
}

/** The page's bytes, with the view count written in where the placeholder was. */
function pageBytes(page: CachedPage, views: number): Uint8Array<ArrayBuffer> {
  const filler = encoder.encode(String(views));
  const size = page.parts.reduce((sum, part) => sum + part.length, 0) +
    filler.length * (page.parts.length - 1);
  const bytes = new Uint8Array(size);
  let offset = 0;
  page.parts.forEach((part, i) => {
    if (i > 0) {
      bytes.set(filler, offset);
      offset += filler.length;
    }
    bytes.set(part, offset);
    offset += part.length;
  });
  return bytes;
}

/** The page's answer in `encoding`, showing `views` where the page has a view count. */
export function pageAnswer(page: CachedPage, encoding: Encoding, views: number): SecureAnswer {
  const made = page.answers[encoding];
  if (made?.views === views) return made.answer;
  if (page.gzipped) return plainAnswer(page.status, page.gzipped);
  const bytes = pageBytes(page, views);
  const body = encoding === "gzip" ? gzip(bytes) : bytes;
  const answer = new SecureAnswer(body, page.status, PAGE_HEADERS[encoding]);
  page.answers[encoding] = { views, answer };
  return answer;
}

/**
 * The unzipped answers of pages kept as their gzipped answer alone, for the clients that take no
 * gzip (a health check, a crawler, curl): a page asked so again and again is unzipped once (made at
 * each ask, the job list gave 7,331 req/s against 18,906, and the server grew to 298 MB against
 * 197), and a walk over many pages stays within this budget.
 */
export const plainAnswers = new BoundedCache<SecureAnswer>(CACHE_BUDGETS.plainAnswers);
/** Numbers the pages kept as their gzipped answer alone, for `plainAnswers`. */
let gzippedPages = 0;

function plainAnswer(status: number, gzipped: NonNullable<CachedPage["gzipped"]>): SecureAnswer {
  const kept = plainAnswers.get(gzipped.id, 0);
  if (kept) return kept;
  const html = new Uint8Array(gunzipSync(gzipped.bytes));
  const answer = new SecureAnswer(html, status, PAGE_HEADERS.identity);
  plainAnswers.set(gzipped.id, 0, answer, html.length + 2048);
  return answer;
}

/**
 * The answer to a page made for this ask alone, not kept: its text is compressed as it is, with
 * no bytes of it made first. `views` is the count a job page shows; a page without one has no
 * placeholder to look for (a look through a search page's HTML took 0.3 ms of its 4).
 */
export function onceAnswer(
  status: number,
  html: string,
  encoding: Encoding,
  views: number | undefined,
): Response {
  const page = views === undefined ? html : html.replaceAll(VIEWS_PLACEHOLDER, String(views));
  return secureResponse(encoding === "gzip" ? gzip(page) : page, status, PAGE_HEADERS[encoding]);
}

/** A page's gzipped answer from its first ask, which a second ask is given without remaking it. */
interface FirstAnswer {
  status: number;
  gzipped: Uint8Array<ArrayBuffer>;
  until: number;
}

/** The page a gzipped answer is, kept as if it had been made at its second ask. */
function pageOf({ status, gzipped, until }: FirstAnswer, jobKey?: string): CachedPage {
  return {
    status,
    parts: [],
    gzipped: { bytes: gzipped, id: String(++gzippedPages) },
    jobKey,
    until,
    answers: { gzip: { views: 0, answer: new SecureAnswer(gzipped, status, PAGE_HEADERS.gzip) } },
  };
}

/**
 * What a page costs to keep: its gzipped answer alone, or, for a page with a view count, its HTML,
 * a second copy with the count written in, and its gzipped answer (at most half the HTML for any
 * page of ours); plus the Response objects.
 */
export function pageSize(page: CachedPage): number {
  if (page.gzipped) return page.gzipped.bytes.length + 2048;
  return page.parts.reduce((sum, part) => sum + part.length, 0) * 2.5 + 2048;
}

/**
 * The rendered pages in the server's answer cache. A page is kept from its second ask among the
 * asks the cache counts lately (or when it is already kept under an older revision), and then only
 * in place of pages asked less often (kv/bounded-cache.ts): a job page or search asked once or
 * twice an hour, the long tail of real traffic, would only push others out and leave garbage for
 * the collector to sweep (decision 050). A page without
 * a view count keeps its first gzipped answer (a fifth of its HTML) in a small cache of its own,
 * `firstAnswers`: its second ask is then given that answer, and the page kept from it, without the
 * search and the render again.
 */
export function pageCache(cache: AnswerCache) {
  const firstAnswers = new BoundedCache<FirstAnswer>(CACHE_BUDGETS.firstAnswers);
  const set = (key: string, revision: number, page: CachedPage) =>
    cache.set(`page ${key}`, revision, page, pageSize(page));
  return {
    /** The page kept under `key` for `revision` that holds at `minute` (`postedMinute`). */
    get(key: string, revision: number, minute: number): CachedPage | undefined {
      const kept = cache.get<CachedPage>(`page ${key}`, revision);
      if (kept) return kept.until >= minute ? kept : undefined;
      const first = firstAnswers.get(key, revision);
      if (!first) return undefined;
      firstAnswers.delete(key);
      // An answer whose jobs have left their window is dropped, not kept to be refused.
      if (first.until < minute) return undefined;
      const page = pageOf(first);
      set(key, revision, page);
      return page;
    },
    holds: (key: string) => cache.holds(`page ${key}`),
    /** Whether a page made now is worth keeping; counts this ask. */
    askedBefore: (key: string) => cache.askedTwice(`page ${key}`) || cache.holds(`page ${key}`),
    set,
    /**
     * The answer to a page's first ask, made for it alone; a page without a view count keeps it
     * (gzipped, as nearly every browser asks) for its second ask.
     */
    firstAnswer(
      { key, revision, status, until }: {
        key: string;
        revision: number;
        status: number;
        until: number;
      },
      html: string,
      encoding: Encoding,
      views: number | undefined,
    ): Response {
      if (views !== undefined || encoding !== "gzip") {
        return onceAnswer(status, html, encoding, views);
      }
      const gzipped = gzip(html);
      firstAnswers.set(key, revision, { status, gzipped, until }, gzipped.length);
      return secureResponse(gzipped, status, PAGE_HEADERS.gzip);
    },
  };
}
