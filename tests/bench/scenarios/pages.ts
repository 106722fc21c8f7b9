/**
 * The public pages under load: home and the job list at 25% of hello-world at least, a
 * filtered list at 5%, all within 30 ms at p99; plus what a cache miss costs and how much
 * JavaScript each page loads. Pages are asked for as a browser asks, accepting compressed answers;
 * one row shows the job list for a client that does not (crawlers mostly do accept them).
 */
import type { BenchContext, Budget } from "../harness.ts";
import { islandEntries } from "../../public/bundle.ts";
import { scriptDownload } from "../../helpers/scripts.ts";

const LIST_BUDGET: Budget = { minRatio: 0.25, maxP99Ms: 30 };
const FILTERED_BUDGET: Budget = { minRatio: 0.05, maxP99Ms: 30 };
const DETAIL_BUDGET: Budget = { maxP99Ms: 30 };
const SCRIPT_BUDGET_KB = 80;
const MISSES_MEASURED = 20;
/** What every current browser sends. */
const AS_A_BROWSER = { headers: { "accept-encoding": "gzip, deflate, br, zstd" } };

async function page(context: BenchContext, path: string): Promise<string> {
  const response = await fetch(context.url + path, { redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return html;
}

export default async function pages(context: BenchContext) {
  const filtered = "/jobs?keywords=react+developer&location=bengaluru&employmentType=Full-Time";
  const detail = `/jobs/${context.sampleJobId}`;
  const rows: [string, string, Budget][] = [
    ["GET / (home page)", "/", LIST_BUDGET],
    ["GET /jobs (job list)", "/jobs", LIST_BUDGET],
    ["GET /jobs filtered (two words + location + type)", filtered, FILTERED_BUDGET],
    ["GET /jobs/{id} (job page)", detail, DETAIL_BUDGET],
  ];
  for (const [name, path, budget] of rows) {
    const html = await page(context, path);
    if (!html.includes("</html>")) throw new Error(`${path} is not a whole page`);
    context.row(name, await context.load(path, AS_A_BROWSER), budget);
  }
  context.row("GET /jobs (job list), not compressed", await context.load("/jobs"));

  // A results page nobody asked for before renders afresh: the cost of a cache miss, one request at
  // a time. Pages 2 to 21 of a broad search all exist, so none is sent on to the last page.
  const times: number[] = [];
  for (let i = 0; i < MISSES_MEASURED; i++) {
    const start = performance.now();
    await page(context, `/jobs?keywords=developer&page=${i + 2}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  context.row("GET /jobs filtered, uncached (median of 20)", {
    value: times[Math.floor(times.length / 2)],
    unit: "ms",
  });

  for (const [name, path] of [["home", "/"], ["job list", "/jobs"], ["job page", detail]]) {
    const weight = await scriptDownload(islandEntries(await page(context, path)), {
      dynamic: true,
    });
    context.row(
      `JavaScript on the ${name}, gzipped`,
      { value: weight.gzipBytes / 1024, unit: "KB" },
      { max: SCRIPT_BUDGET_KB },
    );
  }
}
