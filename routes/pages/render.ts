/**
 * Turning a page element into a response. Pages whose data is at hand render to a string, which is
 * several times cheaper than a stream, and are cached; when data is slow the shell and the Suspense
 * skeletons are streamed at once and the content follows, revealed by React's inline script, which
 * carries the response's CSP nonce. Crawlers always wait for the whole page. The figures:
 * docs/decisions/004-pages-render-to-a-string-when-data-is-at-hand.md.
 */
import type { Context } from "hono";
import { createElement, type ReactElement } from "react";
import { renderToReadableStream, renderToStaticMarkup, renderToString } from "react-dom/server";
import { isbot } from "isbot";
import { type HeaderList, newNonce, secureResponse } from "../../server/security.ts";
import { IslandScriptsContext } from "../../client/components/island.tsx";
import { islandScripts } from "./islands.ts";

/**
 * How long a page waits for its data before it streams the skeletons instead: long enough that a
 * busy server's ordinary delays still give whole pages, short next to a cold start's catalogue load.
 */
export const SLOW_DATA_MS = 100;

export const HTML_HEADERS: HeaderList = [["content-type", "text/html; charset=UTF-8"]];

/** A promise marked the way React's `use` reads it, so data that has arrived renders at once. */
export type Tracked<T> = Promise<T> & { status?: string; value?: T; reason?: unknown };

export function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked: Tracked<T> = promise;
  tracked.status = "pending";
  // The handlers return nothing: returning the promise itself would chain its rejection onward.
  promise.then(
    (value) => {
      Object.assign(tracked, { status: "fulfilled", value });
    },
    (reason) => {
      Object.assign(tracked, { status: "rejected", reason });
    },
  );
  return tracked;
}

/** Whether the request comes from a crawler, which gets whole pages rather than skeletons. */
export const isCrawler = (c: Context): boolean => isbot(c.req.header("user-agent") ?? "");

/** Whether `data` settled within SLOW_DATA_MS (always waits for crawlers: they get whole pages). */
export async function settledInTime(c: Context, data: Tracked<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = isCrawler(c) ? data.then(() => true, () => true) : Promise.race([
    data.then(() => true, () => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(resolve, SLOW_DATA_MS, false))),
  ]);
  const settled = await waited;
  clearTimeout(timer);
  if (data.status === "rejected") throw data.reason;
  return settled;
}

/** `element` with the record its islands write their scripts into (client/islands). */
function withIslands(element: ReactElement, nonce?: string): ReactElement {
  return createElement(IslandScriptsContext, { value: islandScripts(nonce) }, element);
}

/**
 * Markup rendered once and put into many pages (the job cards, the header, the footer), as one flat
 * string. React builds its output with `+=`, which V8 holds as a tree of thousands of small pieces
 * and copies into one string only when the text is read whole; a kept tree is not flattened by
 * the page around it, so every page's encoding walked each kept card's pieces again (a results
 * page's copy took 300-400 µs, as long as its render; 70 µs with its parts flat). Reading one
 * character makes V8 flatten the string in place, once.
 */
export function keptMarkup(element: ReactElement): string {
  const html = renderToStaticMarkup(element);
  html.charCodeAt(0);
  return html;
}

export function renderDocument(element: ReactElement): string {
  return `<!DOCTYPE html>${renderToString(withIslands(element))}`;
}

/**
 * Streams the page. A visitor who leaves mid-page (a closed tab, a client's time-out) makes the
 * server cancel the body, which stops React's rendering; what React then reports is the visitor's
 * leaving, not a fault of the server, so it is not logged. The body's own cancel says so, not the
 * request's signal: under `deno serve` and on Deno Deploy reading that signal prints a warning
 * for the log of every worker, and it also aborts after an answer delivered whole.
 */
export async function streamDocument(c: Context, element: ReactElement, status: number) {
  const nonce = newNonce();
  let left = false;
  const stream = await renderToReadableStream(withIslands(element, nonce), {
    nonce,
    onError(error) {
      if (!left) console.error(`${c.req.method} ${c.req.path}:`, error);
    },
  });
  // React rejects allReady when rendering fails after the shell went out; onError has logged it.
  stream.allReady.catch(() => {});
  const reader = stream.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      left = true;
      return reader.cancel(reason);
    },
  });
  return secureResponse(body, status, HTML_HEADERS, nonce);
}
