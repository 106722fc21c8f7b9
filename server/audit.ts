/** The activity log's view of a request: the signed-in admin (name at the time) and the address. */
import type { Context } from "hono";
import type { AppEnv, Services } from "./context.ts";
import type { Audit } from "../kv/activity.ts";
import { clientAddress } from "./request.ts";

export function auditOf(c: Context<AppEnv>, services: Services): Audit {
  const admin = c.get("admin");
  return services.activity.by({ id: admin._id, name: admin.username }, clientAddress(c));
}
