/** Facts about the client of a request. */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/**
 * The client's address as the socket reports it. Forwarding headers are not trusted: anyone can
 * send them. Under `app.request()` there is no socket, unless the test passes one as the env.
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
