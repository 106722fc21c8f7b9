/**
 * Starts main.ts as its own process (production mode, no demo data) on a given KV file, for tests
 * where several server processes share one database, and the benchmark. With TEST_KV=connect they
 * reach that file through a KV Connect endpoint (DENO_KV_URL), as on Deno Deploy.
 */
import { dirname } from "node:path";
import { KV_CONNECT_TOKEN, type KvConnectEndpoint, startKvConnect } from "./kv-connect.ts";
import { TEST_KV_CONNECT } from "./kv.ts";

export interface ServerProcess extends AsyncDisposable {
  url: string;
  /** The process id, for reading its memory from /proc (benchmarks). */
  pid: number;
  /** Stops the process with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
  /** The last 64 KB of what it wrote to stderr (also passed on to the test's own). */
  log(): string;
}

const mainModule = new URL("../../main.ts", import.meta.url).pathname;

/** The V8 flags of `deno task start`, which keep the server's memory low, read from its one source. */
const startTask: string = JSON.parse(
  Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)),
).tasks.start;
export const v8Flags = startTask.match(/--v8-flags=\S+/)![0];
/** The allocator settings it starts with (glibc hands the memory of large blocks back). */
export const startEnv = Object.fromEntries(
  [...startTask.matchAll(/\b(MALLOC_\w+)=(\S+)/g)].map(([, name, value]) => [name, value]),
);

/** What a test server needs: any port, its own database, no demo data, fixed secrets. */
function serverEnv(kvPath: string, env: Record<string, string>): Record<string, string> {
  return {
    PORT: "0",
    // A database reached by URL (a KV Connect endpoint) takes the place of the file.
    ...(env.DENO_KV_URL ? {} : { DENO_KV_PATH: kvPath }),
    SEED_DEMO: "false",
    JWT_SECRET: "process-test-secret-process-test-secret-0123",
    MAIN_ADMIN_SECRET: "process-test-main-admin-secret",
    ...env,
  };
}

/** How a server process is started beyond its environment. */
export interface StartOptions {
  /** Flags of `deno run` before the module, such as `--preload` (the bench's slowed KV). */
  flags?: string[];
  /** A command it runs through, such as `faketime -f +8d`. */
  wrapper?: string[];
}

export async function startServerProcess(
  kvPath: string,
  env: Record<string, string> = {},
  { flags = [], wrapper = [] }: StartOptions = {},
): Promise<ServerProcess> {
  // A test that gives the server its own endpoint (DENO_KV_URL) keeps it under TEST_KV=connect too.
  const shared = TEST_KV_CONNECT && !env.DENO_KV_URL ? await shareKvConnect(kvPath) : undefined;
  try {
    const database: Record<string, string> = shared
      ? { DENO_KV_URL: shared.url, DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN }
      : {};
    const { DENO_KV_PATH: _, ...withoutPath } = serverEnv(kvPath, env);
    const server = await startListening("server", [...flags, v8Flags, mainModule], {
      ...startEnv,
      ...(shared ? { ...withoutPath, ...database } : serverEnv(kvPath, env)),
    }, wrapper);
    if (!shared) return server;
    let stopped: Promise<void> | null = null;
    const stop = () =>
      stopped ??= (async () => {
        await server.stop();
        await shared.release();
      })();
    return { ...server, stop, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await shared?.release();
    throw error;
  }
}

/** The KV Connect endpoint each database file is served by while server processes use it. */
const endpoints = new Map<string, { endpoint: KvConnectEndpoint; users: number }>();

/**
 * With TEST_KV=connect, server processes on one file share one endpoint, as processes on Deno
 * Deploy share one database; it closes when the last of them stops.
 */
async function shareKvConnect(kvPath: string) {
  await Deno.mkdir(dirname(kvPath), { recursive: true });
  const held = endpoints.get(kvPath) ?? { endpoint: startKvConnect({ path: kvPath }), users: 0 };
  endpoints.set(kvPath, held);
  held.users++;
  return {
    url: held.endpoint.url,
    async release() {
      if (--held.users > 0) return;
      endpoints.delete(kvPath);
      await held.endpoint.close();
    },
  };
}

/**
 * Runs main.ts under `deno serve --parallel` with `workers` workers (Deno listens on any port and
 * each worker answers with main.ts's default export).
 */
export function startServeProcess(
  kvPath: string,
  workers: number,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startDeno(
    "deno serve",
    ["serve", "-A", "--parallel", "--port", "0", v8Flags, mainModule],
    { ...startEnv, DENO_JOBS: String(workers), ...serverEnv(kvPath, env) },
  );
}

/** Runs `deno task start` in the checkout at `cwd`, as an operator would (it builds if it must). */
export function startTaskProcess(
  cwd: string,
  kvPath: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startDeno("deno task start", ["task", "start"], serverEnv(kvPath, env), cwd);
}

/**
 * Runs `deno run -A ...args` in production mode and resolves once it prints that it is running at
 * some URL (main.ts and the benchmark's hello-world both do).
 */
export function startListening(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  wrapper: string[] = [],
): Promise<ServerProcess> {
  return startDeno(name, ["run", "-A", ...args], env, undefined, wrapper);
}

/** The processes `pid` started (Linux). */
function childrenOf(pid: number): number[] {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`);
    return text.split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function startDeno(
  name: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
  wrapper: string[] = [],
): Promise<ServerProcess> {
  const command = [...wrapper, Deno.execPath(), ...args];
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    cwd,
    env: { NODE_ENV: "production", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      await Deno.stderr.write(new TextEncoder().encode(text));
      log = (log + text).slice(-65_536);
    }
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${name} exited before listening:\n${output}`);
    output += value;
    url = output.match(/running at (http:\/\/\S+?)\/?\s/)?.[1] ?? "";
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  let stopped: Promise<void> | null = null;
  const stop = () =>
    stopped ??= (async () => {
      // A wrapper (faketime) does not pass the signal on: its server is stopped, and the wrapper
      // exits after it. Killed itself, faketime leaves its semaphore in /dev/shm, and a later
      // faketime given the same process id fails to start ("sem_open: File exists").
      const servers = wrapper.length ? childrenOf(child.pid) : [];
      for (const pid of servers) {
        try {
          Deno.kill(pid, "SIGTERM");
        } catch { /* already gone */ }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const exited = servers.length > 0 && await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
      ]);
      clearTimeout(timer);
      if (!exited) {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
      }
      await child.status;
    })();
  return { url, pid: child.pid, stop, log: () => log, [Symbol.asyncDispose]: stop };
}
