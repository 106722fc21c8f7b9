/**
 * The islands of the public pages: every component exported by a file in client/islands, found
 * when the server starts, so no list of their names is kept by hand. Each file's browser script is
 * `islands/{file}.js` (server/build.ts makes one per file).
 */
import type { IslandScripts } from "../../client/components/island.tsx";
import { assetImports, assetUrl } from "../../server/assets.ts";

const folder = new URL("../../client/islands/", import.meta.url);
const islands = new Map<unknown, { id: string; file: string }>();
for await (const entry of Deno.readDir(folder)) {
  const file = entry.isFile ? entry.name.match(/^(.+)\.tsx$/)?.[1] : undefined;
  if (!file) continue;
  const module: Record<string, unknown> = await import(new URL(entry.name, folder).href);
  for (const [name, component] of Object.entries(module)) {
    islands.set(component, { id: `${file}:${name}`, file });
  }
}

/**
 * A fresh record for one page render: which scripts that page has written so far. A streamed page
 * gives its response's CSP nonce, which the script tags written after the shell then carry too.
 */
export function islandScripts(nonce?: string): IslandScripts {
  return {
    nonce,
    find(component) {
      const island = islands.get(component);
      if (!island) return undefined;
      const name = `islands/${island.file}.js`;
      return { id: island.id, script: assetUrl(name), imports: assetImports(name) };
    },
    waker: assetUrl("wake.js"),
    written: new Set(),
  };
}
