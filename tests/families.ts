/**
 * Every test module outside the folders `deno task test` names (the browser-heavy admin and public
 * pages, run file by file), loaded into this one module: Deno runs each test module in a worker of
 * its own that loads the app's modules again, and these families are many small files (decision
 * 045). A file of them still runs alone as any other: `deno test -A tests/api/cache_test.ts`. A
 * new folder or file joins by itself (tests/helpers/families.ts).
 */
import { familyModules } from "./helpers/families.ts";

for (const path of await familyModules()) await import(`./${path}`);
