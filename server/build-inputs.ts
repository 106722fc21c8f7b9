/**
 * A hash of everything the browser build reads, so a start can tell whether client/dist is up to
 * date without building: the files under client/ (scripts, styles), routes/ (the stylesheet's
 * other source of class names, see client/styles.css), every module those scripts and the build
 * itself import by a relative path (such as kv/ modules the browser shares), deno.json and
 * deno.lock (the npm packages' versions) and the Deno version (its bundler). A few hundred small
 * files: hashing them takes milliseconds. Also which parts of the build a changed file reaches, for
 * the dev loop's rebuilds.
 */
import { encodeHex } from "../kv/hex.ts";
import { relativeImports } from "./imports.ts";
import type { BuildPart, ScriptSet } from "./build.ts";

const SCANNED = ["client/", "routes/"];
/** Written by the build, not read by it. */
const SKIPPED = ["client/dist/", "client/.islands/"];
const FIXED = ["deno.json", "deno.lock", "server/build.ts"];

async function filesUnder(root: URL, folder: string, into: Set<string>) {
  for await (const entry of Deno.readDir(new URL(folder, root))) {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory && !SKIPPED.includes(`${path}/`)) {
      await filesUnder(root, `${path}/`, into);
    } else if (entry.isFile) into.add(path);
  }
}

/** `files` and every module they import by a relative path, however deep (paths from `root`). */
async function withImports(root: URL, files: Set<string>): Promise<Set<string>> {
  const queue = [...files].filter((path) => /\.tsx?$/.test(path));
  while (queue.length) {
    const from = new URL(queue.pop()!, root);
    for (const specifier of relativeImports(await Deno.readTextFile(from), true)) {
      const path = new URL(specifier, from).pathname.slice(root.pathname.length);
      if (files.has(path)) continue;
      files.add(path);
      queue.push(path);
    }
  }
  return files;
}

/** The build's input files (paths from `root`), sorted. */
export async function buildInputs(root: URL): Promise<string[]> {
  const files = new Set<string>(FIXED);
  for (const folder of SCANNED) await filesUnder(root, folder, files);
  return [...await withImports(root, files)].sort();
}

/** The admin app's entry scripts (server/build.ts bundles them apart, into admin/). */
export const ADMIN_ENTRIES = [
  "client/admin/main.tsx",
  "client/admin/login.tsx",
  "client/admin/zod-config.ts",
];
/** The public pages' script that wakes the islands, and what each island's entry runs. */
export const WAKER = "client/wake.ts";
export const HYDRATE = "client/components/hydrate.tsx";

/** The files each set of browser scripts is bundled from: its entries and what they import. */
export async function scriptInputs(
  root: URL,
): Promise<{ islands: Set<string>; admin: Set<string> }> {
  const islands = new Set([WAKER, HYDRATE]);
  await filesUnder(root, "client/islands/", islands);
  return {
    islands: await withImports(root, islands),
    admin: await withImports(root, new Set(ADMIN_ENTRIES)),
  };
}

/**
 * What the changed files (paths from the root) make anew in the browser build: the scripts that
 * import them, and the stylesheet for anything under client/ (a script's change can add class
 * names) or routes/ (class names only, for the browser build).
 */
export function partsFor(
  paths: string[],
  scripts: Record<ScriptSet, Set<string>>,
): Set<BuildPart> {
  const parts = new Set<BuildPart>();
  for (const path of paths) {
    if (path.startsWith("client/") || path.startsWith("routes/")) parts.add("styles");
    if (scripts.islands.has(path)) parts.add("islands");
    if (scripts.admin.has(path)) parts.add("admin");
  }
  return parts;
}

/** 16 hex digits naming the build the inputs under `root` give. */
export async function buildInputsHash(root: URL): Promise<string> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [encoder.encode(`deno ${Deno.version.deno}\0`)];
  for (const path of await buildInputs(root)) {
    parts.push(encoder.encode(`${path}\0`));
    try {
      parts.push(await Deno.readFile(new URL(path, root)));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      parts.push(encoder.encode("(none)"));
    }
    parts.push(encoder.encode("\0"));
  }
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return encodeHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 16);
}
