/**
 * `POST /api/admin/password-reset {email}`: 202 with the same body for any address;
 * `POST /api/admin/password-reset/confirm {token, password}`: sets the password.
 */
import { Hono } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody, readJson } from "../../server/validate.ts";
import { confirmReset, requestReset, RESET_REQUESTED } from "../password-reset/flow.ts";

export function passwordResetRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use(limitBody(8));
  app.post("/", async (c) => {
    await requestReset(services, c, await readJson(c));
    return c.json({ message: RESET_REQUESTED }, 202);
  });
  app.post("/confirm", async (c) => {
    return c.json(await confirmReset(services, c, await readJson(c)));
  });
  return app;
}
