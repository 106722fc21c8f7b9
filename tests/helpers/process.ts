/**
 * Starts main.ts as its own process (production mode, no demo data) on a given KV file, for tests
 * where several server processes share one database, and the benchmark.
 */
export interface ServerProcess extends AsyncDisposable {
  url: string;
  /** The process id, for reading its memory from /proc (benchmarks). */
  pid: number;
  /** Stops the process with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

const mainModule = new URL("../../main.ts", import.meta.url).pathname;

/** The V8 flags of `deno task start`, which keep the server's memory low, read from its one source. */
const startTask: string = JSON.parse(
  Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)),
).tasks.start;
const v8Flags = startTask.match(/--v8-flags=\S+/)![0];
/** The allocator settings it starts with (glibc hands the memory of large blocks back). */
const startEnv = Object.fromEntries(
  [...startTask.matchAll(/\b(MALLOC_\w+)=(\S+)/g)].map(([, name, value]) => [name, value]),
);

/** Starts main.ts on `kvPath`; `wrapper` runs it through a command such as `faketime -f +8d`. */
export function startServerProcess(
  kvPath: string,
  env: Record<string, string> = {},
  wrapper: string[] = [],
): Promise<ServerProcess> {
  return startListening("server", [v8Flags, mainModule], {
    ...startEnv,
    PORT: "0",
    DENO_KV_PATH: kvPath,
    SEED_DEMO: "false",
    JWT_SECRET: "process-test-secret-process-test-secret-0123",
    MAIN_ADMIN_SECRET: "process-test-main-admin-secret",
    ...env,
  }, wrapper);
}

/**
 * Runs `deno run -A ...args` in production mode and resolves once it prints that it is running at
 * some URL (main.ts and the benchmark's hello-world both do).
 */
export async function startListening(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  wrapper: string[] = [],
): Promise<ServerProcess> {
  const command = [...wrapper, Deno.execPath(), "run", "-A", ...args];
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    env: { NODE_ENV: "production", ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
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
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    })();
  return { url, pid: child.pid, stop, [Symbol.asyncDispose]: stop };
}
