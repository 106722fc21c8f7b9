/**
 * `/api/admin`: sign-in, profile and (main admin only) account management and job alert totals.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { timingSafeEqual } from "node:crypto";
import type { AppEnv, Services } from "../../server/context.ts";
import { requireAdmin } from "../../server/auth.ts";
import { fail } from "../../server/errors.ts";
import { clientAddress } from "../../server/request.ts";
import { auditOf } from "../../server/audit.ts";
import { limitBody, parseQuery, parseWith, readJson, wholeNumber } from "../../server/validate.ts";
import { periodDays } from "../../kv/days.ts";
import { DECOY_HASH, hashPassword } from "../../server/passwords.ts";
import { requireGoodPassword } from "../../server/password-policy.ts";
import {
  checkPassword,
  knownBrowser,
  rememberDevice,
  requireCurrentPassword,
} from "../../server/sign-in.ts";
import { twoFactorProof } from "./two-factor.ts";
import { publicAdmin } from "../../kv/admins.ts";
import { ALL_PERMISSIONS, PERMISSIONS } from "../../kv/permissions.ts";
import {
  type AdminRecord,
  adminStatusSchema,
  createMainAdminSchema,
  loginSchema,
  type Permission,
  permissionsSchema,
  registerAdminSchema,
  updateProfileSchema,
} from "../../kv/schemas.ts";
import { DEFAULT_ANALYTICS_PERIOD, MAX_REPORT_DAYS, TOTP_DIGITS } from "../../kv/constants.ts";

const tooLarge = limitBody(64);

function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use(tooLarge);
  app.post("/create-main-admin", createMainAdmin(services));
  app.post("/login", login(services));
  app.post("/logout", requireAdmin(services), async (c) => {
    await services.sessions.end(c.get("sessionId"), auditOf(c, services));
    return c.json({ message: "Logged out successfully" });
  });
  profileCalls(app, services);
  accountCalls(app, services);
  return app;
}

/** `POST /create-main-admin`: the first account, for whoever holds the main-admin secret. */
function createMainAdmin(services: Services) {
  const { admins, auth, throttle } = services;
  return async (c: Context<AppEnv>) => {
    const body = parseWith(createMainAdminSchema, await readJson(c));
    // Once a main admin exists the secret is never compared, so this call tells nothing about it.
    if (await admins.hasMainAdmin()) fail(409, "Main admin already exists");
    const attempt = await throttle.attempt(null, clientAddress(c));
    if (!sameSecret(body.secretKey, await auth.mainAdminSecret())) {
      fail(403, "Invalid secret key");
    }
    await attempt.succeeded();
    await requireGoodPassword(body.password, body);
    // Nobody is signed in yet: the record names the one who held the main-admin secret.
    const setup = services.activity.by({ id: null, name: body.username }, clientAddress(c));
    const result = await admins.create({
      username: body.username,
      email: body.email,
      passwordHash: await hashPassword(body.password, services.passwordHashing),
      role: "main_admin",
      permissions: ALL_PERMISSIONS,
    }, setup);
    if (!result.ok) {
      fail(
        409,
        result.reason === "main_exists"
          ? "Main admin already exists"
          : "An admin with this email already exists",
      );
    }
    return c.json(
      { message: "Main admin created successfully", admin: publicAdmin(result.admin) },
      201,
    );
  };
}

/**
 * `POST /login`: the password (and the two-factor code where the account has it on) for a token;
 * failures are recorded, throttled and answered alike.
 */
function login(services: Services) {
  const { admins, auth, now } = services;
  return async (c: Context<AppEnv>) => {
    const { email, password, totp } = parseWith(loginSchema, await readJson(c));
    const admin = await admins.getByEmail(email);
    const device = admin ? await knownBrowser(c, services, admin._id) : null;
    // The code is checked before the password: a right one lets the owner in while guessers
    // elsewhere hold the account back, and tells nothing about the password. Codes from browsers
    // the account does not know are counted over all addresses first, so that way in is no
    // unbounded guess of the code either.
    const asked = admin?.twoFactor?.enabled && totp ? { twoFactor: admin.twoFactor, totp } : null;
    const codeTry = asked && device === null ? await services.throttle.codeAttempt(email) : null;
    const spend = asked ? await twoFactorProof(asked.twoFactor, asked.totp, now()) : null;
    if (spend) await codeTry?.succeeded();
    // An unknown e-mail still pays for a hash in the same queue, so its timing tells nothing.
    const { matches, attempt } = await checkPassword(
      c,
      services,
      { email, adminId: admin?._id ?? null, secondFactor: spend !== null, device },
      password,
      admin?.passwordHash ?? DECOY_HASH,
    );
    // A deactivated account's right password is answered as a wrong one: it tells nobody that
    // they guessed it.
    if (!admin || !matches || !admin.isActive) {
      const actor = { id: admin?._id ?? null, name: admin?.username ?? "unknown" };
      await services.activity.record(
        services.activity.by(actor, clientAddress(c)),
        "auth.sign_in_failed",
        admin ? { kind: "admin", id: admin._id, label: admin.username } : null,
        // What a stranger typed is kept only when it names an account.
        admin ? { email } : null,
      );
      fail(401, "Invalid email or password");
    }
    if (admin.twoFactor?.enabled) {
      if (!totp) {
        // The password was right: asking for the code costs the owner no attempt.
        await attempt.cancelled();
        fail(401, `Enter the ${TOTP_DIGITS}-digit code from your authenticator app`, {
          totpRequired: true,
        });
      }
      if (!spend) await wrongCode(services, c, admin, email);
    }
    // The session starts in the sign-in's own write, checked against the account as it is then:
    // a password or e-mail changed (a reset, a profile update) or an account deactivated while
    // the old password was being checked lets nobody in, since the session would start after
    // that change ended every other; and of two sign-ins racing with one code only the first to
    // commit gets in, as the code is spent in the same write.
    const session = auth.newSession(admin._id);
    let codeRefused = false;
    const updated = await admins.update(admin._id, (current) => {
      codeRefused = false;
      const checked = current.passwordHash === admin.passwordHash &&
        current.email === admin.email && current.isActive;
      if (!checked) return null;
      const lastLogin = now().toISOString();
      if (!spend) return { lastLogin };
      const twoFactor = current.twoFactor && spend(current.twoFactor);
      codeRefused = !twoFactor;
      return twoFactor ? { lastLogin, twoFactor } : null;
    }, {
      audit: services.activity.by({ id: admin._id, name: admin.username }, clientAddress(c)),
      action: "auth.sign_in",
      guard: (op) => {
        session.startIn(op);
        return Promise.resolve(true);
      },
    });
    if (!updated.ok) {
      if (codeRefused) await wrongCode(services, c, admin, email);
      fail(401, "Invalid email or password");
    }
    await attempt.succeeded();
    await rememberDevice(c, services, admin._id);
    const token = await session.token(updated.admin);
    return c.json({ message: "Login successful", token, admin: publicAdmin(updated.admin) });
  };
}

/** Records a sign-in refused for its two-factor code and answers so. */
async function wrongCode(
  services: Services,
  c: Context<AppEnv>,
  admin: AdminRecord,
  email: string,
): Promise<never> {
  await services.activity.record(
    services.activity.by({ id: admin._id, name: admin.username }, clientAddress(c)),
    "auth.sign_in_failed",
    { kind: "admin", id: admin._id, label: admin.username },
    { email, reason: "wrong two-factor code" },
  );
  fail(401, "That code is not right. Enter the code your app shows now, or a recovery code.", {
    totpRequired: true,
  });
}

/** The signed-in admin's own profile: reading it, and changing name, e-mail or password. */
function profileCalls(app: Hono<AppEnv>, services: Services) {
  const { admins, sessions } = services;
  app.get("/profile", requireAdmin(services), (c) => c.json(c.get("admin")));

  app.put("/profile", requireAdmin(services), async (c) => {
    const body = parseWith(updateProfileSchema, await readJson(c));
    const current = await admins.get(c.get("admin")._id);
    if (!current) fail(401, "Please sign in to continue");
    // The current password guards what signs in (e-mail, password); it is throttled as sign-in is,
    // so a stolen session cannot be used to guess it.
    if (body.currentPassword !== undefined) {
      await (await requireCurrentPassword(c, services, current, body.currentPassword)).succeeded();
    }
    if (body.password) {
      await requireGoodPassword(body.password, {
        username: body.username ?? current.username,
        email: body.email ?? current.email,
      });
    }
    const passwordHash = body.password
      ? await hashPassword(body.password, services.passwordHashing)
      : undefined;
    const newEmail = body.email !== undefined && body.email !== current.email;
    const result = await admins.update(current._id, () => ({
      ...(body.username ? { username: body.username } : {}),
      ...(body.email ? { email: body.email } : {}),
      ...(passwordHash ? { passwordHash } : {}),
    }), {
      audit: auditOf(c, services),
      action: "profile.update",
      // Mailed reset links end with the password (or mailbox) they were sent for, in its write.
      guard: async (op) => {
        if (passwordHash || newEmail) await services.passwordResets.spendAllIn(op, current._id);
        return true;
      },
    });
    if (!result.ok) {
      fail(
        result.reason === "email_taken" ? 409 : 404,
        result.reason === "email_taken"
          ? "An admin with this email already exists"
          : "Admin not found",
      );
    }
    // A new password or e-mail ends every other session: whoever knew the old ones is signed out.
    if (passwordHash || result.admin.email !== current.email) {
      await sessions.endAllOf(current._id, c.get("sessionId"));
    }
    return c.json({ message: "Profile updated successfully", admin: publicAdmin(result.admin) });
  });
}

/** The main admin's calls: the other accounts, their status and permissions, alert totals. */
function accountCalls(app: Hono<AppEnv>, services: Services) {
  const { admins, sessions } = services;
  const mainOnly = requireAdmin(services, "main_admin");

  /** Job alert totals: confirmed alerts now, and per day what was sent; never an address. */
  app.get("/alerts", mainOnly, async (c) => {
    const { days } = parseQuery(
      c,
      z.object({ days: wholeNumber(1, MAX_REPORT_DAYS, DEFAULT_ANALYTICS_PERIOD) }),
    );
    return c.json(await services.alerts.totals(periodDays(services.alerts.day(), days)));
  });

  app.get("/all", mainOnly, async (c) => {
    return c.json({ admins: (await admins.list()).map(publicAdmin) });
  });

  app.post("/register", mainOnly, async (c) => {
    const body = parseWith(registerAdminSchema, await readJson(c));
    await requireGoodPassword(body.password, body);
    const result = await admins.create({
      username: body.username,
      email: body.email,
      passwordHash: await hashPassword(body.password, services.passwordHashing),
      role: "admin",
      permissions: body.permissions,
    }, auditOf(c, services));
    if (!result.ok) fail(409, "An admin with this email already exists");
    return c.json({ message: "Admin created successfully", admin: publicAdmin(result.admin) }, 201);
  });

  app.put("/:id/status", mainOnly, async (c) => {
    const { isActive } = parseWith(adminStatusSchema, await readJson(c));
    const target = await admins.get(c.req.param("id"));
    if (!target) fail(404, "Admin not found");
    if (target.role === "main_admin") fail(403, "The main admin cannot be deactivated");
    const result = await admins.update(target._id, () => ({ isActive }), {
      audit: auditOf(c, services),
      action: isActive ? "admin.activate" : "admin.deactivate",
    });
    if (!result.ok) fail(404, "Admin not found");
    if (!isActive) await sessions.endAllOf(target._id);
    return c.json({
      message: isActive ? "Admin activated successfully" : "Admin deactivated successfully",
      admin: publicAdmin(result.admin),
    });
  });

  app.delete("/:id", mainOnly, async (c) => {
    const target = await admins.get(c.req.param("id"));
    if (!target) fail(404, "Admin not found");
    if (target._id === c.get("admin")._id) fail(403, "You cannot delete your own account");
    if (target.role === "main_admin") fail(403, "The main admin cannot be deleted");
    await admins.delete(target._id, auditOf(c, services));
    await sessions.endAllOf(target._id);
    return c.json({ message: "Admin deleted successfully" });
  });

  // Read with the account on every request (server/auth.ts), so a change holds from the admin's
  // next call, in every process; their screens follow when the portal next reads their profile.
  app.put("/:id/permissions", mainOnly, async (c) => {
    const { permissions } = parseWith(adminPermissionsSchema, await readJson(c));
    const target = await admins.get(c.req.param("id"));
    if (!target) fail(404, "Admin not found");
    if (target._id === c.get("admin")._id) fail(403, "You cannot change your own permissions");
    if (target.role === "main_admin") fail(403, "The main admin's permissions cannot be changed");
    const result = await admins.update(
      target._id,
      (current) => ({ permissions: { ...current.permissions, ...definedFlags(permissions) } }),
      { audit: auditOf(c, services), action: "admin.permissions" },
    );
    if (!result.ok) fail(404, "Admin not found");
    return c.json({
      message: "Permissions updated successfully",
      admin: publicAdmin(result.admin),
    });
  });
}

const adminPermissionsSchema = z.object({
  permissions: permissionsSchema.refine(
    (flags) => Object.values(flags).some((value) => value !== undefined),
    `permissions must name at least one of ${PERMISSIONS.join(", ")}`,
  ),
}, { error: "permissions is required" });

/** The flags a body names; a flag left out keeps its value. */
function definedFlags(flags: Partial<Record<Permission, boolean | undefined>>) {
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
}
