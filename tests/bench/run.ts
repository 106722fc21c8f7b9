/**
 * `deno task bench [scenario...]`: seeds 100,000 jobs into a temporary KV file, starts main.ts on it
 * in production mode beside a bare Hono hello-world, then runs every scenario in
 * tests/bench/scenarios/ (or the ones named) and prints one table. It exits with 1 when a row misses
 * its budget or a scenario fails.
 */
import { JobStore } from "../../kv/jobs.ts";
import { generateJob, type JobPlacement, seededRandom } from "../../kv/seed.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";
import type { JobStatus } from "../../kv/schemas.ts";
import { startListening, startServerProcess } from "../helpers/process.ts";
import {
  type BenchContext,
  formatTable,
  type LoadOptions,
  measure,
  misses,
  type Row,
} from "./harness.ts";

const COUNTS: Record<JobStatus, number> = { active: 20_000, dump: 30_000, inactive: 50_000 };
const GENERATE_CHUNK = 5_000;
/** startServerProcess starts main.ts with this secret. */
const MAIN_ADMIN_SECRET = "process-test-main-admin-secret";

function placement(status: JobStatus, random: () => number, now: number): JobPlacement {
  if (status === "active") {
    const posted = new Date(now - random() * (DAYS_ACTIVE_BEFORE_DUMP - 1) * DAY_MS);
    return { status, datePosted: posted, movedToDumpAt: null };
  }
  const daysInDump = status === "dump"
    ? random() * (DAYS_IN_DUMP_BEFORE_INACTIVE - 1)
    : DAYS_IN_DUMP_BEFORE_INACTIVE + random() * 300;
  const moved = now - daysInDump * DAY_MS;
  return {
    status,
    datePosted: new Date(moved - (DAYS_ACTIVE_BEFORE_DUMP + random()) * DAY_MS),
    movedToDumpAt: new Date(moved),
  };
}

/** Writes the benchmark's jobs; returns the `_id` of an active one. */
async function seed(kvPath: string): Promise<string> {
  using kv = await Deno.openKv(kvPath);
  const store = new JobStore(kv);
  const random = seededRandom(100_000);
  const now = Date.now();
  let serial = 0;
  let sampleJobId = "";
  for (const status of ["inactive", "dump", "active"] as const) {
    for (let done = 0; done < COUNTS[status]; done += GENERATE_CHUNK) {
      const jobs = Array.from(
        { length: Math.min(GENERATE_CHUNK, COUNTS[status] - done) },
        () => generateJob(random, ++serial, placement(status, random, now)),
      );
      await store.importJobs(jobs);
      sampleJobId ||= status === "active" ? jobs[0]._id : "";
    }
  }
  return sampleJobId;
}

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${json.message}`);
  return json;
}

/**
 * Resident and peak memory of a process, in MB; `file` is the part that is pages of files (the
 * database read through SQLite's memory map), which the kernel may drop at any time.
 */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number; file: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024, file: kb("RssFile") / 1024 };
}

const folder = await Deno.makeTempDir({ prefix: "careeredge-bench-" });
const kvPath = `${folder}/bench.kv`;
const rows: Row[] = [];
const failures: string[] = [];
try {
  let started = performance.now();
  const sampleJobId = await seed(kvPath);
  console.log(`Seeded 100,000 jobs in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The yardstick, in its own process.
  await using hello = await startListening("hello-world", [
    new URL("./hello.ts", import.meta.url).pathname,
  ]);
  started = performance.now();
  // Sign-in scenarios come from many addresses through a proxy at 127.0.0.1 (X-Forwarded-For).
  await using server = await startServerProcess(kvPath, { TRUSTED_PROXIES: "127.0.0.1" });
  const listening = performance.now() - started;
  const firstAnswer = await fetch(`${server.url}/api/jobs`);
  await firstAnswer.body?.cancel();
  const startToAnswer = performance.now() - started;
  if (!firstAnswer.ok) throw new Error(`GET /api/jobs answered ${firstAnswer.status}`);
  const memoryAtStart = await memoryOf(server.pid);

  const helloFigures = await measure(`${hello.url}/`);
  rows.push({ name: "hello-world (bare Hono)", figures: { ...helloFigures, ratio: 1 } });
  console.log(`Hello-world: ${Math.round(helloFigures.rps)} req/s`);

  const admin = { username: "Bench Admin", email: "bench@careeredge.test", password: "bench-pass" };
  await postJson(`${server.url}/api/admin/create-main-admin`, {
    ...admin,
    secretKey: MAIN_ADMIN_SECRET,
  });
  const { token } = await postJson(`${server.url}/api/admin/login`, admin);

  // Other work on the machine moves every figure, so each scenario's ratios are taken against a
  // hello-world measured just before it.
  let yardstick = helloFigures.rps;
  const context: BenchContext = {
    url: server.url,
    kvPath,
    get helloRps() {
      return yardstick;
    },
    adminToken: token,
    sampleJobId,
    async residentMemory() {
      return (await memoryOf(server.pid)).rss;
    },
    async load(path: string, options: LoadOptions = {}) {
      const figures = await measure(server.url + path, options);
      return { ...figures, ratio: figures.rps / yardstick };
    },
    row(name, figures, budget) {
      rows.push({ name, figures, budget });
      console.log(`  ${name}: done`);
    },
  };

  const scenarios = new URL("./scenarios/", import.meta.url);
  // `deno task bench api pages` runs only those scenarios; no names runs them all.
  const files = [...Deno.readDirSync(scenarios)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".ts"))
    .map((entry) => entry.name)
    .filter((name) => Deno.args.length === 0 || Deno.args.includes(name.replace(/\.ts$/, "")))
    .sort();
  const unknown = Deno.args.filter((name) => !files.includes(`${name}.ts`));
  if (unknown.length) throw new Error(`no scenario named ${unknown.join(", ")}`);
  for (const [index, file] of files.entries()) {
    console.log(`Scenario ${file}`);
    if (index > 0) {
      const again = await measure(`${hello.url}/`);
      yardstick = again.rps;
      rows.push({
        name: `hello-world before ${file} (ratio to the first)`,
        figures: { ...again, ratio: again.rps / helloFigures.rps },
      });
    }
    try {
      const scenario = await import(new URL(file, scenarios).href);
      await scenario.default(context);
    } catch (error) {
      failures.push(`${file}: ${error instanceof Error ? error.stack : error}`);
    }
    rows.push({
      name: `server resident memory after ${file}`,
      figures: { value: (await memoryOf(server.pid)).rss, unit: "MB" },
    });
  }

  const memory = await memoryOf(server.pid);
  const helloAtEnd = await measure(`${hello.url}/`);
  rows.push({
    name: "hello-world again at the end (ratio to the first)",
    figures: { ...helloAtEnd, ratio: helloAtEnd.rps / helloFigures.rps },
  });
  rows.push(
    {
      name: "server resident memory (VmRSS)",
      figures: { value: memory.rss, unit: "MB" },
      budget: { max: 300 },
    },
    { name: "  of which file pages (RssFile)", figures: { value: memory.file, unit: "MB" } },
    { name: "server peak memory (VmHWM)", figures: { value: memory.peak, unit: "MB" } },
    {
      name: "server memory after the first answer (VmRSS)",
      figures: { value: memoryAtStart.rss, unit: "MB" },
    },
    { name: "start to listening", figures: { value: listening, unit: "ms" } },
    {
      name: "start to first GET /api/jobs answer",
      figures: { value: startToAnswer, unit: "ms" },
      budget: { max: 2000 },
    },
  );
} catch (error) {
  failures.push(error instanceof Error ? error.stack ?? error.message : String(error));
} finally {
  await Deno.remove(folder, { recursive: true });
}

console.log(`\n${formatTable(rows)}\n`);
for (const failure of failures) console.error(`FAILED ${failure}`);
const missed = rows.filter((row) => misses(row).length > 0);
if (missed.length || failures.length) {
  console.error(`${missed.length} rows missed their budget, ${failures.length} scenarios failed`);
  Deno.exit(1);
}
