/**
 * What the admin app downloads before its first screen: admin/main.js, the chunks it imports
 * statically, and the lazily loaded chunk of the screen shown first, gzipped as sent over the wire.
 * Dynamic imports are not followed: they load later, when a screen or a chart needs them.
 */
import { dist, type Download, scriptDownload } from "../helpers/scripts.ts";

/** The built file named like `dashboard-*.js` (esbuild names lazy chunks after their module). */
export async function chunkNamed(module: string): Promise<string> {
  for await (const entry of Deno.readDir(dist)) {
    if (entry.name.startsWith(`${module}-`) && entry.name.endsWith(".js")) return entry.name;
  }
  throw new Error(`no ${module}-*.js in client/dist: run deno task build`);
}

/** The first screen for a signed-out visitor (sign-in) and for a signed-in admin (dashboard). */
export async function firstScreens(): Promise<Record<"login" | "dashboard", Download>> {
  return {
    login: await scriptDownload(["admin/main.js"]),
    dashboard: await scriptDownload(["admin/main.js", await chunkNamed("dashboard")]),
  };
}
