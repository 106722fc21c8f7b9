/**
 * What the admin app downloads before its first screen: admin/main.js, the chunks it imports
 * statically, and the lazily loaded chunk of the screen shown first, gzipped as sent over the wire.
 * Dynamic imports are not followed: they load later, when a screen or a chart needs them.
 */
const dist = new URL("../../client/dist/", import.meta.url);

const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** The built file named like `dashboard-*.js` (esbuild names lazy chunks after their module). */
export async function chunkNamed(module: string): Promise<string> {
  for await (const entry of Deno.readDir(dist)) {
    if (entry.name.startsWith(`${module}-`) && entry.name.endsWith(".js")) return entry.name;
  }
  throw new Error(`no ${module}-*.js in client/dist: run deno task build`);
}

export interface Download {
  /** Files under client/dist, such as `admin/main.js` and `chunk-ABC.js`. */
  files: string[];
  gzipBytes: number;
}

/**
 * `entries` and everything they import statically, each file counted once; files the browser
 * already holds (`loaded`, as listed in another Download) are neither counted nor followed.
 */
export async function staticDownload(entries: string[], loaded: string[] = []): Promise<Download> {
  const seen = new Set<string>(loaded.map((file) => new URL(file, dist).href));
  const skipped = seen.size;
  const queue = entries.map((entry) => new URL(entry, dist));
  let gzipBytes = 0;
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    const content = await Deno.readFile(url);
    gzipBytes += await gzipSize(content);
    for (const match of new TextDecoder().decode(content).matchAll(STATIC_IMPORT)) {
      queue.push(new URL(match[1], url));
    }
  }
  return { files: [...seen].slice(skipped).map((href) => href.slice(dist.href.length)), gzipBytes };
}

/** The first screen for a signed-out visitor (sign-in) and for a signed-in admin (dashboard). */
export async function firstScreens(): Promise<Record<"login" | "dashboard", Download>> {
  return {
    login: await staticDownload(["admin/main.js"]),
    dashboard: await staticDownload(["admin/main.js", await chunkNamed("dashboard")]),
  };
}
