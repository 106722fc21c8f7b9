/**
 * Where the built browser assets live. client/dist holds one folder per build, named by a hash of
 * the build's inputs, and a file `current` naming the one to serve. A build is written beside,
 * renamed into place whole and never changed after; `current` is replaced by a rename. A server
 * reads `current` once and serves that folder for its whole life, holding a shared lock on the
 * folder's manifest: a later build removes an old folder only when it can lock it alone, so never
 * one a running process serves.
 */
export const distRoot = new URL("../client/dist/", import.meta.url);
export const CURRENT = "current";
export const MANIFEST = "manifest.json";

/** The build `current` names, or null when there is none. */
export function currentBuild(): string | null {
  try {
    return Deno.readTextFileSync(new URL(CURRENT, distRoot)).trim() || null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

let served: { folder: URL; manifest: Deno.FsFile } | null = null;

/**
 * The folder of the build this process serves (a URL ending in `/`): the current one when first
 * asked, then the same for the life of the process.
 */
export function servedBuild(): URL {
  // A build swapping `current` and removing the folder it named between the reads below is
  // seen as that folder missing; the next round reads the new `current`.
  for (let round = 0; !served && round < 10; round++) {
    const id = currentBuild();
    if (!id) break;
    const folder = new URL(`${id}/`, distRoot);
    const manifestUrl = new URL(MANIFEST, folder);
    let manifest: Deno.FsFile;
    try {
      manifest = Deno.openSync(manifestUrl);
    } catch {
      continue;
    }
    if (!lockShared(manifest) || !exists(manifestUrl)) {
      manifest.close();
      continue;
    }
    served = { folder, manifest };
  }
  if (!served) throw new Error("client/dist is missing: run `deno task build` first");
  return served.folder;
}

/** False while a build holds the file alone (it is removing the folder). */
function lockShared(file: Deno.FsFile): boolean {
  try {
    return file.tryLockSync(false);
  } catch {
    // A file system without locks is one nothing builds on (Deno Deploy's): nothing to guard.
    return true;
  }
}

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/** What the share image is drawn with, copied into each build (paths within its folder). */
export const SHARE_IMAGE_FILES = {
  folder: "share-image",
  wasm: "share-image/resvg.wasm",
  regular: "share-image/DejaVuSans.ttf",
  bold: "share-image/DejaVuSans-Bold.ttf",
};
