/**
 * The public pages' JavaScript budget: at most 80 KB gzipped on any public page, none of it
 * blocking; and the islands' scripts built to wake in short tasks (client/wake.ts).
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { islandEntries } from "./bundle.ts";
import { dist, scriptDownload } from "../helpers/scripts.ts";
import { relativeImports } from "../../server/imports.ts";
import { get, seedJobs } from "./fixtures.ts";

const BUDGET_GZIP_BYTES = 80 * 1024;

Deno.test("each public page loads at most 80 KB of gzipped JavaScript, all deferred", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{}]);
  const expected: Record<string, string[]> = {
    "/": ["wake.js", "islands/save.js", "islands/hero-search.js"],
    "/jobs": ["wake.js", "islands/save.js", "islands/filters.js", "islands/alert.js"],
    [`/jobs/${job.jobId}`]: ["wake.js", "islands/save.js", "islands/apply.js", "islands/share.js"],
    "/jobs/JB-999999": ["wake.js", "islands/save.js"],
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

Deno.test("the islands' modules are listed in the order they run, each marked for eager compiling", async () => {
  const imports: Record<string, string[]> = JSON.parse(
    await Deno.readTextFile(new URL("imports.json", dist)),
  );
  assert.deepEqual(Object.keys(imports).sort(), [
    "islands/alert.js",
    "islands/apply.js",
    "islands/filters.js",
    "islands/hero-search.js",
    "islands/save.js",
    "islands/saved-list.js",
    "islands/share.js",
  ]);
  for (const [island, modules] of Object.entries(imports)) {
    // Each module comes after every module it imports, and the island's script after them all.
    const order = [...modules, island];
    for (const [index, name] of order.entries()) {
      const code = await Deno.readTextFile(new URL(name, dist));
      for (const specifier of relativeImports(code)) {
        const imported = new URL(specifier, new URL(name, dist)).href.slice(dist.href.length);
        assert.ok(order.indexOf(imported) > -1, `${island}: ${name} imports ${imported}, unlisted`);
        assert.ok(order.indexOf(imported) < index, `${island}: ${name} runs before ${imported}`);
      }
    }
    for (const name of ["wake.js", ...order]) {
      const code = await Deno.readTextFile(new URL(name, dist));
      assert.ok(code.startsWith("//# allFunctionsCalledOnLoad\n"), `${name} has no compile hint`);
    }
  }
});
