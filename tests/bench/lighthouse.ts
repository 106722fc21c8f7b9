/**
 * Lighthouse for the benchmark: audits a page with the mobile preset (Lighthouse's default: a
 * mid-range phone, throttled network and CPU) in Debian's Chromium, several times, and gives the
 * median of each category score and of the total blocking time. Lighthouse is the pinned npm
 * package run by Deno in its own process; when it cannot run (not downloadable, no Chromium), the
 * rows say "skipped" with the reason and set no budget, so a machine without it still benches.
 *
 * Lighthouse loads the CPU: run the benchmark under the machine's load lock
 * (`flock /tmp/careeredge-load.lock deno task bench`).
 */
import { desktopChromium } from "../helpers/browser.ts";
import { type BenchContext, type Budget, median } from "./harness.ts";

const LIGHTHOUSE = "npm:lighthouse@13.5.0";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = typeof CATEGORIES[number];

export interface LighthouseScores {
  /** Median score of each category, 0 to 1. */
  scores: Record<Category, number>;
  /** Median total blocking time, in ms. */
  totalBlockingTimeMs: number;
  /** Median of each run's longest main-thread task of any kind, in ms. */
  longestTaskMs: number;
  /**
   * Median of each run's longest task spent in the page's scripts (islands loading and
   * hydrating), in ms; the others are the browser's own and the document's parsing and layout.
   */
  longestScriptTaskMs: number;
  runs: number;
}

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: { duration?: number; url?: string }[] } }
  >;
  runtimeError?: { message: string };
}

async function runOnce(url: string): Promise<Report> {
  const output = await new Deno.Command(Deno.execPath(), {
    // Outside the project's configuration so the audit tool never enters its lock file or
    // node_modules; the version is pinned above.
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      LIGHTHOUSE,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--only-categories=${CATEGORIES.join(",")}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ],
    env: { CHROME_PATH: desktopChromium() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    const reason = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1);
    throw new Error(`Lighthouse exited with ${output.code}: ${reason}`);
  }
  const report: Report = JSON.parse(text);
  if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.message}`);
  return report;
}

/** Audits `url` `runs` times (3 unless given) and returns the medians. */
export async function lighthouse(url: string, runs = 3): Promise<LighthouseScores> {
  const reports: Report[] = [];
  // On a loaded machine Chromium now and then records no navigation start (NO_NAVSTART), and
  // Lighthouse itself says to run it again: such a run is retried, twice at most.
  let retries = 2;
  while (reports.length < runs) {
    try {
      reports.push(await runOnce(url));
    } catch (error) {
      if (retries-- === 0 || !String(error).includes("run Lighthouse again")) throw error;
    }
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [
      category,
      median(reports.map((report) => report.categories[category]?.score ?? 0)),
    ]),
  ) as Record<Category, number>;
  const totalBlockingTimeMs = median(
    reports.map((report) => report.audits["total-blocking-time"]?.numericValue ?? 0),
  );
  const longest = (report: Report, counted: (url: string) => boolean) =>
    Math.max(
      0,
      ...(report.audits["long-tasks"]?.details?.items ?? [])
        .filter((task) => counted(task.url ?? ""))
        .map((task) => task.duration ?? 0),
    );
  const longestTaskMs = median(reports.map((report) => longest(report, () => true)));
  const longestScriptTaskMs = median(
    reports.map((report) => longest(report, (url) => /\.js(\?|$)/.test(url))),
  );
  return { scores, totalBlockingTimeMs, longestTaskMs, longestScriptTaskMs, runs };
}

/**
 * Audits `path` on the server under test and adds one row per category and one for total
 * blocking time and two for the longest task (of any kind, and in the page's scripts); `budget`
 * gives the least acceptable score of some categories and the longest acceptable task in scripts
 * (`longestTaskMs`). When Lighthouse
 * cannot run, adds a single "skipped" row instead, with no budget.
 */
export async function lighthouseRows(
  context: BenchContext,
  path: string,
  budget: Partial<Record<Category, number>> & { longestTaskMs?: number } = {},
  runs = 3,
): Promise<void> {
  let result: LighthouseScores;
  try {
    result = await lighthouse(context.url + path, runs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.row(`Lighthouse mobile ${path}`, { skipped: reason });
    return;
  }
  for (const category of CATEGORIES) {
    const min = budget[category];
    const limits: Budget | undefined = min === undefined ? undefined : { min };
    context.row(
      `Lighthouse mobile ${category} ${path} (median of ${result.runs})`,
      { value: result.scores[category], unit: "score" },
      limits,
    );
  }
  context.row(`Lighthouse mobile total blocking time ${path} (median of ${result.runs})`, {
    value: result.totalBlockingTimeMs,
    unit: "ms",
  });
  context.row(
    `Lighthouse mobile longest main-thread task ${path} (median of ${result.runs})`,
    { value: result.longestTaskMs, unit: "ms" },
  );
  context.row(
    `Lighthouse mobile longest task in scripts ${path} (median of ${result.runs})`,
    { value: result.longestScriptTaskMs, unit: "ms" },
    budget.longestTaskMs === undefined ? undefined : { max: budget.longestTaskMs },
  );
}
