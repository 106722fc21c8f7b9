/** `/api/analytics`: the reports of issue 3. */
import { Hono } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";

export function analyticsRoutes(_services: Services) {
  return new Hono<AppEnv>();
}
