/**
 * Attacks on accounts and the pages around them: the owner's sign-ins while one address floods
 * sign-in with 30 connections (budget: at least 95% succeed), `GET /` while 50 uncached share
 * images a second are asked for (budget: p99 within 50 ms), and the apply click call's throughput
 * now that every click is written before its answer, beside the same job's read for comparison.
 */
import type { BenchContext } from "../harness.ts";

const FLOOD_CONNECTIONS = 30;
const OWNER_SIGN_INS = 20;
const OWNER_SUCCESS_BUDGET_PERCENT = 95;
const SHARE_IMAGES_PER_SECOND = 50;
const HOME_P99_BUDGET_MS = 50;
const LOAD_SECONDS = 6;
/** A browser's user agent: the counter counts no bot's click. */
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

async function post(context: BenchContext, path: string, body: unknown, headers = {}) {
  const response = await fetch(context.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

/** The owner signs in now and then from their own address while one address floods sign-in. */
async function ownerDuringFlood(context: BenchContext) {
  const owner = { email: "owner@careeredge.test", password: "violet kettle harbour" };
  const created = await post(context, "/api/admin/register", {
    username: "Bench Owner",
    ...owner,
    permissions: { canCreateJobs: true },
  }, { authorization: `Bearer ${context.adminToken}` });
  if (created !== 201) throw new Error(`registering the owner answered ${created}`);
  let flooding = true;
  const flood = context.load("/api/admin/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.66" },
    body: JSON.stringify({ email: "nobody@example.com", password: "guess" }),
    connections: FLOOD_CONNECTIONS,
    seconds: LOAD_SECONDS,
  }).finally(() => flooding = false);
  // Once the flood's warm-up second is over.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const statuses: number[] = [];
  while (flooding && statuses.length < OWNER_SIGN_INS) {
    statuses.push(
      await post(context, "/api/admin/login", owner, { "x-forwarded-for": "203.0.113.5" }),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const figures = await flood;
  const succeeded = statuses.filter((status) => status === 200).length;
  context.row(
    `owner's sign-ins that succeed while one address floods sign-in (${statuses.length} tried)`,
    { value: statuses.length ? Math.round((100 * succeeded) / statuses.length) : 0, unit: "%" },
    { min: OWNER_SUCCESS_BUDGET_PERCENT },
  );
  // The flood's answers are refusals (401, 429): what it should get, so none counts as a failure.
  context.row(`  the flood: ${FLOOD_CONNECTIONS} connections from one address`, {
    ...figures,
    errors: 0,
  });
  context.row("  the flood's sign-ins refused", { value: figures.errors, unit: "requests" });
}

/** Active jobs' numbers, from the public list, for share images no cache holds yet. */
async function activeJobIds(context: BenchContext, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ids.length < count; page++) {
    const response = await fetch(`${context.url}/api/jobs?page=${page}&limit=100`);
    const { jobs } = await response.json() as { jobs: { jobId: string }[] };
    if (!jobs.length) break;
    ids.push(...jobs.map((job) => job.jobId));
  }
  return ids;
}

async function homeDuringShareImages(context: BenchContext) {
  const ids = await activeJobIds(context, SHARE_IMAGES_PER_SECOND * (LOAD_SECONDS + 2));
  let loading = true;
  const home = context.load("/", { seconds: LOAD_SECONDS }).finally(() => loading = false);
  const asked: Promise<number>[] = [];
  while (loading && asked.length < ids.length) {
    const id = ids[asked.length];
    asked.push(
      fetch(`${context.url}/jobs/${encodeURIComponent(id)}/share.png`, { redirect: "manual" })
        .then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000 / SHARE_IMAGES_PER_SECOND));
  }
  context.row(
    `GET / during ${SHARE_IMAGES_PER_SECOND} uncached share images a second`,
    await home,
    { maxP99Ms: HOME_P99_BUDGET_MS },
  );
  const statuses = await Promise.all(asked);
  context.row("  share images drawn (200) while loading", {
    value: statuses.filter((status) => status === 200).length,
    unit: `of ${statuses.length}`,
  });
}

/**
 * wrk's Lua: every request from another visitor (addresses through the trusted proxy), with the
 * headers the scenario gave (`wrk.format` replaces them unless they are passed on).
 */
const VISITORS_SCRIPT = `
local n = 0
request = function()
  n = n + 1
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["X-Forwarded-For"] = "10." .. math.floor(n / 65536) % 256 .. "." ..
    math.floor(n / 256) % 256 .. "." .. n % 256
  return wrk.format(nil, nil, headers)
end
`;

async function clickThroughput(context: BenchContext) {
  const path = `/api/jobs/${context.sampleJobId}`;
  const status = await post(context, `${path}/click`, {}, { "user-agent": BROWSER });
  if (status !== 200) throw new Error(`POST ${path}/click answered ${status}`);
  const headers = { "user-agent": BROWSER, "content-type": "application/json" };
  context.row(
    "POST /api/jobs/{id}/click, each written before its answer (distinct visitors)",
    await context.load(`${path}/click`, {
      method: "POST",
      headers,
      body: "{}",
      script: VISITORS_SCRIPT,
    }),
  );
  context.row(
    "  the same job's GET /api/jobs/{id}, for comparison",
    await context.load(path, { headers, script: VISITORS_SCRIPT }),
  );
}

export default async function accounts(context: BenchContext) {
  await ownerDuringFlood(context);
  await homeDuringShareImages(context);
  await clickThroughput(context);
}
