/**
 * The search: a keyword search with filters asked again and again (API and page), and searches
 * nobody asked before, each a new URL, so what they cost is the engine and the render, not a cache.
 */
import { type BenchContext, serverTime } from "../harness.ts";
import { JobStore } from "../../../kv/jobs/store.ts";

/** Words of the demo data's roles, skills and descriptions. */
const VOCABULARY = [
  "python",
  "react",
  "java",
  "engineer",
  "developer",
  "data",
  "analyst",
  "designer",
  "senior",
  "backend",
  "frontend",
  "cloud",
  "marketing",
  "sales",
  "product",
  "manager",
  "devops",
  "mobile",
  "android",
  "ios",
  "kubernetes",
  "sql",
  "machine",
  "learning",
  "security",
  "content",
  "writer",
  "support",
  "qa",
  "test",
  "intern",
  "remote",
  "full",
  "time",
];
const LOCATIONS = ["", "bengaluru", "bangalore", "mumbai", "pune", "delhi ncr", "remote"];
const TYPES = ["", "Full-Time", "Contract", "Internship"];
const NEVER_SEEN = 200;
/** Two-word queries timed in the engine alone, after as many asked first (`engineRows`). */
const ENGINE_QUERIES = 2_000;

export default async function search(context: BenchContext) {
  // A keyword search waits for the catalogue a process loads after it starts: not measured here.
  const ready = await fetch(`${context.url}/api/jobs?keywords=engineer`);
  await ready.body?.cancel();
  const repeated = "keywords=react%20developer&location=bangalore&employmentType=Full-Time";
  context.row(
    "GET /api/jobs keyword search + filters (same URL)",
    await context.load(`/api/jobs?${repeated}`),
    { minRatio: 0.25, maxP99Ms: 10 },
  );
  context.row(
    "/jobs keyword search + filters (same URL)",
    await context.load(await landing(context, `/jobs?${repeated}`)),
    { minRatio: 0.25 },
  );
  // Every filter a seeker can set at once, each dropdown's counts made with the others.
  const everyFilter = new URLSearchParams({
    keywords: "developer",
    location: "bangalore",
    employmentType: "Full-Time",
    experience: "2-3",
    workMode: "Hybrid",
    category: "Engineering",
    payMin: "600000",
    postedWithin: "30",
    company: "Nimbus Labs",
    sortBy: "pay",
  });
  context.row(
    "GET /api/jobs with every filter set (same URL)",
    await context.load(`/api/jobs?${everyFilter}`),
    { minRatio: 0.25, maxP99Ms: 10 },
  );
  context.row(
    "/jobs with every filter set (same URL)",
    await context.load(await landing(context, `/jobs?${everyFilter}`)),
    { minRatio: 0.25 },
  );

  // Each a URL not asked before: two words, sometimes a location and a type.
  let seed = 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const seen = new Set<string>();
  const times: number[] = [];
  const clientTimes: number[] = [];
  while (times.length < NEVER_SEEN) {
    const params = new URLSearchParams({ keywords: `${pick(VOCABULARY)} ${pick(VOCABULARY)}` });
    const location = pick(LOCATIONS);
    const type = pick(TYPES);
    if (location) params.set("location", location);
    if (type) params.set("employmentType", type);
    const path = `/jobs?${params}`;
    if (seen.has(path)) continue;
    seen.add(path);
    const started = performance.now();
    const response = await fetch(context.url + path);
    await response.text();
    clientTimes.push(performance.now() - started);
    times.push(serverTime(response));
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  clientTimes.sort((a, b) => a - b);
  await engineRows(context, pick);
  context.row("/jobs never-seen search, server time, median", {
    value: times[Math.floor(times.length / 2)],
    unit: "ms",
  }, { max: 5 });
  context.row("/jobs never-seen search, server time, p99", {
    value: times[Math.floor(times.length * 0.99)],
    unit: "ms",
  });
  context.row("/jobs never-seen search, as the client timed it, median", {
    value: clientTimes[Math.floor(clientTimes.length / 2)],
    unit: "ms",
  });
}

/**
 * The page's canonical URL, which a browser lands on: a form writes a space as `+` and its fields
 * in its own order, and any other spelling is redirected there (a row would time the redirect).
 */
async function landing(context: BenchContext, path: string): Promise<string> {
  const asked = await fetch(`${context.url}${path}`, { redirect: "manual" });
  await asked.body?.cancel();
  return asked.headers.get("location") ?? path;
}

/**
 * The engine alone, in this process on the bench's database: a page of 12 for random two-word
 * queries, each timed by the clock as a visitor waits for it (a pause of the collector included).
 * The budgeted rows time the queries after the first ENGINE_QUERIES: those run while V8 still
 * compiles the engine's loops and collects what loading the catalogue left (its pauses of 16-26
 * ms fall there), once a process, and have a row of their own. CPU time would also count the
 * collector's and compiler's other threads, which run beside the query, not in its way.
 */
async function engineRows(context: BenchContext, pick: <T>(list: T[]) => T) {
  using kv = await Deno.openKv(context.kvPath);
  const catalog = await new JobStore(kv).active();
  const first: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < 2 * ENGINE_QUERIES; i++) {
    const keywords = `${pick(VOCABULARY)} ${pick(VOCABULARY)}`;
    const started = performance.now();
    catalog.page({ page: 1, limit: 12, keywords });
    (i < ENGINE_QUERIES ? first : times).push(performance.now() - started);
  }
  const at = (list: number[], share: number) =>
    list.sort((a, b) => a - b)[Math.floor(list.length * share)];
  const active = catalog.byId.size;
  context.row(`engine: two-word query, ${active} active, the first ${ENGINE_QUERIES}, p99`, {
    value: at(first, 0.99),
    unit: "ms",
  });
  context.row(`engine: two-word query, ${active} active, median`, {
    value: at(times, 0.5),
    unit: "ms",
  });
  context.row(`engine: two-word query, ${active} active, p99`, {
    value: at(times, 0.99),
    unit: "ms",
  }, { max: 2 });
}
