/**
 * The search: a keyword search with filters asked again and again (API and page), and searches
 * nobody asked before, each a new URL, so what they cost is the engine and the render, not a cache.
 */
import type { BenchContext } from "../harness.ts";

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

export default async function search(context: BenchContext) {
  const repeated = "keywords=react%20developer&location=bangalore&employmentType=Full-Time";
  context.row(
    "GET /api/jobs keyword search + filters (same URL)",
    await context.load(`/api/jobs?${repeated}`),
    { minRatio: 0.25, maxP99Ms: 10 },
  );
  context.row(
    "/jobs keyword search + filters (same URL)",
    await context.load(`/jobs?${repeated}`),
    { minRatio: 0.25 },
  );

  // Each a URL not asked before: two words, sometimes a location and a type.
  let seed = 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const seen = new Set<string>();
  const times: number[] = [];
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
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  context.row("/jobs never-seen search, median (client time)", {
    value: times[Math.floor(times.length / 2)],
    unit: "ms",
  }, { max: 5 });
  context.row("/jobs never-seen search, p99 (client time)", {
    value: times[Math.floor(times.length * 0.99)],
    unit: "ms",
  });
}
