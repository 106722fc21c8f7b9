/**
 * Admin sessions and sign-in throttling. A session lives as long as its token; removing it ends the
 * token at once, which is how logout, deactivation, deletion and password changes take effect.
 */
import { keys } from "./keys.ts";
import { chunk } from "./atomic.ts";
import type { AdminRecord } from "./schemas.ts";

export interface Session {
  adminId: string;
  expiresAt: string;
}

export interface LoginFailures {
  count: number;
  /** When the 15-minute window that began with the first failure ends (epoch ms). */
  resetAt: number;
}

export class SessionStore {
  constructor(private kv: Deno.Kv, private now: () => Date) {}

  async create(jti: string, adminId: string, expiresAt: Date): Promise<void> {
    const expireIn = Math.max(1, expiresAt.getTime() - this.now().getTime());
    const session: Session = { adminId, expiresAt: expiresAt.toISOString() };
    const result = await this.kv.atomic()
      .check({ key: keys.session(jti), versionstamp: null })
      .set(keys.session(jti), session, { expireIn })
      .set(keys.sessionOfAdmin(adminId, jti), null, { expireIn })
      .commit();
    if (!result.ok) throw new Error("session id collision");
  }

  /**
   * The active admin behind a live session, read in one call since every admin request asks. A
   * session that was ended or has run out (KV expiry is lazy, so check the time) gives null.
   */
  async activeAdmin(jti: string, adminId: string): Promise<AdminRecord | null> {
    const [session, admin] = await this.kv.getMany<[Session, AdminRecord]>([
      keys.session(jti),
      keys.admin(adminId),
    ]);
    const live = session.value && Date.parse(session.value.expiresAt) > this.now().getTime();
    if (!live || session.value!.adminId !== adminId || !admin.value?.isActive) return null;
    return admin.value;
  }

  async end(jti: string): Promise<void> {
    const session = await this.kv.get<Session>(keys.session(jti));
    const op = this.kv.atomic().delete(keys.session(jti));
    if (session.value) op.delete(keys.sessionOfAdmin(session.value.adminId, jti));
    await op.commit();
  }

  /** Ends every session of an admin, except `keep` (the one changing its own password). */
  async endAllOf(adminId: string, keep?: string): Promise<void> {
    const jtis: string[] = [];
    for await (const entry of this.kv.list({ prefix: keys.sessionsOfAdmin(adminId) })) {
      const jti = entry.key[entry.key.length - 1] as string;
      if (jti !== keep) jtis.push(jti);
    }
    for (const part of chunk(jtis, 200)) {
      const op = this.kv.atomic();
      for (const jti of part) {
        op.delete(keys.session(jti)).delete(keys.sessionOfAdmin(adminId, jti));
      }
      await op.commit();
    }
  }

  async failures(kind: "account" | "address", id: string): Promise<LoginFailures | null> {
    const { value } = await this.kv.get<LoginFailures>(keys.loginFailures(kind, id));
    return value && value.resetAt > this.now().getTime() ? value : null;
  }

  /** Counts a failed sign-in in the current window, atomically so parallel guesses all count. */
  async recordFailure(kind: "account" | "address", id: string, windowMs: number): Promise<void> {
    const key = keys.loginFailures(kind, id);
    for (let attempt = 0; attempt < 50; attempt++) {
      const entry = await this.kv.get<LoginFailures>(key);
      const now = this.now().getTime();
      const current = entry.value && entry.value.resetAt > now
        ? entry.value
        : { count: 0, resetAt: now + windowMs };
      const next = { count: current.count + 1, resetAt: current.resetAt };
      const result = await this.kv.atomic().check(entry).set(key, next, {
        expireIn: Math.max(1, next.resetAt - now),
      }).commit();
      if (result.ok) return;
    }
  }

  async clearFailures(kind: "account" | "address", id: string): Promise<void> {
    await this.kv.delete(keys.loginFailures(kind, id));
  }
}
