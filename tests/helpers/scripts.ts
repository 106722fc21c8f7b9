/**
 * What the browser downloads for some built entry scripts: each file in client/dist they import,
 * counted once, gzipped as a server or CDN would send it. The public pages' and the admin app's
 * bundle budgets are both measured with it.
 */
import { relativeImports } from "../../server/imports.ts";
import { servedBuild } from "../../server/dist.ts";

/** The current build's folder in client/dist. */
export const dist = servedBuild();

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

export interface Download {
  /** Files under client/dist, such as `admin/main.js` and `chunk-ABC.js`. */
  files: string[];
  bytes: number;
  gzipBytes: number;
}

/**
 * `entries` (names under client/dist) and everything they import statically, and dynamically too
 * when `dynamic`; files the browser already holds (`loaded`, as listed in another Download) are
 * neither counted nor followed.
 */
export async function scriptDownload(
  entries: string[],
  { dynamic = false, loaded = [] }: { dynamic?: boolean; loaded?: string[] } = {},
): Promise<Download> {
  const seen = new Set<string>(loaded.map((file) => new URL(file, dist).href));
  const skipped = seen.size;
  const queue = entries.map((entry) => new URL(entry, dist));
  let bytes = 0;
  let gzipBytes = 0;
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    const content = await Deno.readFile(url);
    bytes += content.byteLength;
    gzipBytes += await gzipSize(content);
    const text = new TextDecoder().decode(content);
    for (const specifier of relativeImports(text, dynamic)) queue.push(new URL(specifier, url));
  }
  const files = [...seen].slice(skipped).map((href) => href.slice(dist.href.length));
  return { files, bytes, gzipBytes };
}
