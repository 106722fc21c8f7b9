/**
 * Password hashing with Web Crypto's native Argon2id (OWASP: 19 MiB, 2 passes, parallelism 1),
 * stored as a PHC string so the parameters can be raised later without breaking old hashes.
 */
import { timingSafeEqual } from "node:crypto";

const PARAMS = { memory: 19_456, passes: 2, parallelism: 1 };
const HASH_BYTES = 32;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
const unb64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

async function derive(
  password: string,
  salt: Uint8Array,
  params: typeof PARAMS,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "Argon2id",
    false,
    ["deriveBits"],
  );
  const algorithm = { name: "Argon2id", nonce: salt, ...params };
  return new Uint8Array(
    await crypto.subtle.deriveBits(algorithm as Algorithm, key, HASH_BYTES * 8),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, PARAMS);
  const { memory, passes, parallelism } = PARAMS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = stored.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, expected] = match;
  const actual = await derive(password, unb64(salt), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
  });
  const wanted = unb64(expected);
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

/** A real hash of nothing, verified against for unknown e-mails so they take as long as known ones. */
export const DECOY_HASH = await hashPassword(crypto.randomUUID());
