/** The public pages' JavaScript budget: at most 80 KB gzipped on any public page, none of it blocking. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { islandEntries } from "./bundle.ts";
import { scriptDownload } from "../helpers/scripts.ts";
import { get, seedJobs } from "./fixtures.ts";

const BUDGET_GZIP_BYTES = 80 * 1024;

Deno.test("each public page loads at most 80 KB of gzipped JavaScript, all deferred", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{}]);
  const expected: Record<string, string[]> = {
    "/": ["wake.js", "islands/hero-search.js"],
    "/jobs": ["wake.js", "islands/filters.js"],
    [`/jobs/${job.jobId}`]: ["wake.js", "islands/apply.js", "islands/share.js"],
    "/jobs/JB-999999": [],
  };
  for (const [path, islands] of Object.entries(expected)) {
    const { html } = await get(t, path);
    const entries = islandEntries(html);
    assert.deepEqual(entries, islands, path);
    const weight = await scriptDownload(entries, { dynamic: true });
    assert.ok(
      weight.gzipBytes <= BUDGET_GZIP_BYTES,
      `${path}: ${weight.gzipBytes} bytes gzipped in ${weight.files.join(", ")}`,
    );
    // Module scripts never block parsing; no classic script may be added that would.
    const classic = [...html.matchAll(/<script(?![^>]*type="(module|application\/(ld\+)?json)")/g)];
    assert.equal(classic.length, 0, path);
  }
});
