/**
 * Live reload for `deno task dev` (server/dev.ts), in development mode only (NODE_ENV=development):
 * every page loads `/_dev/reload.js`, which listens on `/_dev/reload` for this server's build and
 * start ids and reloads the page when they differ from the first it heard, as after the dev loop
 * rebuilt the browser code and restarted the server (the stream reconnects to the new process).
 * A production server has neither the routes nor the script tag.
 */
import { Hono } from "hono";
import { servedBuild } from "./dist.ts";

/** Whether this process runs in development mode (a process-wide choice, like React's build). */
export const DEVELOPMENT = Deno.env.get("NODE_ENV") === "development";

/**
 * Set by the dev loop on a server it starts while it rebuilds the browser code: the server loads
 * its modules and opens the database meanwhile, and listens once the loop says so (a line on its
 * standard input), when the old server has stopped and the new build is `current`.
 */
export const HANDOFF_ENV = "CAREEREDGE_DEV_HANDOFF";

/**
 * The line a server the dev loop started ahead prints once it has loaded and waits to listen: the
 * loop stops the server before only then, so server code that does not start leaves it serving.
 */
export const READY_LINE = "CAREEREDGE_DEV_READY";

/** Resolves once this process may listen: at once, but in a server the dev loop started ahead. */
export async function handedOver(): Promise<void> {
  if (!DEVELOPMENT || Deno.env.get(HANDOFF_ENV) !== "1") return;
  console.log(READY_LINE);
  const reader = Deno.stdin.readable.getReader();
  const { done } = await reader.read();
  reader.releaseLock();
  // The loop ended before handing over (its end of the pipe closed): nobody wants this server.
  if (done) Deno.exit(0);
}

/** The script tag's `src` on every page, or null outside development mode. */
export const LIVE_RELOAD_SCRIPT = DEVELOPMENT ? "/_dev/reload.js" : null;

/** Reconnects quickly after a restart; a closed stream (an error answer) is opened again. */
const CLIENT_SCRIPT = `let heard;
const listen = () => {
  const source = new EventSource("/_dev/reload");
  source.onmessage = (event) => {
    if (heard !== undefined && heard !== event.data) location.reload();
    heard = event.data;
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 500);
  };
};
listen();
`;

/** A restart is seen within the `retry` time; the comment every 15 s keeps proxies from timing out. */
const RETRY_MS = 250;
const KEEP_ALIVE_MS = 15_000;

const startId = crypto.randomUUID();
const encoder = new TextEncoder();
interface OpenStream {
  controller: ReadableStreamDefaultController<Uint8Array>;
  timer: ReturnType<typeof setInterval>;
}
const open = new Set<OpenStream>();

/** Ends every open stream, so a graceful stop need not wait for pages to go away. */
export function closeLiveReloads() {
  for (const stream of open) {
    clearInterval(stream.timer);
    stream.controller.close();
  }
  open.clear();
}

/** `/reload.js` and `/reload` (mounted at `/_dev` in development mode). */
export function liveReloadRoutes() {
  const app = new Hono();
  app.get("/reload.js", (c) => {
    c.header("cache-control", "no-store");
    return c.body(CLIENT_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" });
  });
  app.get("/reload", () => {
    const build = servedBuild().pathname.split("/").at(-2);
    let stream: OpenStream | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\ndata: ${build} ${startId}\n\n`));
        const timer = setInterval(() => controller.enqueue(encoder.encode(":\n\n")), KEEP_ALIVE_MS);
        const opened = { controller, timer };
        open.add(opened);
        stream = opened;
      },
      cancel() {
        if (!stream) return;
        clearInterval(stream.timer);
        open.delete(stream);
      },
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
    });
  });
  return app;
}
