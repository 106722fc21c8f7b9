/**
 * The Hono app factory. It takes its dependencies, so tests call `app.request()` on an in-memory KV
 * with no network, and main.ts serves the same app.
 */
import { Hono } from "hono";
import type { Config } from "./config.ts";
import type { AppEnv, Services } from "./context.ts";
import { JobStore } from "../kv/jobs.ts";
import { onError } from "./errors.ts";
import { securityHeaders } from "./security.ts";
import { assetRoutes } from "./assets.ts";
import { jobRoutes } from "../routes/api/jobs.ts";

export interface AppDeps {
  kv: Deno.Kv;
  config: Config;
  now?: () => Date;
}

export function createServices({ kv, config, now = () => new Date() }: AppDeps): Services {
  return { kv, config, now, jobs: new JobStore(kv, now) };
}

export function createApp(deps: AppDeps | Services) {
  const services = "jobs" in deps ? deps : createServices(deps);
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.use(securityHeaders);

  const api = new Hono<AppEnv>();
  api.route("/jobs", jobRoutes(services));
  api.all("/*", (c) => c.json({ message: "Not found" }, 404));
  app.route("/api", api);

  app.route("/assets", assetRoutes());
  return app;
}
