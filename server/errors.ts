/** Every API error is JSON `{ "message": ... }` with the right status; nothing leaks a stack trace. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ConflictError } from "../kv/atomic.ts";

/** Ends the request with a JSON error; extra fields (such as `existingJob`) ride along. */
export function fail(
  status: ContentfulStatusCode,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): never {
  throw new HTTPException(status, {
    res: new Response(JSON.stringify({ message, ...extra }), {
      status,
      headers: { "content-type": "application/json; charset=UTF-8", ...headers },
    }),
  });
}

export const DISK_FULL_MESSAGE =
  "Nothing can be saved right now: the server's disk is full. Please try again later.";

/** SQLite's answer to a write (or a read that needs room) when the disk has no space left. */
function isDiskFull(error: Error): boolean {
  return /database or disk is full|No space left on device/.test(error.message);
}

export function onError(error: Error, c: Context): Response {
  if (error instanceof HTTPException) {
    if (error.res) return error.res;
    return c.json({ message: error.message || "Request failed" }, error.status);
  }
  if (error instanceof ConflictError) {
    return c.json({ message: error.message }, 503, { "retry-after": "1" });
  }
  if (isDiskFull(error)) {
    console.error(`${c.req.method} ${c.req.path}: the database's disk is full`);
    return c.json({ message: DISK_FULL_MESSAGE }, 503, { "retry-after": "60" });
  }
  // A visitor who left (a closed tab, a client's time-out) aborts the work done for them: no
  // fault of the server's, and nobody reads the answer.
  const { signal } = c.req.raw;
  if (!(signal.aborted && error === signal.reason)) {
    console.error(`${c.req.method} ${c.req.path}:`, error);
  }
  return c.json({ message: "Internal server error" }, 500);
}
