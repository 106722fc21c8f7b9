import assert from "node:assert/strict";
import { formatTable, misses, parseWrk, together } from "./harness.ts";

const REPORT = `Running 4s test @ http://127.0.0.1:41234/api/jobs
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.91ms    1.20ms  31.02ms   90.12%
    Req/Sec     5.53k   412.11     6.20k    71.25%
  Latency Distribution
     50%  812.00us
     75%    3.10ms
     90%    4.02ms
     99%    1.20s
  44012 requests in 4.00s, 672.11MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  11003.25
Transfer/sec:    168.03MB
`;

Deno.test("wrk's latency report is read in milliseconds, with failed requests counted", () => {
  assert.deepEqual(parseWrk(REPORT), { rps: 11003.25, p50Ms: 0.812, p99Ms: 1200, errors: 10 });
  assert.throws(
    () => parseWrk("unable to connect to 127.0.0.1:1 Connection refused"),
    /no figures/,
  );
});

Deno.test("a row misses its budget on ratio, p99, failed requests or a maximum", () => {
  const load = { rps: 5000, ratio: 0.08, p50Ms: 2, p99Ms: 30, errors: 0 };
  assert.deepEqual(misses({ name: "a", figures: load, budget: { minRatio: 0.1, maxP99Ms: 25 } }), [
    "ratio below 0.1",
    "p99 above 25 ms",
  ]);
  assert.deepEqual(misses({ name: "b", figures: { ...load, errors: 3 } }), ["3 failed requests"]);
  assert.deepEqual(
    misses({ name: "c", figures: { value: 310, unit: "MB" }, budget: { max: 300 } }),
    [
      "above 300 MB",
    ],
  );
  assert.deepEqual(
    misses({ name: "d", figures: { value: 290, unit: "MB" }, budget: { max: 300 } }),
    [],
  );

  const table = formatTable([
    {
      name: "GET /api/jobs",
      figures: { ...load, ratio: 0.125, p99Ms: 12 },
      budget: { minRatio: 0.1 },
    },
    { name: "memory", figures: { value: 310, unit: "MB" }, budget: { max: 300 } },
  ]).split("\n");
  assert.match(
    table[0],
    /^measurement\s+req\/s\s+ratio\s+p50 ms\s+p99 ms\s+value\s+budget\s+result$/,
  );
  assert.match(
    table[2],
    /^GET \/api\/jobs\s+5,000\s+0\.125\s+2\.00\s+12\.00\s+ratio >= 0\.1\s+ok$/,
  );
  assert.match(table[3], /^memory\s+310 MB\s+<= 300\s+MISSED: above 300 MB$/);
});

Deno.test("a score row misses a minimum and prints two decimals; a skipped row sets no budget", () => {
  const score = (value: number) => ({
    name: "Lighthouse mobile performance /admin/login",
    figures: { value, unit: "score" },
    budget: { min: 0.9 },
  });
  assert.deepEqual(misses(score(0.87)), ["below 0.9 score"]);
  assert.deepEqual(misses(score(0.93)), []);
  const skipped = { name: "Lighthouse mobile /", figures: { skipped: "Lighthouse exited with 1" } };
  assert.deepEqual(misses(skipped), []);
  const table = formatTable([score(0.87), skipped]).split("\n");
  assert.match(table[2], /0\.87 score\s+>= 0\.9\s+MISSED: below 0\.9 score$/);
  assert.match(table[3], /^Lighthouse mobile \/\s+skipped: Lighthouse exited with 1$/);
});

Deno.test("wrk runs at the same time read as one load: rates added, p50 by rate, the worst p99", () => {
  const load = together([
    { rps: 300, p50Ms: 10, p99Ms: 40, errors: 0 },
    { rps: 100, p50Ms: 30, p99Ms: 90, errors: 2 },
  ]);
  assert.deepEqual(load, { rps: 400, p50Ms: 15, p99Ms: 90, errors: 2 });
  const one = { rps: 250, p50Ms: 4, p99Ms: 12, errors: 0 };
  assert.deepEqual(together([one]), one);
  const none = together([
    { rps: 0, p50Ms: 5000, p99Ms: 5000, errors: 9 },
    { rps: 0, p50Ms: 4000, p99Ms: 5000, errors: 3 },
  ]);
  assert.deepEqual(none, { rps: 0, p50Ms: 5000, p99Ms: 5000, errors: 12 });
});
