/**
 * Checking a password against an account the way sign-in does: throttled before any hashing, in
 * the client's own lane so one address holds at most one hashing place, and with the browser's
 * device cookie deciding whether the account's allowance over all addresses applies.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv, Services } from "./context.ts";
import { clientAddress } from "./request.ts";
import { addressBucket, type Attempt } from "./throttle.ts";
import { takeClientTurn, takeHashPlace, verifyPassword } from "./passwords.ts";
import { KNOWN_DEVICE_DAYS } from "../kv/constants.ts";

/** A random id the browser keeps, so an account knows the devices it signed in from. */
const DEVICE_COOKIE = "careeredge_device";

export interface PasswordCheck {
  matches: boolean;
  attempt: Attempt;
}

/**
 * Checks `password` against `hash` for the account `email` (whose id is `adminId`, if it exists).
 * Answers 429 when a throttle refuses and 503 when the hashing queue is full; a refused attempt
 * costs no allowance.
 */
export async function checkPassword(
  c: Context<AppEnv>,
  services: Services,
  account: { email: string; adminId: string | null },
  password: string,
  hash: string,
): Promise<PasswordCheck> {
  const address = clientAddress(c);
  using turn = takeClientTurn(addressBucket(address));
  const known = account.adminId !== null &&
    await services.sessions.knowsDevice(account.adminId, getCookie(c, DEVICE_COOKIE));
  const attempt = await services.throttle.attempt(account.email, address, known);
  await turn.ready;
  let place;
  try {
    place = takeHashPlace();
  } catch (error) {
    await attempt.cancelled();
    throw error;
  }
  return { matches: await verifyPassword(password, hash, place), attempt };
}

/** Marks the browser as one the admin signed in from (a new device id unless it has one). */
export async function rememberDevice(
  c: Context<AppEnv>,
  services: Services,
  adminId: string,
): Promise<void> {
  const given = getCookie(c, DEVICE_COOKIE);
  const device = given && /^[\w-]{22,64}$/.test(given) ? given : crypto.randomUUID();
  await services.sessions.rememberDevice(adminId, device);
  setCookie(c, DEVICE_COOKIE, device, {
    path: "/api/admin",
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:" ||
      services.config.SITE_URL?.startsWith("https:") === true,
    maxAge: KNOWN_DEVICE_DAYS * 86_400,
  });
}
