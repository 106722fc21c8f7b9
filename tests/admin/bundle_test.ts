/** The admin app's download budget: first screen at most 200 KB gzipped, no chart code. */
import assert from "node:assert/strict";
import { chunkNamed, firstScreens } from "./bundle.ts";
import { dist, scriptDownload } from "../helpers/scripts.ts";

const FIRST_SCREEN_BUDGET_KB = 200;

Deno.test("the first admin screen loads at most 200 KB of gzipped JavaScript and no chart code", async () => {
  const charts = await chunkNamed("charts");
  for (const [screen, download] of Object.entries(await firstScreens())) {
    assert.ok(
      download.gzipBytes <= FIRST_SCREEN_BUDGET_KB * 1024,
      `${screen}: ${(download.gzipBytes / 1024).toFixed(1)} KB`,
    );
    assert.ok(!download.files.includes(charts), `${screen} loads ${charts}`);
  }
});

Deno.test("chart.js lives in the chart chunk, which only the chart screens import", async () => {
  const charts = await chunkNamed("charts");
  const source = await Deno.readTextFile(new URL(charts, dist));
  assert.ok(source.includes("Chart.js"), "the chunk carries chart.js");
  for (const screen of ["jobs", "dump", "admins", "job-form"]) {
    const { files } = await scriptDownload([await chunkNamed(screen)]);
    assert.ok(!files.includes(charts), `${screen} pulls in chart code`);
  }
});

Deno.test("no script of the browser build imports a module of the server's runtime", async () => {
  const scripts: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(new URL(folder, dist))) {
      if (entry.isDirectory) await walk(`${folder}${entry.name}/`);
      else if (entry.name.endsWith(".js")) scripts.push(`${folder}${entry.name}`);
    }
  };
  await walk("");
  for (const folder of ["", "islands/", "admin/"]) {
    const inFolder = scripts.filter((name) => name.slice(0, name.lastIndexOf("/") + 1) === folder);
    assert.ok(inFolder.length > 3, `${inFolder.length} scripts in "${folder}"`);
  }
  for (const name of scripts) {
    const source = await Deno.readTextFile(new URL(name, dist));
    // A browser cannot load `node:` or `npm:` modules: a script that imports one breaks the page.
    const imported = source.match(/\bfrom\s*["'](?:node|npm|jsr):[^"']+["']/);
    assert.equal(imported, null, `${name} imports ${imported?.[0]}`);
  }
});
