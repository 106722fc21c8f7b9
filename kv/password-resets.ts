/**
 * Links that set an admin's password, mailed on request. A link's token is 256 random bits; only
 * its SHA-256 is kept, until it expires. Setting the password spends every live link of the admin
 * in the same write as the new password, so a link works once and an older one not at all.
 */
import { keys } from "./keys.ts";
import { countInWindow, type WindowCount } from "./atomic.ts";
import { newToken, tokenHash } from "./alerts.ts";
import { RESET_LINK_MINUTES, RESET_MAILS_PER_HOUR } from "./constants.ts";

const RESET_LINK_MS = RESET_LINK_MINUTES * 60_000;
const HOUR_MS = 3_600_000;

export interface PasswordReset {
  adminId: string;
  /** When the link stops working (ISO); KV's own expiry is lazy and on the machine's clock. */
  expiresAt: string;
}

/** A link looked up: live, run out, or never issued (or already used). */
export type ResetLookup =
  | { state: "live"; reset: PasswordReset; hash: string }
  | { state: "expired" | "unknown" };

export class PasswordResetStore {
  constructor(private kv: Deno.Kv, private now: () => Date) {}

  /** Counts a request from a client address (its bucket) in the current hour. */
  countRequest(bucket: string): Promise<WindowCount> {
    return countInWindow(this.kv, keys.passwordResetRequests(bucket), HOUR_MS, this.now());
  }

  /**
   * A new link's token for the admin, or null once RESET_MAILS_PER_HOUR were issued this hour.
   */
  async issue(adminId: string): Promise<string | null> {
    const mails = await countInWindow(
      this.kv,
      keys.passwordResetMails(adminId),
      HOUR_MS,
      this.now(),
    );
    if (mails.count > RESET_MAILS_PER_HOUR) return null;
    const token = newToken();
    const hash = tokenHash(token);
    const reset: PasswordReset = {
      adminId,
      expiresAt: new Date(this.now().getTime() + RESET_LINK_MS).toISOString(),
    };
    await this.kv.atomic()
      .set(keys.passwordReset(hash), reset, { expireIn: RESET_LINK_MS })
      .set(keys.passwordResetOfAdmin(adminId, hash), null, { expireIn: RESET_LINK_MS })
      .commit();
    return token;
  }

  async lookUp(token: string): Promise<ResetLookup> {
    if (!token || token.length > 100) return { state: "unknown" };
    const hash = tokenHash(token);
    const entry = await this.kv.get<PasswordReset>(keys.passwordReset(hash));
    if (!entry.value) return { state: "unknown" };
    if (Date.parse(entry.value.expiresAt) <= this.now().getTime()) return { state: "expired" };
    return { state: "live", reset: entry.value, hash };
  }

  /**
   * Adds to `op` the spending of every live link of the admin, checked against `hash` still being
   * live, so the write commits only while the link is unused. False when it is not live any more.
   */
  async spendIn(op: Deno.AtomicOperation, adminId: string, hash: string): Promise<boolean> {
    const entry = await this.kv.get<PasswordReset>(keys.passwordReset(hash));
    if (!entry.value || Date.parse(entry.value.expiresAt) <= this.now().getTime()) return false;
    op.check(entry);
    await this.spendAllIn(op, adminId);
    op.delete(keys.passwordReset(hash));
    return true;
  }

  /**
   * Adds to `op` the spending of every live link of the admin: a password or e-mail changed
   * another way leaves no link that could set it again.
   */
  async spendAllIn(op: Deno.AtomicOperation, adminId: string): Promise<void> {
    // At most RESET_MAILS_PER_HOUR links live at once, well within one atomic write.
    for await (const link of this.kv.list({ prefix: keys.passwordResetsOfAdmin(adminId) })) {
      const other = link.key[link.key.length - 1] as string;
      op.delete(keys.passwordReset(other)).delete(link.key);
    }
  }
}
