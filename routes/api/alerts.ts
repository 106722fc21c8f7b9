/** `POST /api/alerts`: asks for an e-mail job alert; 202 with the same body whatever follows. */
import { Hono } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody, readJson } from "../../server/validate.ts";
import { ALERT_REQUESTED, requestAlert } from "../alerts/request.ts";

export function alertApiRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.post("/", limitBody(8), async (c) => {
    await requestAlert(services, c, await readJson(c));
    c.header("cache-control", "no-store");
    return c.json({ message: ALERT_REQUESTED }, 202);
  });
  return app;
}
