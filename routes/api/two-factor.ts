/**
 * `/api/admin/profile/totp` and `/api/admin/settings/two-factor`: an admin turns two-factor
 * sign-in on (a secret, then a first code, then its recovery codes) and off (the password and a
 * code); the main admin can require it of every admin and turn it off for one who lost their
 * authenticator.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { requireAdmin } from "../../server/auth.ts";
import { fail } from "../../server/errors.ts";
import { auditOf } from "../../server/audit.ts";
import { limitBody, parseWith, readJson } from "../../server/validate.ts";
import { requireCurrentPassword } from "../../server/sign-in.ts";
import { TOTP_DIGITS } from "../../kv/constants.ts";
import {
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  recoveryCodeHash,
} from "../../server/totp.ts";
import { publicAdmin } from "../../kv/admins.ts";
import type { AdminRecord, TwoFactor } from "../../kv/schemas.ts";

const codeSchema = z.object({
  code: z.string({ error: "Code is required" }).trim().min(1, "Code is required").max(64),
});
/** Turning two-factor sign-in on or off: a stolen session alone must not do either. */
const codeAndPasswordSchema = codeSchema.extend({
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1_024),
});
const requireSchema = z.object({
  required: z.boolean({ error: "required must be true or false" }),
});

/**
 * How a code that was accepted changes the stored two-factor state, so it works only once: given
 * the state as it is when the sign-in is written, the state after it, or null when another write
 * spent the code (or a later step) first.
 */
export type Spend = (current: TwoFactor) => TwoFactor | null;

/**
 * Checks `code` for an admin with two-factor sign-in on: a current authenticator code (its step
 * may not be used again) or an unused recovery code (used up). Null when it is neither.
 */
export async function twoFactorProof(
  twoFactor: TwoFactor,
  code: string,
  now: Date,
): Promise<Spend | null> {
  const digits = code.replace(/\s/g, "");
  const step = await matchingStep(twoFactor.secret, digits, now, twoFactor.lastStep);
  const sameSecret = (current: TwoFactor) => current.enabled && current.secret === twoFactor.secret;
  if (step !== null) {
    return (current) =>
      sameSecret(current) && current.lastStep < step ? { ...current, lastStep: step } : null;
  }
  const hash = await recoveryCodeHash(code);
  if (!twoFactor.recoveryCodes.includes(hash)) return null;
  return (current) =>
    sameSecret(current) && current.recoveryCodes.includes(hash)
      ? { ...current, recoveryCodes: current.recoveryCodes.filter((kept) => kept !== hash) }
      : null;
}

export function twoFactorRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use(limitBody(64));
  ownTwoFactorCalls(app, services);
  mainAdminTwoFactorCalls(app, services);
  return app;
}

/** The signed-in admin's account as stored now. */
async function signedInAdmin(services: Services, id: string): Promise<AdminRecord> {
  const admin = await services.admins.get(id);
  if (!admin) fail(401, "Please sign in to continue");
  return admin;
}

/** An admin's own two-factor sign-in: the set-up, its confirming code, and turning it off. */
function ownTwoFactorCalls(app: Hono<AppEnv>, services: Services) {
  const { admins, now } = services;
  const signedIn = requireAdmin(services);

  app.post("/profile/totp", signedIn, async (c) => {
    const admin = await signedInAdmin(services, c.get("admin")._id);
    if (admin.twoFactor?.enabled) fail(409, "Two-factor sign-in is already on");
    const secret = newTotpSecret();
    const twoFactor: TwoFactor = { secret, enabled: false, recoveryCodes: [], lastStep: 0 };
    const result = await admins.update(admin._id, () => ({ twoFactor }));
    if (!result.ok) fail(404, "Admin not found");
    return c.json({ secret, otpauthUrl: otpauthUrl(secret, admin.email) });
  });

  app.post("/profile/totp/confirm", signedIn, async (c) => {
    const { code, password } = parseWith(codeAndPasswordSchema, await readJson(c));
    const admin = await signedInAdmin(services, c.get("admin")._id);
    const pending = admin.twoFactor;
    if (!pending || pending.enabled) {
      fail(409, pending ? "Two-factor sign-in is already on" : "Start the set-up first");
    }
    // Whoever turns it on holds the second factor from then on: with a stolen session alone, an
    // attacker would lock the owner out (and a main admin for good, as nobody can lift theirs).
    const attempt = await requireCurrentPassword(c, services, admin, password);
    const step = await matchingStep(pending.secret, code.replace(/\s/g, ""), now(), 0);
    if (step === null) {
      fail(400, `That code is not right. Enter the ${TOTP_DIGITS}-digit code your app shows now.`);
    }
    await attempt.succeeded();
    const recoveryCodes = newRecoveryCodes();
    const twoFactor: TwoFactor = {
      secret: pending.secret,
      enabled: true,
      recoveryCodes: await Promise.all(recoveryCodes.map(recoveryCodeHash)),
      lastStep: step,
    };
    const result = await admins.update(admin._id, () => ({ twoFactor }), {
      audit: auditOf(c, services),
      action: "profile.update",
    });
    if (!result.ok) fail(404, "Admin not found");
    return c.json({
      message: "Two-factor sign-in is on",
      recoveryCodes,
      admin: publicAdmin(result.admin),
    });
  });

  app.delete("/profile/totp", signedIn, async (c) => {
    const { code, password } = parseWith(codeAndPasswordSchema, await readJson(c));
    const admin = await signedInAdmin(services, c.get("admin")._id);
    if (!admin.twoFactor?.enabled) fail(409, "Two-factor sign-in is not on");
    const attempt = await requireCurrentPassword(c, services, admin, password);
    if (!(await twoFactorProof(admin.twoFactor, code, now()))) {
      fail(400, "That code is not right. Enter the code your app shows now, or a recovery code.");
    }
    await attempt.succeeded();
    const result = await admins.update(admin._id, () => ({ twoFactor: undefined }), {
      audit: auditOf(c, services),
      action: "profile.update",
    });
    if (!result.ok) fail(404, "Admin not found");
    return c.json({ message: "Two-factor sign-in is off", admin: publicAdmin(result.admin) });
  });
}

/** The main admin's: lifting one admin's second factor, and requiring it of every admin. */
function mainAdminTwoFactorCalls(app: Hono<AppEnv>, services: Services) {
  const { admins } = services;
  const mainOnly = requireAdmin(services, "main_admin");

  // For an admin who lost their authenticator and their recovery codes: a mailed password reset
  // proves the mailbox, not the device, so only the main admin lifts the second factor.
  app.delete("/:id/two-factor", mainOnly, async (c) => {
    const target = await admins.get(c.req.param("id"));
    if (!target) fail(404, "Admin not found");
    if (target._id === c.get("admin")._id) {
      fail(403, "Turn off your own two-factor sign-in on your profile");
    }
    if (!target.twoFactor?.enabled) fail(409, "Two-factor sign-in is not on for this admin");
    const result = await admins.update(
      target._id,
      (current) => current.twoFactor?.enabled ? { twoFactor: undefined } : null,
      { audit: auditOf(c, services), action: "admin.two_factor_off" },
    );
    if (!result.ok) {
      fail(
        result.reason === "refused" ? 409 : 404,
        result.reason === "refused"
          ? "Two-factor sign-in is not on for this admin"
          : "Admin not found",
      );
    }
    // A session on the lost device ends too: the admin signs in again with their password.
    await services.sessions.endAllOf(target._id);
    return c.json({
      message: `Two-factor sign-in is off for ${target.username}`,
      admin: publicAdmin(result.admin),
    });
  });

  app.get("/settings/two-factor", mainOnly, async (c) => {
    return c.json({ required: await admins.twoFactorRequired() });
  });

  app.put("/settings/two-factor", mainOnly, async (c) => {
    const { required } = parseWith(requireSchema, await readJson(c));
    if (required && !c.get("admin").twoFactorEnabled) {
      fail(409, "Turn on two-factor sign-in for your own account first");
    }
    await admins.requireTwoFactor(required, auditOf(c, services));
    return c.json({
      message: required
        ? "Every admin now needs two-factor sign-in"
        : "Two-factor sign-in is now each admin's choice",
      required,
    });
  });
}
