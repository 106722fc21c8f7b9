/**
 * `deno task bench [scenario...]`: copies a database of 100,000 jobs (seeded once and kept, see
 * tests/bench/seed.ts) into a temporary folder, starts main.ts on it in production mode beside a
 * bare Hono hello-world, then runs every scenario in tests/bench/scenarios/ (or the ones named) and
 * prints one table. It exits with 1 when a row misses
 * its budget or a scenario fails.
 */
import { startListening, startServerProcess } from "../helpers/process.ts";
import { benchCounts, memoryOf } from "./seed.ts";
import { snapshottedCopy } from "./snapshotted.ts";
import {
  type BenchContext,
  formatTable,
  type LoadOptions,
  measure,
  misses,
  type Row,
} from "./harness.ts";

/** startServerProcess starts main.ts with this secret. */
const MAIN_ADMIN_SECRET = "process-test-main-admin-secret";

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

// Every load row is measured with wrk: without it the bench would print nothing worth reading.
try {
  await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
} catch {
  console.error("wrk is not installed: the bench cannot run. Install it: apt-get install -y wrk");
  Deno.exit(1);
}

const folder = await Deno.makeTempDir({ prefix: "careeredge-bench-" });
const kvPath = `${folder}/bench.kv`;
const rows: Row[] = [];
const failures: string[] = [];
try {
  // `BENCH_ACTIVE=100000 deno task bench search` measures a board with 100,000 active jobs.
  const sampleJobId = await snapshottedCopy(kvPath, benchCounts());

  // The yardstick, in its own process.
  await using hello = await startListening("hello-world", [
    new URL("./hello.ts", import.meta.url).pathname,
  ]);
  const started = performance.now();
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

  const admin = {
    username: "Bench Admin",
    email: "bench@careeredge.test",
    password: "kettle-harbour-pass",
  };
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
    serverMemory: () => memoryOf(server.pid),
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
    .filter((entry) => entry.isFile && /\.tsx?$/.test(entry.name))
    .map((entry) => entry.name)
    .filter((name) => Deno.args.length === 0 || Deno.args.includes(name.replace(/\.tsx?$/, "")))
    .sort();
  const unknown = Deno.args.filter((name) =>
    !files.some((file) => file.replace(/\.tsx?$/, "") === name)
  );
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
      // The budgets of the issues: 300 MB with the usual 20,000 active jobs, 400 MB at 100,000.
      budget: { max: benchCounts().active > 20_000 ? 400 : 300 },
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
