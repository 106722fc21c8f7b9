/**
 * What the admin portal downloads before its first screen: the entry, the chunks it imports
 * statically, and the lazily loaded chunk of the screen shown first, gzipped as sent over the wire.
 * Dynamic imports are not followed: they load later, when a screen or a chart needs them.
 */
import { dist, type Download, scriptDownload } from "../helpers/scripts.ts";

/**
 * The admin app's built file named like `admin/dashboard-*.js` (esbuild names lazy chunks after
 * their module; the admin app's files are in admin/).
 */
export async function chunkNamed(module: string): Promise<string> {
  for await (const entry of Deno.readDir(new URL("admin/", dist))) {
    if (entry.name.startsWith(`${module}-`) && entry.name.endsWith(".js")) {
      return `admin/${entry.name}`;
    }
  }
  throw new Error(`no admin/${module}-*.js in client/dist: run deno task build`);
}

/**
 * The first screen for a signed-out visitor (the sign-in page's own entry; the form's code loads
 * when the form is first used) and for a signed-in admin (the portal and its dashboard).
 */
export async function firstScreens(): Promise<Record<"login" | "dashboard", Download>> {
  return {
    login: await scriptDownload(["admin/login.js"]),
    dashboard: await scriptDownload(["admin/main.js", await chunkNamed("dashboard")]),
  };
}
