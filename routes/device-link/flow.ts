/**
 * A browser confirmed by mail, for an account that failed sign-ins from elsewhere hold back: a
 * request is answered the same whatever the address, and its mail is sent after the answer; the
 * link, spent once within 15 minutes, makes the browser that opens it one the account knows.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { parseWith } from "../../server/validate.ts";
import { clientAddress } from "../../server/request.ts";
import { addressBucket } from "../../server/throttle.ts";
import { afterAnswer } from "../../server/mail.ts";
import { rememberDevice } from "../../server/sign-in.ts";
import type { AdminRecord } from "../../kv/schemas.ts";
import { DEVICE_LINK_MINUTES, DEVICE_LINK_REQUESTS_PER_HOUR } from "../../kv/device-links.ts";
import { alertEmail } from "../alerts/request.ts";
import { publicOrigin } from "../pages.tsx";
import { deviceLinkMail } from "./mail.tsx";

/** What every request is answered, whether a mail goes out or not. */
export const LINK_REQUESTED = "If that address belongs to an admin, a link that confirms this " +
  `browser is on its way. Open it here, in this browser, within ${DEVICE_LINK_MINUTES} minutes.`;
export const LINK_DONE = "This browser is confirmed. Sign in with your password.";
export const LINK_UNKNOWN =
  "This link is not valid: it was already used, or it has expired. Ask for a new one on the " +
  "sign-in page.";

const requestInput = z.object({ email: alertEmail });

/**
 * Validates a request and mails a link when the address is an active admin's; 429 past the
 * client's allowance.
 */
export async function requestDeviceLink(
  services: Services,
  c: Context<AppEnv>,
  body: unknown,
): Promise<void> {
  const { email } = parseWith(requestInput, body);
  const { count } = await services.deviceLinks.countRequest(addressBucket(clientAddress(c)));
  if (count > DEVICE_LINK_REQUESTS_PER_HOUR) {
    fail(429, "Too many requests for a link from this network. Try again in an hour.", {}, {
      "retry-after": "3600",
    });
  }
  const admin = await services.admins.getByEmail(email);
  if (!admin?.isActive) return;
  const site = publicOrigin(services.config, c.req.url);
  // After the answer, the link's writes too: a known address is answered as quickly as any other.
  afterAnswer(mailLink(services, admin, site));
}

async function mailLink(services: Services, admin: AdminRecord, site: string): Promise<void> {
  try {
    const token = await services.deviceLinks.issue(admin._id);
    if (!token) return;
    const link = `${site}/admin/confirm-browser?token=${encodeURIComponent(token)}`;
    await services.mailer.send(deviceLinkMail(admin, link));
  } catch (error) {
    console.error(
      `Sending a browser confirmation mail failed: ${
        error instanceof Error ? error.message : error
      }`,
    );
  }
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
