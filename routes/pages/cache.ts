/**
 * Rendered public pages, kept in the server's one answer cache (server/cache.ts) per canonical URL
 * and valid for one revision of the job data (`jobs_meta.revision`, bumped by every job write in
 * any process). Each request checks the page against the revision in KV as read at most
 * REVISION_MAX_AGE_MS (10 ms) before it (`JobStore.revision`), so no process serves a page that a
 * job write older than that has changed.
 */

import { type HeaderList, SecureAnswer } from "../../server/security.ts";
import type { AnswerCache } from "../../server/cache.ts";
import { HTML_HEADERS } from "./render.ts";

/** Marks where a job page's view count goes: the count changes too often to be cached. */
export const VIEWS_PLACEHOLDER = "<!--views-->";

export type PageEncoding = "identity" | "gzip";

const PAGE_HEADERS: Record<PageEncoding, HeaderList> = {
  identity: [...HTML_HEADERS, ["vary", "accept-encoding"]],
  gzip: [...HTML_HEADERS, ["vary", "accept-encoding"], ["content-encoding", "gzip"]],
};

export interface CachedPage {
  status: number;
  /** The HTML, split at the view count placeholder when the page has one. */
  parts: Uint8Array<ArrayBuffer>[];
  /** The job shown, for counting its views and reading its count. */
  jobKey?: string;
  /**
   * The page's answer in each encoding, made on first demand and again when the view count in it
   * changes: a page is compressed once, not once per visitor.
   */
  answers: Partial<Record<PageEncoding, { views: number; answer: Promise<SecureAnswer> }>>;
}

const encoder = new TextEncoder();

export function cachedPage(status: number, html: string, jobKey?: string): CachedPage {
  return {
    status,
    parts: html.split(VIEWS_PLACEHOLDER).map((part) => encoder.encode(part)),
    jobKey,
    answers: {},
  };
}

/** The page's bytes, with the view count written in where the placeholder was. */
export function pageBytes(page: CachedPage, views = 0): Uint8Array<ArrayBuffer> {
  if (page.parts.length === 1) return page.parts[0];
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

/**
 * The page's answer in `encoding`, showing `views` where the page has a view count; `gzip`
 * compresses (server/compress.ts).
 */
export function pageAnswer(
  page: CachedPage,
  encoding: PageEncoding,
  views: number,
  gzip: (bytes: Uint8Array<ArrayBuffer>) => Promise<Uint8Array<ArrayBuffer>>,
): Promise<SecureAnswer> {
  const made = page.answers[encoding];
  if (made?.views === views) return made.answer;
  const bytes = pageBytes(page, views);
  const answer = (encoding === "gzip" ? gzip(bytes) : Promise.resolve(bytes))
    .then((body) => new SecureAnswer(body, page.status, PAGE_HEADERS[encoding]));
  page.answers[encoding] = { views, answer };
  return answer;
}

/**
 * What a page costs to keep: its HTML, a second copy when a view count is written into it, and
 * its gzipped answer (at most half the HTML for any page of ours), plus the two Response objects.
 */
export function pageSize(page: CachedPage): number {
  const html = page.parts.reduce((sum, part) => sum + part.length, 0);
  return html * (page.parts.length > 1 ? 2.5 : 1.5) + 2048;
}

/** The rendered pages in the server's answer cache. */
export function pageCache(cache: AnswerCache) {
  return {
    get: (key: string, revision: number) => cache.get<CachedPage>(`page ${key}`, revision),
    set: (key: string, revision: number, page: CachedPage) =>
      cache.set(`page ${key}`, revision, page, pageSize(page)),
  };
}
