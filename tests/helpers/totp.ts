/** RFC 6238's TOTP computed with node:crypto, independently of the server's code. */
import { createHmac } from "node:crypto";
import { base32Decode } from "../../server/totp.ts";
import { TOTP_DIGITS } from "../../kv/constants.ts";

/** The code of `secret` (base32) at `time`, `offset` steps on. */
export function totpCode(secret: string, time: Date, offset = 0): string {
  const counter = Math.floor(time.getTime() / 30_000) + offset;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", Buffer.from(base32Decode(secret))).update(message).digest();
  const at = mac[19] & 15;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}
