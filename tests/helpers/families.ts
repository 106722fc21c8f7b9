/**
 * The test modules `tests/families.ts` loads into one module (decision 045): every one under
 * `tests/` outside the folders `deno task test` runs file by file.
 */

/** The folders the test task runs file by file (tests/system/families_test.ts checks it does). */
export const APART = ["admin/", "public/"];

/** The names `deno test` takes for test modules. */
const TEST_MODULE = /(^|[._])test\.(ts|tsx|mts|js|mjs|jsx)$/;

const root = new URL("../", import.meta.url);

/** The test modules under `folder` (paths from `tests/`). */
async function* testModules(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(folder, root))) {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory && !APART.includes(`${path}/`)) yield* testModules(`${path}/`);
    else if (entry.isFile && TEST_MODULE.test(entry.name)) yield path;
  }
}

/** Every test module outside the APART folders, in order (paths from `tests/`). */
export async function familyModules(): Promise<string[]> {
  return (await Array.fromAsync(testModules(""))).sort();
}
