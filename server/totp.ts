/**
 * Time-based one-time passwords (RFC 6238: HMAC-SHA1 over 30-second steps, `TOTP_DIGITS` digits)
 * with Web Crypto, and the single-use recovery codes that stand in for a lost authenticator.
 */
import { encodeHex } from "../kv/hex.ts";
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from "../kv/constants.ts";

const STEP_SECONDS = 30;
const ISSUER = "CareerEdge";
/** Codes one step either side of now are accepted: phones' clocks drift. */
const DRIFT_STEPS = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/[\s=]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new TypeError("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** A new secret: 160 random bits, as RFC 4226 recommends, in base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(20)));
}

/** The link an authenticator app reads from the QR code. */
export function otpauthUrl(secret: string, account: string): string {
  const label = encodeURIComponent(`${ISSUER}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${ISSUER}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${STEP_SECONDS}`;
}

/** The HOTP code (RFC 4226) of `secret` for `counter`. */
export async function hotp(secret: string, counter: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    base32Decode(secret),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1] & 15;
  const binary = ((mac[offset] & 127) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) |
    mac[offset + 3];
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

/** The 30-second step a time falls in. */
export const stepOf = (time: Date) => Math.floor(time.getTime() / 1000 / STEP_SECONDS);

/**
 * The step whose code `code` is, within the allowed drift of `now` and after `lastStep` (so no code
 * works twice), or null.
 */
export async function matchingStep(
  secret: string,
  code: string,
  now: Date,
  lastStep: number,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const current = stepOf(now);
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (step > lastStep && await hotp(secret, step) === code) return step;
  }
  return null;
}

/** Ten new recovery codes, such as `k7qd-3mfa-x2pe`: 60 random bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(crypto.getRandomValues(new Uint8Array(8))).slice(0, 12).toLowerCase();
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8, 12)}`;
  });
}

/** What the database keeps of a recovery code: its SHA-256, spelled without case or dashes. */
export async function recoveryCodeHash(code: string): Promise<string> {
  const clean = code.toLowerCase().replace(/[^a-z0-9]/g, "");
  return encodeHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(clean)));
}
