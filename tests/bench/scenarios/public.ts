/**
 * The public pages as a browser and a validator see them: the W3C Nu checker's error count over
 * every public page (none allowed), and Lighthouse's mobile scores of the home, the job list and a
 * job page (performance at least 0.97, the other categories 1.0), with the longest task spent in
 * the page's scripts while it loads (at most 50 ms); and on the same three pages the longest task
 * while the islands wake after the visitor's first move, in Chromium slowed down as Lighthouse's
 * phone is (at most 50 ms; tests/bench/wake.ts).
 */
import type { BenchContext } from "../harness.ts";
import { lighthouseRows } from "../lighthouse.ts";
import { nuErrors } from "../../public/nu.ts";
import { wakeTask } from "../wake.ts";

/** Lighthouse's mobile preset slows the CPU down four times; the wake is measured the same way. */
const CPU_SLOWDOWN = 4;

const PUBLIC_BUDGET = {
  performance: 0.97,
  accessibility: 1,
  "best-practices": 1,
  seo: 1,
  longestTaskMs: 50,
};

export default async function publicPages(context: BenchContext) {
  const detail = `/jobs/${context.sampleJobId}`;
  const paths = [
    "/",
    "/jobs",
    "/jobs?page=2",
    "/jobs?keywords=react+developer&location=bengaluru&employmentType=Full-Time",
    "/jobs?role=engineer&experience=2-3&sortBy=datePosted",
    "/jobs?keywords=nothing+matches+this+zzqx",
    "/jobs?page=999999",
    detail,
    "/jobs/JB-999999",
  ];
  const pages = [];
  for (const path of paths) {
    // A page past the end redirects to the last page: that is the page checked.
    const response = await fetch(context.url + path);
    pages.push({ name: path, html: await response.text() });
  }
  const errors = await nuErrors(pages);
  for (const error of errors) console.log(`    ${error}`);
  context.row(
    `Nu HTML checker errors on ${paths.length} public pages`,
    { value: errors.length, unit: "errors" },
    { max: 0 },
  );
  for (const path of ["/", "/jobs", detail]) {
    await lighthouseRows(context, path, PUBLIC_BUDGET);
  }
  for (const path of ["/", "/jobs", detail]) {
    const wakes = [];
    for (let run = 0; run < 3; run++) wakes.push(await wakeTask(context.url + path, CPU_SLOWDOWN));
    context.row(
      `${
        path === detail ? "job page" : path
      }: longest task while the islands wake, ${CPU_SLOWDOWN}x slower CPU (median of 3)`,
      { value: Math.round(wakes.sort((a, b) => a - b)[1]), unit: "ms" },
      { max: PUBLIC_BUDGET.longestTaskMs },
    );
  }
}
