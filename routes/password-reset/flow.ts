/**
 * Password reset by mail, from the API and from the pages' forms alike. A request is answered the
 * same whatever the address, and its mail is sent after the answer; a link sets the password once,
 * within `RESET_LINK_MINUTES`, under the password policy, and ends every session of the admin.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { parseWith } from "../../server/validate.ts";
import { clientAddress } from "../../server/request.ts";
import { hashPassword } from "../../server/passwords.ts";
import { requireGoodPassword } from "../../server/password-policy.ts";
import { newPassword } from "../../kv/schemas.ts";
import { RESET_LINK_MINUTES, RESET_REQUESTS_PER_HOUR } from "../../kv/constants.ts";
import { requestMailedLink } from "../mailed-link.ts";
import { resetMail } from "./mail.tsx";

/** What every request is answered, whether a mail goes out or not. */
export const RESET_REQUESTED =
  "If that address belongs to an admin, a link to reset the password is on its way.";
export const RESET_DONE = "Password changed. Sign in with your new password.";
/**
 * Said after a reset of an account with two-factor sign-in, which stays on: the link proves the
 * mailbox, not the device.
 */
export const RESET_KEEPS_TWO_FACTOR = "Two-factor sign-in stays on: you still need the code " +
  "from your authenticator app, or one of your recovery codes. Lost both? Ask the main admin to " +
  "turn two-factor sign-in off for your account.";
export const RESET_EXPIRED = `This link has expired: a link to reset the password works for ` +
  `${RESET_LINK_MINUTES} minutes. Ask for a new one.`;
export const RESET_UNKNOWN =
  "This link is not valid: it was already used, or it has expired. Ask for a new one.";
const confirmInput = z.object({
  token: z.string({ error: "token is required" }).min(1, "token is required").max(
    100,
    "token is too long",
  ),
  password: newPassword,
});

/** Validates a request and mails a link when the address is an active admin's. */
export function requestReset(
  services: Services,
  c: Context<AppEnv>,
  body: unknown,
): Promise<void> {
  return requestMailedLink(services, c, body, {
    store: services.passwordResets,
    requestsPerHour: RESET_REQUESTS_PER_HOUR,
    tooMany: "Too many password reset requests from this network. Try again in an hour.",
    path: "/admin/reset-password",
    mail: resetMail,
    name: "password reset",
  });
}

/** Checks that a link still works, for the page that sets the password; 400 with why not. */
export async function requireLiveLink(services: Services, token: string): Promise<void> {
  const found = await services.passwordResets.lookUp(token);
  if (found.state !== "live") fail(400, found.state === "expired" ? RESET_EXPIRED : RESET_UNKNOWN);
}

/**
 * Sets the password of the link's admin, spends the link and ends every session; 400 with why not.
 * Answers what the admin is told: the two-factor note when it is on.
 */
export async function confirmReset(
  services: Services,
  c: Context<AppEnv>,
  body: unknown,
): Promise<{ message: string; twoFactor?: string }> {
  const { token, password } = parseWith(confirmInput, body);
  const { passwordResets, admins, sessions } = services;
  const found = await passwordResets.lookUp(token);
  if (found.state !== "live") fail(400, found.state === "expired" ? RESET_EXPIRED : RESET_UNKNOWN);
  const admin = await admins.get(found.reset.adminId);
  if (!admin?.isActive) fail(400, RESET_UNKNOWN);
  await requireGoodPassword(password, admin);
  const passwordHash = await hashPassword(password, services.passwordHashing);
  const result = await admins.update(admin._id, () => ({ passwordHash }), {
    audit: services.activity.by({ id: admin._id, name: admin.username }, clientAddress(c)),
    action: "auth.password_reset",
    guard: (op) => passwordResets.spendIn(op, admin._id, found.hash),
  });
  if (!result.ok) fail(400, RESET_UNKNOWN);
  // Whoever knew the old password is signed out everywhere.
  await sessions.endAllOf(admin._id);
  return result.admin.twoFactor?.enabled
    ? { message: RESET_DONE, twoFactor: RESET_KEEPS_TWO_FACTOR }
    : { message: RESET_DONE };
}
