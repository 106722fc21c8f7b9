/** The public pages (issue 4): `/`, `/jobs`, `/jobs/{id}`, feeds, and the redirect of other paths. */
import { Hono } from "hono";
import type { AppEnv, Services } from "../server/context.ts";

export function publicPages(_services: Services) {
  const app = new Hono<AppEnv>();
  app.get("*", (c) => c.redirect("/"));
  return app;
}
