/**
 * Admin sessions: HS256 JWTs (jose) whose `jti` names a session record in KV. The token alone is
 * never enough: every request also needs the live session and an active account, so logout,
 * deactivation and deletion take effect at once in every process.
 */
import type { MiddlewareHandler } from "hono";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { can, PERMISSION_TABLE } from "../kv/permissions.ts";
import { storedSecret } from "../kv/secrets.ts";
import type { SessionStore } from "../kv/sessions.ts";
import type { AdminRecord, Permission } from "../kv/schemas.ts";
import { SESSION_HOURS } from "../kv/constants.ts";
import type { Config } from "./config.ts";
import type { AppEnv, Services } from "./context.ts";
import { fail } from "./errors.ts";
import { publicAdmin } from "../kv/admins.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../kv/bounded-cache.ts";
import { encodeHex } from "../kv/hex.ts";

const ALGORITHM = "HS256";
const ISSUER = "careeredge";

interface VerifiedClaims {
  sub: string;
  jti: string;
  exp: number;
}

export interface NewSession {
  startIn(op: Deno.AtomicOperation): void;
  /** The token, for the account as the write left it; ends the admin's oldest sessions beyond the limit. */
  token(admin: AdminRecord): Promise<string>;
}

export interface SignedIn {
  admin: AdminRecord;
  sessionId: string;
}

export class Auth {
  private key: Promise<CryptoKey> | null = null;
  /** Verified tokens: a token never changes, so neither does the verdict on its signature. */
  readonly verified = new BoundedCache<VerifiedClaims>(CACHE_BUDGETS.verifiedTokens);

  constructor(
    private kv: Deno.Kv,
    private config: Config,
    private now: () => Date,
    private sessions: SessionStore,
  ) {}

  /** Imported once: importing the raw secret on every request costs more than the check itself. */
  private signingKey(): Promise<CryptoKey> {
    this.key ??= (async () =>
      await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(
          this.config.JWT_SECRET ?? await storedSecret(this.kv, "jwt_secret"),
        ),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign", "verify"],
      ))();
    return this.key;
  }

  /**
   * A keyed hash of `text` under the token-signing secret, for what is only ever compared, never
   * read back (the sign-in throttle's e-mails): without the secret nobody can try a list of values
   * against it. `label` keeps each use's hashes apart from the others' and from tokens' signatures.
   */
  async keyedHash(label: string, text: string): Promise<string> {
    const message = new TextEncoder().encode(`${label}\n${text}`);
    return encodeHex(await crypto.subtle.sign("HMAC", await this.signingKey(), message));
  }

  /** The secret `create-main-admin` asks for: MAIN_ADMIN_SECRET, else one made at first start. */
  mainAdminSecret(): Promise<string> {
    return this.config.MAIN_ADMIN_SECRET
      ? Promise.resolve(this.config.MAIN_ADMIN_SECRET)
      : storedSecret(this.kv, "main_admin_secret");
  }

  /**
   * A new session of `adminId`: `startIn` adds it to the sign-in's own write (see
   * SessionStore.startIn), and `token` signs its token once that write committed.
   */
  newSession(adminId: string): NewSession {
    const jti = crypto.randomUUID();
    const issuedAt = this.now();
    const expiresAt = new Date(issuedAt.getTime() + SESSION_HOURS * 3_600_000);
    return {
      startIn: (op) => this.sessions.startIn(op, jti, adminId, expiresAt),
      token: async (admin) => {
        await this.sessions.endOldest(adminId);
        return await new SignJWT({ role: admin.role })
          .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
          .setSubject(adminId)
          .setJti(jti)
          .setIssuer(ISSUER)
          .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
          .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
          .sign(await this.signingKey());
      },
    };
  }

  /** The admin behind a bearer token, or null for any token that is not a live session. */
  async verify(token: string): Promise<SignedIn | null> {
    if (!token || token.length > 4096) return null;
    const claims = await this.verifiedClaims(token);
    if (!claims || claims.exp * 1000 <= this.now().getTime()) return null;
    const admin = await this.sessions.activeAdmin(claims.jti, claims.sub);
    return admin ? { admin, sessionId: claims.jti } : null;
  }

  /**
   * The claims of a token whose signature, algorithm and issuer check out. A token never changes,
   * so that verdict is remembered; expiry and the session are still checked on every request.
   */
  private async verifiedClaims(token: string): Promise<VerifiedClaims | null> {
    const known = this.verified.get(token, 0);
    if (known) return known;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.signingKey(), {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        requiredClaims: ["exp", "jti", "sub"],
        currentDate: this.now(),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
    const claims = { sub: payload.sub!, jti: payload.jti!, exp: payload.exp! };
    this.verified.set(token, 0, claims, roughBytes(claims));
    return claims;
  }

  /** The signed-in admin of a request's `Authorization: Bearer` header, if any. */
  fromHeader(header: string | undefined): Promise<SignedIn | null> {
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    return match ? this.verify(match[1]) : Promise.resolve(null);
  }
}

/**
 * Whether the main admin requires two-factor sign-in and `admin` has not turned it on: such an
 * admin acts as no admin until they do, wherever a call asks who is signed in.
 */
export async function owesTwoFactor(services: Services, admin: AdminRecord): Promise<boolean> {
  return !admin.twoFactor?.enabled && await services.admins.twoFactorRequired();
}

/** What an admin whose two-factor sign-in is required but not on may still do: set it up. */
const SET_UP_PATHS = /^\/api\/admin\/(profile|profile\/totp|profile\/totp\/confirm|logout)$/;

/**
 * Admits only a signed-in, active admin (401 otherwise) holding `permission` (403 otherwise).
 * `"main_admin"` admits only the main admin. `deniedMessage` replaces the generic 403 text where
 * the specification words it for one action.
 */
export function requireAdmin(
  services: Services,
  permission?: Permission | "main_admin",
  deniedMessage?: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const signedIn = await services.auth.fromHeader(c.req.header("authorization"));
    if (!signedIn) fail(401, "Please sign in to continue");
    const admin = publicAdmin(signedIn.admin);
    if (!SET_UP_PATHS.test(c.req.path) && await owesTwoFactor(services, signedIn.admin)) {
      fail(403, "Two-factor sign-in is required: turn it on in your profile first", {
        twoFactorSetupRequired: true,
      });
    }
    if (permission === "main_admin" && admin.role !== "main_admin") {
      fail(403, deniedMessage ?? PERMISSION_TABLE.canManageAdmins.denied);
    }
    if (permission && permission !== "main_admin" && !can(admin, permission)) {
      fail(403, deniedMessage ?? PERMISSION_TABLE[permission].denied);
    }
    c.set("admin", admin);
    c.set("sessionId", signedIn.sessionId);
    await next();
  };
}
