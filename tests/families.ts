/**
 * Every test module outside the folders `deno task test` names (the browser-heavy admin and public
 * pages, run file by file), loaded into this one module: Deno runs each test module in a worker of
 * its own that loads the app's modules again, and these families are many small files (decision
 * 045). A file of them still runs alone as any other: `deno test -A tests/api/cache_test.ts`. A
 * new folder or file joins by itself; a folder the task names is left to the task.
 */
const root = new URL("./", import.meta.url);
const testTask: string = JSON.parse(await Deno.readTextFile(new URL("../deno.json", root))).tasks
  .test;
/** The folders the task's `deno test` runs file by file, as `admin/`. */
const apart = [...testTask.slice(testTask.lastIndexOf("deno test")).matchAll(/\btests\/(\w+)\//g)]
  .map(([, folder]) => `${folder}/`);
/** The names `deno test` takes for test modules. */
const TEST_MODULE = /(^|[._])test\.(ts|tsx|mts|js|mjs|jsx)$/;

/** The test modules under `folder` (paths from `root`). */
async function* testModules(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(folder, root))) {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory && !apart.includes(`${path}/`)) yield* testModules(`${path}/`);
    else if (entry.isFile && TEST_MODULE.test(entry.name)) yield path;
  }
}

for (const path of (await Array.fromAsync(testModules(""))).sort()) await import(`./${path}`);
