/**
 * A browser confirmed by mail, for an account that failed sign-ins from elsewhere hold back: a
 * request is answered the same whatever the address, and its mail is sent after the answer; the
 * link, spent once within `DEVICE_LINK_MINUTES`, makes the browser that opens it one the account
 * knows.
 */
import type { Context } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { clientAddress } from "../../server/request.ts";
import { rememberDevice } from "../../server/sign-in.ts";
import { DEVICE_LINK_MINUTES, DEVICE_LINK_REQUESTS_PER_HOUR } from "../../kv/constants.ts";
import { requestMailedLink } from "../mailed-link.ts";
import { deviceLinkMail } from "./mail.tsx";

/** What every request is answered, whether a mail goes out or not. */
export const LINK_REQUESTED = "If that address belongs to an admin, a link that confirms this " +
  `browser is on its way. Open it here, in this browser, within ${DEVICE_LINK_MINUTES} minutes.`;
export const LINK_DONE = "This browser is confirmed. Sign in with your password.";
export const LINK_UNKNOWN =
  "This link is not valid: it was already used, or it has expired. Ask for a new one on the " +
  "sign-in page.";

/** Validates a request and mails a link when the address is an active admin's. */
export function requestDeviceLink(
  services: Services,
  c: Context<AppEnv>,
  body: unknown,
): Promise<void> {
  return requestMailedLink(services, c, body, {
    store: services.deviceLinks,
    requestsPerHour: DEVICE_LINK_REQUESTS_PER_HOUR,
    tooMany: "Too many requests for a link from this network. Try again in an hour.",
    path: "/admin/confirm-browser",
    mail: deviceLinkMail,
    name: "browser confirmation",
  });
}

/**
 * Spends a link and makes the browser one its admin signed in from, recorded in the activity log:
 * the device cookie the answer sets. 400 when the link does not work.
 */
export async function confirmDevice(
  services: Services,
  c: Context<AppEnv>,
  token: string,
): Promise<string> {
  const adminId = await services.deviceLinks.spend(token);
  const admin = adminId ? await services.admins.get(adminId) : null;
  if (!admin?.isActive) fail(400, LINK_UNKNOWN);
  const cookie = await rememberDevice(c, services, admin._id);
  await services.activity.record(
    services.activity.by({ id: admin._id, name: admin.username }, clientAddress(c)),
    "auth.browser_confirmed",
    { kind: "admin", id: admin._id, label: admin.username },
    null,
  );
  return cookie;
}
