/**
 * At the edge: the real server with its KV handle slowed as Deno Deploy's distances would slow it
 * (tests/bench/edge-kv.ts: strong reads 100 ms, commits 150 ms, eventual reads 3 ms), on copies of
 * the bench's database. Rows: cached answers and the strong reads behind them, first views of job
 * pages, how long an edit takes to show in another process, cold starts to the first keyword
 * search and to a crawler's job page (with and without the catalogue's snapshot, at 20,000 and
 * 100,000 active jobs), and Deploy's read units per cold start and per hour.
 */
import type { BenchContext } from "../harness.ts";
import { benchCounts, LARGE_BOARD, seededCopy } from "../seed.ts";
import { type Board, keywordSearch, readBoard } from "../traffic.ts";
import { type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { seededRandom } from "../../../kv/demo/generate.ts";
import { keys } from "../../../kv/keys.ts";
import type { EdgeStats } from "../edge-kv.ts";
import type { LifecycleStatus as JobStatus } from "../../../kv/schemas.ts";

const PRELOAD = new URL("../edge-kv.ts", import.meta.url).pathname;
const DEPLOY = { EDGE_STRONG_MS: "100", EDGE_COMMIT_MS: "150", EDGE_EVENTUAL_MS: "3" };
/** The same wrapper with no delay: it only counts (the local rows). */
const LOCAL = { EDGE_STRONG_MS: "0", EDGE_COMMIT_MS: "0", EDGE_EVENTUAL_MS: "0" };
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CACHED_ASKS = 200;
const FIRST_VIEWS = 200;
const EDITS = 5;
const HOUR_SAMPLE_MS = 10_000;
const MAIN_ADMIN_SECRET = "process-test-main-admin-secret";
/** What an edit sends back of the job it read. */
const EDITABLE = [
  "companyName",
  "companyLogo",
  "role",
  "location",
  "experience",
  "employmentType",
  "description",
  "requiredDegree",
  "hiringLink",
  "estPackage",
  "skills",
  "keywords",
] as const;

interface Instance {
  server: ServerProcess;
  stats(): Promise<EdgeStats>;
  /** From spawning the process to its first keyword search and a crawler's job page. */
  coldSearchMs: number;
  coldCrawlerMs: number;
  /** Read units until both answered. */
  coldUnits: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))];

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return { ms: performance.now() - start, text };
}

/** Starts main.ts on `kvPath` behind the wrapper, timing its cold start. */
async function start(
  kvPath: string,
  delays: Record<string, string>,
  board: Board,
  folder: string,
): Promise<Instance> {
  const statsFile = `${folder}/stats-${crypto.randomUUID()}.json`;
  const began = performance.now();
  const server = await startServerProcess(
    kvPath,
    { ...delays, EDGE_KV_STATS: statsFile, REVISION_POLL_MS: "0" },
    { flags: ["--preload", PRELOAD] },
  );
  const stats = async (): Promise<EdgeStats> => {
    // Written every 100 ms: wait for a write after this call.
    await new Promise((resolve) => setTimeout(resolve, 150));
    return JSON.parse(await Deno.readTextFile(statsFile));
  };
  const [search, crawler] = await Promise.all([
    timed(`${server.url}/api/jobs?keywords=engineer`).then(() => performance.now() - began),
    timed(server.url + board.jobPaths[0], { headers: { "user-agent": CRAWLER } }).then(
      () => performance.now() - began,
    ),
  ]);
  return {
    server,
    stats,
    coldSearchMs: search,
    coldCrawlerMs: crawler,
    coldUnits: (await stats()).readUnits,
  };
}

/** Waits until the database holds a snapshot of the catalogue (written after a whole load). */
async function snapshotWritten(kvPath: string): Promise<void> {
  using kv = await Deno.openKv(kvPath);
  const deadline = performance.now() + 120_000;
  while (!(await kv.get(keys.snapshotHead())).value) {
    if (performance.now() > deadline) throw new Error("no snapshot was written in 2 minutes");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Cold starts on one database: a whole load (no snapshot yet), then from the snapshot. */
async function coldStarts(
  context: BenchContext,
  counts: Record<JobStatus, number>,
  folder: string,
  budgetMs: number,
): Promise<{ kvPath: string; board: Board }> {
  const label = `${counts.active.toLocaleString("en")} active`;
  const kvPath = `${folder}/edge-${counts.active}.kv`;
  await seededCopy(kvPath, counts);
  const board = await readBoard(kvPath);
  const whole = await start(kvPath, LOCAL, board, folder);
  await snapshotWritten(kvPath);
  await whole.server.stop();
  const fromSnapshot = await start(kvPath, LOCAL, board, folder);
  await fromSnapshot.server.stop();
  context.row(`edge: cold start to first keyword search, ${label}, local, whole load`, {
    value: whole.coldSearchMs,
    unit: "ms",
  });
  context.row(`edge: cold start to first keyword search, ${label}, local, from the snapshot`, {
    value: fromSnapshot.coldSearchMs,
    unit: "ms",
  }, { max: budgetMs });
  context.row(`edge: cold start to a crawler's job page, ${label}, local, from the snapshot`, {
    value: fromSnapshot.coldCrawlerMs,
    unit: "ms",
  }, { max: budgetMs });
  context.row(`edge: KV read units per cold start, ${label}, whole load (before the snapshot)`, {
    value: whole.coldUnits,
    unit: "units",
  });
  context.row(`edge: KV read units per cold start, ${label}, from the snapshot`, {
    value: fromSnapshot.coldUnits,
    unit: "units",
  }, { max: whole.coldUnits / 10 });
  return { kvPath, board };
}

async function signIn(url: string): Promise<string> {
  const admin = {
    username: "Edge Admin",
    email: "edge@careeredge.test",
    password: "lantern-pass-1",
  };
  const created = await fetch(`${url}/api/admin/create-main-admin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...admin, secretKey: MAIN_ADMIN_SECRET }),
  });
  await created.body?.cancel();
  const login = await fetch(`${url}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  const { token } = await login.json();
  if (!token) throw new Error("the bench admin could not sign in");
  return token;
}

/** An edit through one process's API, timed until another process's search finds it. */
async function editToVisible(writer: string, reader: string, board: Board): Promise<number[]> {
  const token = await signIn(writer);
  const times: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const path = board.jobPaths[i + 1];
    const jobId = path.split("/").pop()!;
    const auth = { authorization: `Bearer ${token}` };
    const job = await (await fetch(`${writer}/api/jobs/${jobId}`, { headers: auth })).json();
    const role = `Edge Edit ${i} ${crypto.randomUUID().slice(0, 8)}`;
    const input = Object.fromEntries(EDITABLE.map((field) => [field, job[field]]));
    const saved = await fetch(`${writer}/api/jobs/${job._id}`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ ...input, role }),
    });
    await saved.body?.cancel();
    if (!saved.ok) throw new Error(`the edit answered ${saved.status}`);
    const savedAt = performance.now();
    // A search for the new title finds it once the reader's catalogue has followed the change (a
    // job page would show it at once: its record is read afresh when it is not kept).
    const search = `${reader}/api/jobs?keywords=${encodeURIComponent(role)}`;
    for (;;) {
      const found = await (await fetch(search)).json();
      if (found.jobs.some((job: { role: string }) => job.role === role)) break;
      if (performance.now() - savedAt > 30_000) throw new Error("an edit did not show in 30 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    times.push(performance.now() - savedAt);
  }
  return times;
}

/** Read units an hour, from a sample of `HOUR_SAMPLE_MS` idle or under `traffic`. */
async function unitsPerHour(instance: Instance, traffic?: () => Promise<void>): Promise<number> {
  const before = (await instance.stats()).readUnits;
  const started = performance.now();
  if (traffic) {
    while (performance.now() - started < HOUR_SAMPLE_MS) await traffic();
  } else await new Promise((resolve) => setTimeout(resolve, HOUR_SAMPLE_MS));
  const units = (await instance.stats()).readUnits - before;
  return units * 3_600_000 / (performance.now() - started);
}

async function atTheEdge(context: BenchContext, kvPath: string, board: Board, folder: string) {
  const edge = await start(kvPath, DEPLOY, board, folder);
  try {
    const other = await start(kvPath, DEPLOY, board, folder);
    try {
      context.row("edge: cold start to first keyword search, 20,000 active, simulated distances", {
        value: edge.coldSearchMs,
        unit: "ms",
      }, { max: 2_500 });
      context.row("edge: cold start to a crawler's job page, 20,000 active, simulated distances", {
        value: edge.coldCrawlerMs,
        unit: "ms",
      }, { max: 2_500 });

      const random = seededRandom(22);
      const cachedPaths = [
        "/",
        "/jobs",
        "/api/jobs",
        keywordSearch(board, random),
        board.jobPaths[0],
      ];
      for (const path of cachedPaths) {
        for (let i = 0; i < 3; i++) await timed(edge.server.url + path);
      }
      const before = await edge.stats();
      const cached: number[] = [];
      for (let i = 0; i < CACHED_ASKS; i++) {
        cached.push((await timed(edge.server.url + cachedPaths[i % cachedPaths.length])).ms);
      }
      const after = await edge.stats();
      context.row(
        "edge: cached public answers (/, /jobs, a search, /api/jobs, a job page), median",
        {
          value: median(cached),
          unit: "ms",
        },
        { max: 15 },
      );
      context.row("edge: cached public answers, p99", { value: p99(cached), unit: "ms" });
      context.row("edge: strong KV reads per cached answer", {
        value: (after.strongReads - before.strongReads) / CACHED_ASKS,
        unit: "reads",
      }, { max: 0 });

      const firstViews: number[] = [];
      const viewsBefore = await edge.stats();
      for (let i = 0; i < FIRST_VIEWS; i++) {
        const path = board.jobPaths[1 + Math.floor(random() * (board.jobPaths.length - 1))];
        firstViews.push((await timed(edge.server.url + path)).ms);
      }
      const viewsAfter = await edge.stats();
      context.row("edge: first view of a job page, median", {
        value: median(firstViews),
        unit: "ms",
      }, { max: 25 });
      context.row("edge: strong KV reads per first view of a job page", {
        value: (viewsAfter.strongReads - viewsBefore.strongReads) / FIRST_VIEWS,
        unit: "reads",
      });

      const edits = await editToVisible(other.server.url, edge.server.url, board);
      context.row(`edge: an edit in one process visible in another, median of ${EDITS}`, {
        value: median(edits),
        unit: "ms",
      }, { max: 1_000 });

      context.row("edge: KV read units per hour, idle instance", {
        value: await unitsPerHour(edge),
        unit: "units",
      });
      const searches = Array.from({ length: 500 }, () => keywordSearch(board, random));
      let asked = 0;
      context.row(
        "edge: KV read units per hour, busy instance (searches and job pages, one at a time)",
        {
          value: await unitsPerHour(edge, async () => {
            const path = asked % 2
              ? searches[asked % searches.length]
              : board.jobPaths[asked % board.jobPaths.length];
            asked++;
            await timed(edge.server.url + path);
          }),
          unit: "units",
        },
      );
    } finally {
      await other.server.stop();
    }
  } finally {
    await edge.server.stop();
  }
}

export default async function edge(context: BenchContext) {
  const folder = await Deno.makeTempDir({ prefix: "careeredge-bench-edge-" });
  try {
    const { kvPath, board } = await coldStarts(context, benchCounts(), folder, 1_000);
    await atTheEdge(context, kvPath, board, folder);
    const large = await coldStarts(context, LARGE_BOARD, folder, 2_000);
    await Deno.remove(large.kvPath);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
