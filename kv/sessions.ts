/**
 * Admin sessions and sign-in throttling. A session lives as long as its token; removing it ends the
 * token at once, which is how logout, deactivation, deletion and password changes take effect.
 */
import { type FailureScope, keys } from "./keys.ts";
import { chunk, countInWindow, sharedReadByKey } from "./atomic.ts";
import type { AdminRecord } from "./schemas.ts";
import { DAY_MS, KNOWN_DEVICE_DAYS, SESSION_HOURS, SESSIONS_PER_ADMIN } from "./constants.ts";
import type { Audit } from "./activity.ts";
import {
  stampedAt,
  unversioned,
  type UpgradeCount,
  upgradeRecords,
  type Versioned,
} from "./schema-version.ts";

/**
 * The schema version every stored session carries (see kv/schema-version.ts). Version 2 is version
 * 1 with its version written in; `deno task db:migrate` stamps older sessions.
 */
export const SESSION_SCHEMA_VERSION = 2;

export interface Session {
  adminId: string;
  expiresAt: string;
}

const storedSession = (session: Session): Versioned<Session> =>
  stampedAt(session, SESSION_SCHEMA_VERSION);

/** How long a session has left, for KV's expiry (at least 1 ms: one that has run out goes at once). */
function lifeLeft(session: Session, now: Date): number {
  const left = Date.parse(session.expiresAt) - now.getTime();
  return left > 1 ? left : 1;
}

/**
 * Brings every stored session to the current version (`deno task db:migrate`), keeping its expiry:
 * KV does not tell when an entry expires, so it is worked out again from the session's end.
 */
export function upgradeSessions(kv: Deno.Kv, now: Date): Promise<UpgradeCount> {
  return upgradeRecords<Session>(kv, keys.sessions(), SESSION_SCHEMA_VERSION, (session) => ({
    value: storedSession(session),
    expireIn: lifeLeft(session, now),
  }));
}

/**
 * For a restore: how long a session, its place in its admin's list, or a known browser has left to
 * live, worked out again as KV does not tell a dump. A session keeps the time its end leaves it, its
 * place in the list SESSION_HOURS from its start, or from now when no start is kept (a place gone
 * before its session would hide the session from `endAllOf`); a known browser, whose last sign-in
 * is not kept, gets KNOWN_DEVICE_DAYS again (it had at most that left). Undefined for other keys.
 */
export function sessionExpiry(now: Date) {
  const table = (key: Deno.KvKey) => key[0];
  return (key: Deno.KvKey, value?: unknown): number | undefined => {
    if (table(key) === table(keys.session(""))) return lifeLeft(value as Session, now);
    if (table(key) === table(keys.sessionOfAdmin("", ""))) {
      const startedAt = typeof value === "number" ? value : now.getTime();
      return Math.max(1, startedAt + SESSION_HOURS * 3_600_000 - now.getTime());
    }
    if (table(key) === table(keys.knownDevice("", ""))) return KNOWN_DEVICE_DAYS * DAY_MS;
    return undefined;
  };
}

/** The database keeps a device cookie's digest only, so a copy of it signs nobody in. */
/** What is kept of a browser's device id: its SHA-256. */
export async function deviceHash(device: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(device));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

export interface LoginFailures {
  count: number;
  /** When the 15-minute window that began with the first failure ends (epoch ms). */
  resetAt: number;
}

export class SessionStore {
  constructor(private kv: Deno.Kv, private now: () => Date) {}

  /**
   * Adds the start of a session to `op`, the sign-in's own write, checked against the account: a
   * password change, deactivation or deletion that ends every session of the admin either commits
   * first (and the sign-in fails its check) or finds this session to end. `endOldest` follows it.
   */
  startIn(op: Deno.AtomicOperation, jti: string, adminId: string, expiresAt: Date): void {
    const now = this.now();
    const session: Session = { adminId, expiresAt: expiresAt.toISOString() };
    const expireIn = lifeLeft(session, now);
    op.check({ key: keys.session(jti), versionstamp: null })
      .set(keys.session(jti), storedSession(session), { expireIn })
      .set(keys.sessionOfAdmin(adminId, jti), now.getTime(), { expireIn });
  }

  /**
   * Ends all but the newest SESSIONS_PER_ADMIN sessions of an admin. Every process orders them the
   * same way (start time, then id), so sign-ins racing in several processes still leave the newest.
   */
  async endOldest(adminId: string): Promise<void> {
    const started: { jti: string; at: number }[] = [];
    for await (
      const entry of this.kv.list<number | null>({ prefix: keys.sessionsOfAdmin(adminId) })
    ) {
      started.push({ jti: entry.key[entry.key.length - 1] as string, at: entry.value ?? 0 });
    }
    if (started.length <= SESSIONS_PER_ADMIN) return;
    started.sort((a, b) => b.at - a.at || (a.jti < b.jti ? 1 : -1));
    await this.endMany(adminId, started.slice(SESSIONS_PER_ADMIN).map(({ jti }) => jti));
  }

  /**
   * The active admin behind a live session, read in one call since every admin request asks. A
   * session that was ended or has run out (KV expiry is lazy, so check the time) gives null.
   */
  activeAdmin(jti: string, adminId: string): Promise<AdminRecord | null> {
    return this.readActiveAdmin(JSON.stringify([jti, adminId]));
  }

  /** Concurrent requests of one session (a screen's calls, a burst) share one read. */
  private readonly readActiveAdmin = sharedReadByKey(async (pair) => {
    const [jti, adminId] = JSON.parse(pair) as [string, string];
    const [session, admin] = await this.kv.getMany<
      [Versioned<Session>, Versioned<AdminRecord>]
    >([keys.session(jti), keys.admin(adminId)]);
    const live = session.value && Date.parse(session.value.expiresAt) > this.now().getTime();
    if (!live || session.value!.adminId !== adminId || !admin.value?.isActive) return null;
    return unversioned(admin.value);
  });

  /** Ends a session; with `audit`, the same write records the sign-out. */
  async end(jti: string, audit?: Audit): Promise<void> {
    const session = await this.kv.get<Session>(keys.session(jti));
    const op = this.kv.atomic().delete(keys.session(jti));
    if (session.value) op.delete(keys.sessionOfAdmin(session.value.adminId, jti));
    audit?.add(op, "auth.sign_out", {
      kind: "admin",
      id: audit.actor.id,
      label: audit.actor.name,
    });
    await op.commit();
  }

  /** Ends every session of an admin, except `keep` (the one changing its own password). */
  async endAllOf(adminId: string, keep?: string): Promise<void> {
    const jtis: string[] = [];
    for await (const entry of this.kv.list({ prefix: keys.sessionsOfAdmin(adminId) })) {
      const jti = entry.key[entry.key.length - 1] as string;
      if (jti !== keep) jtis.push(jti);
    }
    await this.endMany(adminId, jtis);
  }

  private async endMany(adminId: string, jtis: string[]): Promise<void> {
    for (const part of chunk(jtis, 200)) {
      const op = this.kv.atomic();
      for (const jti of part) {
        op.delete(keys.session(jti)).delete(keys.sessionOfAdmin(adminId, jti));
      }
      await op.commit();
    }
  }

  /**
   * Adds `change` to the sign-in attempts counted in the current window and returns the new
   * count. Atomic, so attempts sent in parallel are all counted.
   */
  countAttempt(scope: FailureScope, windowMs: number, change = 1): Promise<LoginFailures> {
    return countInWindow(this.kv, keys.loginFailures(scope), windowMs, this.now(), change);
  }

  async clearAttempts(scope: FailureScope): Promise<void> {
    await this.kv.delete(keys.loginFailures(scope));
  }

  /** Remembers (again) that `device` signed in as the admin, for KNOWN_DEVICE_DAYS. */
  async rememberDevice(adminId: string, device: string): Promise<void> {
    await this.kv.set(keys.knownDevice(adminId, await deviceHash(device)), null, {
      expireIn: KNOWN_DEVICE_DAYS * DAY_MS,
    });
  }

  /** Whether `device` (a browser's device cookie) signed in as the admin before. */
  async knowsDevice(adminId: string, device: string | undefined): Promise<boolean> {
    if (!device || device.length > 100) return false;
    const entry = await this.kv.get(keys.knownDevice(adminId, await deviceHash(device)));
    return entry.versionstamp !== null;
  }
}
