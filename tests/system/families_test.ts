/**
 * `deno task test` runs the families' module and, file by file, exactly the folders the families
 * leave out: a folder left out of both would never run, one in both would run twice.
 */
import assert from "node:assert/strict";
import { APART, familyModules } from "../helpers/families.ts";

Deno.test("the test task runs the families' module and each folder it leaves out", async () => {
  const task: string = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  ).tasks.test;
  const run = task.slice(task.lastIndexOf("deno test")).split(" ").filter((arg) =>
    arg.startsWith("tests/")
  );
  assert.deepEqual(run, ["tests/families.ts", ...APART.map((folder) => `tests/${folder}`)]);
  const modules = await familyModules();
  assert.ok(modules.includes("system/families_test.ts"));
  assert.ok(!modules.some((path) => APART.some((folder) => path.startsWith(folder))));
});
