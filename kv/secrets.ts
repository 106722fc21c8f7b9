/**
 * Secrets the app makes for itself when the configuration gives none (the token-signing key, the
 * main-admin creation secret), kept in KV so every process uses the same one.
 */
import { encodeHex } from "./hex.ts";
import { keys } from "./keys.ts";

/** The stored secret, made once; the atomic check makes every process agree on the same one. */
export async function storedSecret(
  kv: Deno.Kv,
  name: "jwt_secret" | "main_admin_secret",
): Promise<string> {
  const key = keys.config(name);
  const existing = await kv.get<string>(key);
  if (existing.value) return existing.value;
  const made = encodeHex(crypto.getRandomValues(new Uint8Array(32)));
  await kv.atomic().check({ key, versionstamp: null }).set(key, made).commit();
  return (await kv.get<string>(key)).value!;
}
