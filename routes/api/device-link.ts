/**
 * `POST /api/admin/device-link {email}`: 202 with the same body for any address; a known active
 * admin is mailed a link that confirms a browser (routes/device-link/).
 */
import { Hono } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody, readJson } from "../../server/validate.ts";
import { LINK_REQUESTED, requestDeviceLink } from "../device-link/flow.ts";

export function deviceLinkRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use(limitBody(8));
  app.post("/", async (c) => {
    await requestDeviceLink(services, c, await readJson(c));
    return c.json({ message: LINK_REQUESTED }, 202);
  });
  return app;
}
