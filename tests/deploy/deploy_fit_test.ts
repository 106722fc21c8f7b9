/**
 * What Deno Deploy needs of the app: it runs with no runtime flags, so the only unstable features
 * may be KV and cron (both on Deploy), and nothing the server loads may import files as bytes or
 * text (an unstable feature; the share image's fonts and renderer are plain files of the build).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

Deno.test("deno.json asks for no unstable feature beyond KV and cron", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  assert.deepEqual([...config.unstable].sort(), ["cron", "kv"]);
});

Deno.test("no module of the server imports a file as bytes or text", async () => {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: root.pathname,
  }).output();
  assert.ok(success);
  const graph = JSON.parse(new TextDecoder().decode(stdout));
  const local = graph.modules.filter((module: { specifier: string }) =>
    module.specifier.startsWith(root.href)
  );
  assert.ok(local.length > 50, `${local.length} modules of ours`);
  const raw = local.filter((module: { specifier: string }) =>
    !/\.(ts|tsx|js|json)$/.test(module.specifier)
  ).map((module: { specifier: string }) => module.specifier);
  const offenders: string[] = [...raw];
  for (const module of local) {
    const source = await Deno.readTextFile(new URL(module.specifier));
    if (/type:\s*["'](bytes|text)["']/.test(source)) offenders.push(module.specifier);
  }
  assert.deepEqual(offenders, []);
});
