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

export function onError(error: Error, c: Context): Response {
  if (error instanceof HTTPException) {
    if (error.res) return error.res;
    return c.json({ message: error.message || "Request failed" }, error.status);
  }
  if (error instanceof ConflictError) {
    return c.json({ message: error.message }, 503, { "retry-after": "1" });
  }
  // A visitor who left (a closed tab, a client's time-out) aborts the work done for them: no
  // fault of the server's, and nobody reads the answer.
  const { signal } = c.req.raw;
  if (!(signal.aborted && error === signal.reason)) {
    console.error(`${c.req.method} ${c.req.path}:`, error);
  }
  return c.json({ message: "Internal server error" }, 500);
}
