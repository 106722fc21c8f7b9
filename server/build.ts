/**
 * Builds what browsers load into a folder of client/dist (see server/dist.ts): the stylesheet
 * (Tailwind) and two sets of script bundles, minified so React's production build is used, with
 * shared chunks split out, each also written brotli- and gzip-compressed: the public pages' (one
 * per file in client/islands, and the waker) and the admin app's, in admin/. The two are bundled
 * apart (no page loads both), so a development build (server/dev.ts), neither minified nor
 * compressed, remakes only the parts a change reaches and links the rest from the build before;
 * it is made by the same tools kept warm in the loop's process (server/dev-bundler.ts).
 * Entries keep their folder: `islands/share.js`, `admin/main.js`. Writes the folder's
 * manifest.json mapping each file to a content-hashed URL so assets can be cached for a year, and
 * copies beside them the files the share image is drawn with.
 *
 * It builds only when the inputs changed (server/build-inputs.ts): the folder is named by their
 * hash, written beside under a lock (starts at the same moment wait, then find it built), renamed
 * into place whole, and named in `current` by a rename. Old folders no process serves are removed.
 *
 * A file in client/islands only exports components; its browser script is generated here: it
 * hydrates each of them where the server rendered it (client/components/hydrate.tsx).
 */
import { brotliCompressSync, gzipSync } from "node:zlib";
import { encodeHex } from "../kv/hex.ts";
import { relativeImports } from "./imports.ts";
import { ADMIN_ENTRIES, buildInputsHash, HYDRATE, WAKER } from "./build-inputs.ts";
import { CURRENT, currentBuild, distRoot, MANIFEST, SHARE_IMAGE_FILES } from "./dist.ts";
import type { DevBundler } from "./dev-bundler.ts";

const root = new URL("../", import.meta.url);
const rootPath = root.pathname;

async function run(command: string, args: string[]) {
  const { code, stderr } = await new Deno.Command(command, { args, cwd: rootPath, stderr: "piped" })
    .output();
  if (code !== 0) {
    console.error(new TextDecoder().decode(stderr));
    throw new Error(`${command} ${args[0]} failed`);
  }
}

/** How a build is made. */
export interface BuildOptions {
  /**
   * A development build (`deno task dev`), made by the loop's warm bundler: neither minified nor
   * compressed, for speed.
   */
  dev?: DevBundler;
  /**
   * What to make anew; the rest is linked from `reuse`, a build of the same mode made before.
   * Without it, everything is made.
   */
  parts?: ReadonlySet<BuildPart>;
  reuse?: URL;
}

/** The two sets of browser scripts, bundled apart. */
export type ScriptSet = "islands" | "admin";
export type BuildPart = "styles" | ScriptSet;

/** The stylesheet, `styles.css`. Tailwind reads the markup's class names from the sources. */
async function bundleStyles(dist: string) {
  await run(Deno.execPath(), [
    "run",
    "-A",
    "npm:@tailwindcss/cli@4.3.3",
    "-i",
    "client/styles.css",
    "-o",
    `${dist.slice(rootPath.length)}/styles.css`,
    "--minify",
  ]);
}

type Bundle = (outdir: string, entries: string[]) => Promise<void>;

const bundle: Bundle = async (outdir, entries) => {
  await run(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--platform",
    "browser",
    // Minifying also selects React's production build.
    "--minify",
    "--code-splitting",
    "--outdir",
    outdir.slice(rootPath.length),
    ...entries,
  ]);
};

/** Generates the islands' entry scripts, then bundles them and the waker into `dist`. */
async function bundleIslands(dist: string, bundle: Bundle) {
  // Generated beside client/islands, at the same depth, so the bundles' relative imports of shared
  // chunks stay right once their folder is renamed to islands/ in the build. Only the holder of
  // the build lock writes it.
  const generated = ".islands";
  await Deno.remove(`${rootPath}client/${generated}`, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${rootPath}client/${generated}`);
  const entries: string[] = [];
  for await (const entry of Deno.readDir(`${rootPath}client/islands`)) {
    const file = entry.isFile ? entry.name.match(/^(.+)\.tsx$/)?.[1] : undefined;
    if (!file) continue;
    const path = `client/${generated}/${file}.ts`;
    await Deno.writeTextFile(
      `${rootPath}${path}`,
      `import * as islands from "../islands/${entry.name}";\n` +
        `import { hydrateIslands } from "../../${HYDRATE}";\n` +
        `await hydrateIslands(${JSON.stringify(file)}, islands);\n`,
    );
    entries.push(path);
  }
  try {
    await bundle(dist, [...entries, WAKER]);
  } finally {
    await Deno.remove(`${rootPath}client/${generated}`, { recursive: true });
  }
  await Deno.rename(`${dist}/${generated}`, `${dist}/islands`);
}

/** Links into `dist` the files of the build `from` that `keep` names (built files never change). */
async function linkFrom(from: URL, dist: string, keep: (name: string) => boolean) {
  for (const name of await builtFiles(from.pathname.replace(/\/$/, ""))) {
    if (!keep(name)) continue;
    const target = `${dist}/${name}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.link(new URL(name, from).pathname, target);
  }
}

/** The part a built file belongs to (null: made for every build). */
function partOf(name: string): BuildPart | null {
  if (name === "styles.css") return "styles";
  if (!/\.js$/.test(name)) return null;
  return name.startsWith("admin/") ? "admin" : "islands";
}

async function builtFiles(dist: string, folder = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${dist}/${folder}`)) {
    const name = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory) names.push(...await builtFiles(dist, name));
    else if (entry.isFile) names.push(name);
  }
  return names;
}

/**
 * What each island script imports, however deep, in the order the modules run (each after what it
 * imports), so a page can fetch all of it ahead and client/wake.ts can run one module per task.
 */
async function preloadsOf(dist: string, built: string[]): Promise<Record<string, string[]>> {
  const preloads: Record<string, string[]> = {};
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
  return preloads;
}

/** Builds into the empty folder `dist`, its manifest last. */
async function buildInto(dist: string, { dev, parts, reuse }: BuildOptions) {
  const makes = (part: BuildPart) => !reuse || !parts || parts.has(part);
  if (reuse) {
    await linkFrom(reuse, dist, (name) => {
      const part = partOf(name);
      return part !== null && !makes(part) || name.startsWith(`${SHARE_IMAGE_FILES.folder}/`);
    });
  } else await copyShareImageFiles(dist);
  // All run to their end before a failure is thrown, so nothing writes into a removed folder.
  const scripts = (set: ScriptSet): Bundle =>
    dev ? (outdir, entries) => dev.scripts(set, outdir, entries) : bundle;
  const bundled = await Promise.allSettled([
    makes("styles") && (dev ? dev.styles(dist) : bundleStyles(dist)),
    makes("islands") && bundleIslands(dist, scripts("islands")),
    makes("admin") && scripts("admin")(`${dist}/admin`, ADMIN_ENTRIES),
  ]);
  for (const result of bundled) if (result.status === "rejected") throw result.reason;
  const built = (await builtFiles(dist)).filter((name) =>
    !/\.(br|gz)$/.test(name) && !name.startsWith(`${SHARE_IMAGE_FILES.folder}/`)
  );
  const preloads = await preloadsOf(dist, built);

  // Every function of the waker and of an island's scripts runs once the visitor moves (React's
  // runtime is most of them). Marked so, Chromium compiles them all as the script loads (on a
  // background thread for the large ones) instead of one by one on the main thread as each is
  // first called, which was most of the islands' wake.
  const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
  for (const name of dev ? [] : new Set(["wake.js", ...Object.entries(preloads).flat(2)])) {
    const path = `${dist}/${name}`;
    await Deno.writeTextFile(path, COMPILE_HINT + await Deno.readTextFile(path));
  }

  const manifest: Record<string, string> = {};
  for (const name of built) {
    const bytes = await Deno.readFile(`${dist}/${name}`);
    const hash = encodeHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 12);
    manifest[name] = `/assets/${name}?v=${hash}`;
    // Compressed once here, so serving them costs nothing (server/assets.ts picks the variant).
    if (!dev && /\.(js|css)$/.test(name)) {
      await Deno.writeFile(`${dist}/${name}.br`, brotliCompressSync(bytes));
      await Deno.writeFile(`${dist}/${name}.gz`, gzipSync(bytes, { level: 9 }));
    }
  }
  await Deno.writeTextFile(`${dist}/imports.json`, JSON.stringify(preloads, null, 2));
  await Deno.writeTextFile(`${dist}/${MANIFEST}`, JSON.stringify(manifest, null, 2));
  return Object.keys(manifest).length;
}

/**
 * The share image's renderer and fonts, from npm, copied so the server reads them as plain files
 * (on Deno Deploy too, where a runtime flag for importing bytes cannot be given).
 */
async function copyShareImageFiles(dist: string) {
  const [wasm, regular, bold] = await Promise.all([
    import("@resvg/resvg-wasm/index_bg.wasm", { with: { type: "bytes" } }),
    import("dejavu-fonts-ttf/ttf/DejaVuSans.ttf", { with: { type: "bytes" } }),
    import("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf", { with: { type: "bytes" } }),
  ]);
  await Deno.mkdir(`${dist}/${SHARE_IMAGE_FILES.folder}`);
  await Deno.writeFile(`${dist}/${SHARE_IMAGE_FILES.wasm}`, wasm.default);
  await Deno.writeFile(`${dist}/${SHARE_IMAGE_FILES.regular}`, regular.default);
  await Deno.writeFile(`${dist}/${SHARE_IMAGE_FILES.bold}`, bold.default);
}

function isBuilt(id: string): boolean {
  try {
    return Deno.statSync(new URL(`${id}/${MANIFEST}`, distRoot)).isFile;
  } catch {
    return false;
  }
}

/**
 * Removes what is in client/dist besides `current`, the lock and the current build: older builds
 * no process serves (a server holds a shared lock on its build's manifest), and leftovers of
 * builds that stopped half-way.
 */
async function prune(keep: string) {
  for await (const entry of Deno.readDir(distRoot)) {
    if ([CURRENT, ".lock", keep].includes(entry.name)) continue;
    const url = new URL(entry.name, distRoot);
    if (!entry.isDirectory) {
      await Deno.remove(url);
      continue;
    }
    let manifest: Deno.FsFile | null = null;
    try {
      manifest = await Deno.open(new URL(`${entry.name}/${MANIFEST}`, distRoot));
    } catch { /* not a whole build */ }
    try {
      // Removed while locked, so a server that locks it after finds it gone and reads `current`.
      if (!manifest || await manifest.tryLock(true)) await Deno.remove(url, { recursive: true });
    } finally {
      manifest?.close();
    }
  }
}

/** A development build's folder name starts so: a production start never serves one. */
export const DEV_PREFIX = "dev-";

/**
 * Builds client/dist for the sources as they are now, unless `current` already names that build;
 * returns its id. A development build is made and named apart from a production build of the same
 * sources.
 */
export async function build(options: BuildOptions = {}): Promise<string> {
  const id = `${options.dev ? DEV_PREFIX : ""}${await buildInputsHash(root)}`;
  if (currentBuild() === id && isBuilt(id)) {
    console.log(`client/dist is up to date (build ${id})`);
    return id;
  }
  await Deno.mkdir(distRoot, { recursive: true });
  using lock = await Deno.open(new URL(".lock", distRoot), { create: true, write: true });
  await lock.lock(true);
  if (isBuilt(id)) {
    console.log(`client/dist has build ${id}`);
  } else {
    const temp = `${distRoot.pathname}.tmp-${Deno.pid}`;
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    await Deno.mkdir(temp);
    try {
      const count = await buildInto(temp, options);
      await Deno.rename(temp, new URL(id, distRoot));
      console.log(`Built ${count} assets into client/dist (build ${id})`);
    } catch (error) {
      await Deno.remove(temp, { recursive: true }).catch(() => {});
      throw error;
    }
  }
  if (currentBuild() !== id) {
    const pointer = new URL(`${CURRENT}.tmp-${Deno.pid}`, distRoot);
    await Deno.writeTextFile(pointer, `${id}\n`);
    await Deno.rename(pointer, new URL(CURRENT, distRoot));
  }
  await prune(id);
  return id;
}

if (import.meta.main) await build();
