/**
 * Builds what browsers load into client/dist: the stylesheet (Tailwind) and the script bundles
 * (one per file in client/islands, and the admin app), minified so React's production build is
 * used, with shared chunks split out, each also written brotli- and gzip-compressed. Entries keep
 * their folder: `islands/share.js`, `admin/main.js`. Writes client/dist/manifest.json mapping each
 * file to a content-hashed URL so assets can be cached for a year.
 *
 * A file in client/islands only exports components; its browser script is generated here: it
 * hydrates each of them where the server rendered it (client/components/hydrate.tsx).
 */
import { brotliCompressSync, gzipSync } from "node:zlib";
import { encodeHex } from "../kv/hex.ts";
import { relativeImports } from "./imports.ts";

const root = new URL("../", import.meta.url).pathname;
const dist = `${root}client/dist`;

async function run(command: string, args: string[]) {
  const { code, stderr } = await new Deno.Command(command, { args, cwd: root, stderr: "piped" })
    .output();
  if (code !== 0) {
    console.error(new TextDecoder().decode(stderr));
    throw new Error(`${command} ${args[0]} failed`);
  }
}

await Deno.remove(dist, { recursive: true }).catch(() => {});
await Deno.mkdir(dist, { recursive: true });

// Generated beside client/islands, at the same depth, so the bundles' relative imports of shared
// chunks stay right once their folder is renamed to islands/ in client/dist.
const generated = ".islands";
await Deno.remove(`${root}client/${generated}`, { recursive: true }).catch(() => {});
await Deno.mkdir(`${root}client/${generated}`);
const entries: string[] = [];
for await (const entry of Deno.readDir(`${root}client/islands`)) {
  const file = entry.isFile ? entry.name.match(/^(.+)\.tsx$/)?.[1] : undefined;
  if (!file) continue;
  const path = `client/${generated}/${file}.ts`;
  await Deno.writeTextFile(
    `${root}${path}`,
    `import * as islands from "../islands/${entry.name}";\n` +
      `import { hydrateIslands } from "../components/hydrate.tsx";\n` +
      `await hydrateIslands(${JSON.stringify(file)}, islands);\n`,
  );
  entries.push(path);
}
entries.push(
  "client/wake.ts",
  "client/admin/main.tsx",
  "client/admin/login.tsx",
  "client/admin/zod-config.ts",
);

await Promise.all([
  run(Deno.execPath(), [
    "run",
    "-A",
    "npm:@tailwindcss/cli@4.3.3",
    "-i",
    "client/styles.css",
    "-o",
    "client/dist/styles.css",
    "--minify",
  ]),
  run(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--platform",
    "browser",
    "--minify",
    "--code-splitting",
    "--outdir",
    "client/dist",
    ...entries,
  ]),
]);
await Deno.remove(`${root}client/${generated}`, { recursive: true });
await Deno.rename(`${dist}/${generated}`, `${dist}/islands`);

async function builtFiles(folder: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${dist}/${folder}`)) {
    const name = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory) names.push(...await builtFiles(name));
    else if (entry.isFile) names.push(name);
  }
  return names;
}

// What each island script imports, however deep, in the order the modules run (each after what it
// imports), so a page can fetch all of it ahead and client/wake.ts can run one module per task.
const preloads: Record<string, string[]> = {};
const built = await builtFiles("");
for (const name of built.filter((name) => /^islands\/.+\.js$/.test(name))) {
  const inOrder: string[] = [];
  const seen = new Set<string>();
  const visit = async (url: URL) => {
    for (const specifier of relativeImports(await Deno.readTextFile(url))) {
      const imported = new URL(specifier, url);
      const path = imported.pathname.slice(dist.length + 1);
      if (seen.has(path)) continue;
      seen.add(path);
      await visit(imported);
      inOrder.push(path);
    }
  };
  await visit(new URL(name, `file://${dist}/`));
  preloads[name] = inOrder;
}

// Every function of the waker and of an island's scripts runs once the visitor moves (React's
// runtime is most of them). Marked so, Chromium compiles them all as the script loads (on a
// background thread for the large ones) instead of one by one on the main thread as each is first
// called, which was most of the islands' wake.
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
for (const name of new Set(["wake.js", ...Object.entries(preloads).flat(2)])) {
  const path = `${dist}/${name}`;
  await Deno.writeTextFile(path, COMPILE_HINT + await Deno.readTextFile(path));
}

const manifest: Record<string, string> = {};
for (const name of built) {
  const bytes = await Deno.readFile(`${dist}/${name}`);
  const hash = encodeHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 12);
  manifest[name] = `/assets/${name}?v=${hash}`;
  // Compressed once here, so serving them costs nothing (server/assets.ts picks the variant).
  if (/\.(js|css)$/.test(name)) {
    await Deno.writeFile(`${dist}/${name}.br`, brotliCompressSync(bytes));
    await Deno.writeFile(`${dist}/${name}.gz`, gzipSync(bytes, { level: 9 }));
  }
}
await Deno.writeTextFile(`${dist}/manifest.json`, JSON.stringify(manifest, null, 2));
await Deno.writeTextFile(`${dist}/imports.json`, JSON.stringify(preloads, null, 2));
console.log(`Built ${Object.keys(manifest).length} assets into client/dist`);
