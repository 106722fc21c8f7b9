/**
 * How much JavaScript a public page loads: its island entries and every chunk they import,
 * statically or dynamically, each counted once, gzipped as a server or CDN would send it.
 */
const dist = new URL("../../client/dist/", import.meta.url);

const IMPORT =
  /(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

export interface ScriptWeight {
  files: string[];
  bytes: number;
  gzipBytes: number;
}

/** `entries` are manifest names such as `islands/apply.js`. */
export async function scriptWeight(entries: string[]): Promise<ScriptWeight> {
  const seen = new Set<string>();
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
    for (const match of new TextDecoder().decode(content).matchAll(IMPORT)) {
      queue.push(new URL(match[1] ?? match[2], url));
    }
  }
  return { files: [...seen].map((href) => href.slice(dist.href.length)), bytes, gzipBytes };
}

/** The island bundles a page's HTML loads, read from its module script tags. */
export function islandEntries(html: string): string[] {
  return [...html.matchAll(/<script type="module" src="\/assets\/([^"?]+)/g)].map((m) => m[1]);
}
