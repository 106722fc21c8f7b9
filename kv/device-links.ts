/**
 * Mailed links that confirm a browser for an admin account, for when failed sign-ins from elsewhere
 * have used up the account's allowance for browsers it does not know. A link's token is 256 random
 * bits; only its SHA-256 is kept, until it expires, and opening it spends it. It proves the mailbox
 * only: the confirmed browser still signs in with the password (and the code, with two-factor
 * sign-in on).
 */
import { keys } from "./keys.ts";
import { countInWindow, type WindowCount } from "./atomic.ts";
import { newToken, tokenHash } from "./alerts.ts";
import { DEVICE_LINK_MAILS_PER_HOUR, DEVICE_LINK_MINUTES } from "./constants.ts";

const DEVICE_LINK_MS = DEVICE_LINK_MINUTES * 60_000;
const HOUR_MS = 3_600_000;

export interface DeviceLink {
  adminId: string;
  /** When the link stops working (ISO); KV's own expiry is lazy and on the machine's clock. */
  expiresAt: string;
}

export class DeviceLinkStore {
  constructor(private kv: Deno.Kv, private now: () => Date) {}

  /** Counts a request from a client address (its bucket) in the current hour. */
  countRequest(bucket: string): Promise<WindowCount> {
    return countInWindow(this.kv, keys.deviceLinkRequests(bucket), HOUR_MS, this.now());
  }

  /** A new link's token for the admin, or null once DEVICE_LINK_MAILS_PER_HOUR were issued. */
  async issue(adminId: string): Promise<string | null> {
    const mails = await countInWindow(this.kv, keys.deviceLinkMails(adminId), HOUR_MS, this.now());
    if (mails.count > DEVICE_LINK_MAILS_PER_HOUR) return null;
    const token = newToken();
    const link: DeviceLink = {
      adminId,
      expiresAt: new Date(this.now().getTime() + DEVICE_LINK_MS).toISOString(),
    };
    await this.kv.set(keys.deviceLink(await tokenHash(token)), link, { expireIn: DEVICE_LINK_MS });
    return token;
  }

  /** Whether a link still works, without spending it (the page that asks to confirm). */
  async isLive(token: string): Promise<boolean> {
    return (await this.live(token)) !== null;
  }

  /**
   * Spends a live link: the admin it confirms a browser for, or null when it never was issued,
   * ran out or was spent first (by a write checked against it, so two openings confirm once).
   */
  async spend(token: string): Promise<string | null> {
    const entry = await this.live(token);
    if (!entry) return null;
    const done = await this.kv.atomic().check(entry).delete(entry.key).commit();
    return done.ok ? entry.value.adminId : null;
  }

  private async live(token: string): Promise<Deno.KvEntry<DeviceLink> | null> {
    if (!token || token.length > 100) return null;
    const entry = await this.kv.get<DeviceLink>(keys.deviceLink(await tokenHash(token)));
    if (!entry.value || Date.parse(entry.value.expiresAt) <= this.now().getTime()) return null;
    return entry as Deno.KvEntry<DeviceLink>;
  }
}
