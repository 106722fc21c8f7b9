/**
 * `deno task dev`: the server in development mode (NODE_ENV=development: React's development build,
 * live reload, see server/live-reload.ts), restarted when code under client/, kv/, routes/ or
 * server/ or main.ts changes, after rebuilding the browser code the change reaches. A development
 * build is neither minified nor compressed, and remakes only the parts a change reaches (see
 * `partsFor` in server/build-inputs.ts), linking the rest from the build before. The restart also
 * makes the server serve the new build: a server reads `current` once (server/dist.ts) and keeps
 * rendered pages, which name the build's assets.
 */
import { build, DEV_PREFIX } from "./build.ts";
import { DevBundler } from "./dev-bundler.ts";
import { currentBuild, distRoot } from "./dist.ts";
import { partsFor, scriptInputs } from "./build-inputs.ts";
import { HANDOFF_ENV, READY_LINE } from "./live-reload.ts";

const root = new URL("../", import.meta.url);
const WATCHED = ["client", "kv", "routes", "server", "main.ts"];
/** Written by the build. */
const IGNORED = ["client/dist/", "client/.islands/"];
/** Changes arriving this close together are one change (an editor saves in several steps). */
const SETTLE_MS = 100;
/** How long a stopping server may take to finish before it is killed. */
const STOP_GRACE_MS = 5_000;
const bundler = new DevBundler(root.pathname);

/**
 * Builds for the sources as they are, reusing what the changed `paths` cannot have changed (all
 * made anew without them); null if it failed.
 */
async function rebuild(paths?: string[]): Promise<string | null> {
  const started = performance.now();
  const previous = currentBuild();
  const reuse = paths && previous?.startsWith(DEV_PREFIX)
    ? new URL(`${previous}/`, distRoot)
    : undefined;
  try {
    const parts = paths && reuse ? partsFor(paths, await scriptInputs(root)) : undefined;
    const id = await build({ dev: bundler, parts, reuse });
    if (id !== previous) {
      console.log(`Dev build in ${Math.round(performance.now() - started)} ms`);
    }
    return id;
  } catch (error) {
    console.error(`Dev build failed; the server keeps the build before: ${error}`);
    return null;
  }
}

/**
 * One server process. It starts held back (server/live-reload.ts, `handedOver`): it loads its
 * modules and opens the database while the loop rebuilds the browser code, and listens once
 * handed the port, so a restart waits for the slower of the two rather than both in turn.
 */
class Server {
  private readonly child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: root.pathname,
    env: { NODE_ENV: "development", [HANDOFF_ENV]: "1" },
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  private readonly stdin = this.child.stdin.getWriter();
  /**
   * True once it has loaded and waits to listen (READY_LINE); false if it exited before (an error
   * in the server code, in its log).
   */
  readonly ready = new Promise<boolean>((resolve) => void this.passOn(resolve));

  /** Passes its output on, but for the line that says it is ready. */
  private async passOn(ready: (said: boolean) => void) {
    const out = new TextEncoder();
    let rest = "";
    for await (const text of this.child.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + text).split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        if (line === READY_LINE) ready(true);
        else await Deno.stdout.write(out.encode(`${line}\n`));
      }
    }
    if (rest) await Deno.stdout.write(out.encode(rest));
    ready(false);
  }

  /** Lets it listen: the port is free and the build it should serve is `current`. */
  async handOver() {
    // It may have exited already (an error in the server code, in its log).
    await this.stdin.write(new TextEncoder().encode("\n")).catch(() => {});
  }

  async stop() {
    try {
      this.child.kill("SIGTERM");
    } catch { /* it had exited (a crash) */ }
    const timer = setTimeout(() => {
      try {
        this.child.kill("SIGKILL");
      } catch { /* exited meanwhile */ }
    }, STOP_GRACE_MS);
    await this.child.status;
    clearTimeout(timer);
  }
}

/** The changed paths (from the root), a burst of file events at a time. */
async function* changes(): AsyncGenerator<string[]> {
  const watcher = Deno.watchFs(WATCHED.map((path) => new URL(path, root).pathname));
  const pending = new Set<string>();
  let settled = false;
  let wake: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  (async () => {
    for await (const event of watcher) {
      if (event.kind === "access") continue;
      for (const path of event.paths) {
        const relative = path.slice(root.pathname.length);
        // The build's own folders come as their names too (`client/.islands` when removed).
        if (!relative || IGNORED.some((folder) => `${relative}/`.startsWith(folder))) continue;
        pending.add(relative);
        clearTimeout(timer);
        timer = setTimeout(() => {
          settled = true;
          wake?.();
        }, SETTLE_MS);
      }
    }
  })();
  while (true) {
    if (!settled) await new Promise<void>((resolve) => wake = resolve);
    settled = false;
    const paths = [...pending].sort();
    pending.clear();
    yield paths;
  }
}

if (import.meta.main) {
  await rebuild();
  let server = new Server();
  await server.handOver();
  /** The server started for the change being built, if one is. */
  let next: Server | null = null;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, async () => {
      await Promise.all([server.stop(), next?.stop(), bundler.close()]);
      Deno.exit(0);
    });
  }
  for await (const paths of changes()) {
    console.log(`Changed: ${paths.join(", ")}`);
    const before = currentBuild();
    next = new Server();
    const built = await rebuild(paths);
    const starts = await next.ready;
    if (!starts) {
      console.error(
        "The changed server code does not start (above); the server before keeps serving.",
      );
    }
    if (!starts || (built === null && before !== null)) {
      await next.stop();
      next = null;
      continue;
    }
    await server.stop();
    [server, next] = [next, null];
    await server.handOver();
  }
}
