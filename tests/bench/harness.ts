/**
 * What every benchmark scenario receives, and the wrk driver behind `load`. A scenario is a module
 * in tests/bench/scenarios/ whose default export takes a BenchContext; run.ts finds it by itself.
 */

export interface LoadOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** wrk connections; 32 unless given. */
  connections?: number;
  /** Measured seconds, after a one-second warm-up that is not counted. */
  seconds?: number;
  /** Lua for wrk, such as a `request` function that picks each request's path (a traffic mix). */
  script?: string;
  /**
   * Groups the connections open in, ARRIVAL_GAP_MS apart, as visitors arrive; one (all at once)
   * unless given. Workers of `deno serve --parallel` share one listening socket, and the first to
   * wake takes every connection waiting: opened at one instant, all of them can go to one worker.
   */
  arrivals?: number;
}

/** Between one group of connections and the next (`LoadOptions.arrivals`). */
const ARRIVAL_GAP_MS = 250;

export interface LoadResult {
  /** Requests per second. */
  rps: number;
  /** rps divided by `helloRps`, the hello-world measured just before the scenario. */
  ratio: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx or 3xx, plus socket errors: any makes the figures meaningless. */
  errors: number;
}

/** A single figure, such as memory in MB or a start time in ms. */
export interface Measure {
  value: number;
  unit: string;
}

/** A measurement that could not be taken on this machine (a tool missing), with the reason. */
export interface Skipped {
  skipped: string;
}

/** Limits a row must meet; a row outside them is reported as missed. */
export interface Budget {
  minRatio?: number;
  maxP99Ms?: number;
  /** For a Measure: the largest acceptable value. */
  max?: number;
  /** For a Measure: the smallest acceptable value (a score). */
  min?: number;
}

/** The budget of the specification's API calls: 10% of hello-world, p99 within 25 ms. */
export const API_BUDGET: Budget = { minRatio: 0.1, maxP99Ms: 25 };

export interface BenchContext {
  /** The CareerEdge server under test, such as http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Its database file (100,000 jobs: 20,000 active, 30,000 dump, 50,000 inactive). */
  kvPath: string;
  /** The bare Hono hello-world's requests per second, measured just before the scenario. */
  helloRps: number;
  /** A main admin's Bearer token. */
  adminToken: string;
  /** The `_id` of an active job. */
  sampleJobId: string;
  /** The server's resident memory (VmRSS) now, in MB. */
  residentMemory(): Promise<number>;
  /** The server's resident memory now, and the part of it that is pages of files, in MB. */
  serverMemory(): Promise<{ rss: number; file: number }>;
  /** Loads `path` on the server with wrk and returns its figures. */
  load(path: string, options?: LoadOptions): Promise<LoadResult>;
  /** Adds a row to the printed table. */
  row(name: string, figures: LoadResult | Measure | Skipped, budget?: Budget): void;
}

export interface Row {
  name: string;
  figures: LoadResult | Measure | Skipped;
  budget?: Budget;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function duration(text: string): number {
  const match = text.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!match) throw new Error(`wrk printed an unreadable latency: ${text}`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

export function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The server's own time for an answer, from the `Server-Timing` header every answer carries. */
export function serverTime(response: Response): number {
  const match = /\bapp;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
  if (!match) throw new Error("the answer has no Server-Timing header");
  return Number(match[1]);
}

/** Reads wrk's `--latency` report. */
export function parseWrk(output: string): Omit<LoadResult, "ratio"> {
  const rps = output.match(/Requests\/sec:\s+([\d.]+)/)?.[1];
  const p50 = output.match(/^\s+50%\s+(\S+)/m)?.[1];
  const p99 = output.match(/^\s+99%\s+(\S+)/m)?.[1];
  if (!rps || !p50 || !p99) throw new Error(`wrk printed no figures:\n${output}`);
  const non2xx = Number(output.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const socket = output.match(
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
  );
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: Number(rps),
    p50Ms: duration(p50),
    p99Ms: duration(p99),
    errors: non2xx + socketErrors,
  };
}

/** A Lua long string, which needs no escaping as long as the text lacks its closing bracket. */
function luaString(text: string): string {
  let level = "";
  while (text.includes(`]${level}]`)) level += "=";
  return `[${level}[${text}]${level}]`;
}

async function wrk(url: string, options: LoadOptions, seconds: number): Promise<string> {
  const args = [
    "--latency",
    "-t2",
    `-c${options.connections ?? 32}`,
    `-d${seconds}s`,
    "--timeout",
    "5s",
  ];
  let script: string | null = null;
  if (options.method || options.body || options.headers || options.script) {
    const lines = [`wrk.method = ${luaString(options.method ?? "GET")}`];
    if (options.body !== undefined) lines.push(`wrk.body = ${luaString(options.body)}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
    }
    if (options.script) lines.push(options.script);
    script = await Deno.makeTempFile({ suffix: ".lua" });
    await Deno.writeTextFile(script, lines.join("\n") + "\n");
    args.push("-s", script);
  }
  // A script's `init(args)` gets a seed of its own for each run: wrk runs started in the same second
  // (the groups of `arriving`) drew the same paths from a seed of the clock, so three groups of four
  // asked what the first had just asked, and the workers rows measured one worker's cache hits.
  const seed = String(crypto.getRandomValues(new Uint32Array(1))[0]);
  try {
    const result = await new Deno.Command("wrk", {
      args: [...args, url, "--", seed],
      stderr: "inherit",
    })
      .output();
    const text = new TextDecoder().decode(result.stdout);
    if (!result.success) throw new Error(`wrk failed:\n${text}`);
    return text;
  } finally {
    if (script) await Deno.remove(script);
  }
}

/**
 * wrk run as `arrivals` processes, each started ARRIVAL_GAP_MS after the one before with its share
 * of the connections, for the same seconds, read as one load (`together`).
 */
async function arriving(
  url: string,
  options: LoadOptions,
  seconds: number,
): Promise<Omit<LoadResult, "ratio">> {
  const groups = options.arrivals ?? 1;
  const connections = Math.max(1, Math.round((options.connections ?? 32) / groups));
  const runs = Array.from({ length: groups }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * ARRIVAL_GAP_MS));
    return parseWrk(await wrk(url, { ...options, connections }, seconds));
  });
  return together(await Promise.all(runs));
}

/**
 * wrk runs at the same time as one load: their rates added up, their p50s weighted by their rates,
 * the highest of their p99s (a bound: wrk reports no distribution to merge), their errors added up.
 */
export function together(results: Omit<LoadResult, "ratio">[]): Omit<LoadResult, "ratio"> {
  const rps = results.reduce((sum, result) => sum + result.rps, 0);
  return {
    rps,
    // Runs that answered nothing have no rates to weigh by: the slowest p50 then.
    p50Ms: rps > 0
      ? results.reduce((sum, result) => sum + result.p50Ms * result.rps, 0) / rps
      : Math.max(...results.map((result) => result.p50Ms)),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

/** Loads a URL: a one-second warm-up (so the JIT and caches settle), then the measured run. */
export async function measure(
  url: string,
  options: LoadOptions = {},
): Promise<Omit<LoadResult, "ratio">> {
  await arriving(url, options, 1);
  return arriving(url, options, options.seconds ?? 4);
}

/** Which limits of its budget a row misses, in words; empty when it meets them all. */
export function misses(row: Row): string[] {
  const { figures, budget = {} } = row;
  const missed: string[] = [];
  if ("rps" in figures) {
    if (figures.errors > 0) missed.push(`${figures.errors} failed requests`);
    if (budget.minRatio !== undefined && figures.ratio < budget.minRatio) {
      missed.push(`ratio below ${budget.minRatio}`);
    }
    if (budget.maxP99Ms !== undefined && figures.p99Ms > budget.maxP99Ms) {
      missed.push(`p99 above ${budget.maxP99Ms} ms`);
    }
  } else if ("value" in figures) {
    if (budget.max !== undefined && figures.value > budget.max) {
      missed.push(`above ${budget.max} ${figures.unit}`);
    }
    if (budget.min !== undefined && figures.value < budget.min) {
      missed.push(`below ${budget.min} ${figures.unit}`);
    }
  }
  return missed;
}

function budgetText({ budget }: Row): string {
  if (!budget) return "";
  const parts: string[] = [];
  if (budget.minRatio !== undefined) parts.push(`ratio >= ${budget.minRatio}`);
  if (budget.maxP99Ms !== undefined) parts.push(`p99 <= ${budget.maxP99Ms} ms`);
  if (budget.max !== undefined) parts.push(`<= ${budget.max}`);
  if (budget.min !== undefined) parts.push(`>= ${budget.min}`);
  return parts.join(", ");
}

const number = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The results as an aligned plain-text table. */
export function formatTable(rows: Row[]): string {
  const header = ["measurement", "req/s", "ratio", "p50 ms", "p99 ms", "value", "budget", "result"];
  const cells = rows.map((row) => {
    const { figures } = row;
    const missed = misses(row);
    const result = missed.length ? `MISSED: ${missed.join("; ")}` : row.budget ? "ok" : "";
    if ("skipped" in figures) {
      return [row.name, "", "", "", "", "", "", `skipped: ${figures.skipped}`];
    }
    return "rps" in figures
      ? [
        row.name,
        number(figures.rps),
        number(figures.ratio, 3),
        number(figures.p50Ms, 2),
        number(figures.p99Ms, 2),
        "",
        budgetText(row),
        result,
      ]
      : [
        row.name,
        "",
        "",
        "",
        "",
        // Scores run from 0 to 1.
        `${
          number(figures.value, figures.unit === "score" || figures.value < 10 ? 2 : 0)
        } ${figures.unit}`,
        budgetText(row),
        result,
      ];
  });
  const widths = header.map((_, i) =>
    Math.max(...[header, ...cells].map((line) => line[i].length))
  );
  const line = (values: string[]) =>
    values.map((
      value,
      i,
    ) => (i >= 1 && i <= 5 ? value.padStart(widths[i]) : value.padEnd(widths[i])))
      .join("  ").trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...cells.map(line)]
    .join("\n");
}
