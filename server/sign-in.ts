/**
 * Checking a password against an account the way sign-in does: throttled before any hashing, in
 * the client's own lane so one address holds at most one hashing place, and with the browser's
 * device cookie deciding whether the account's allowance over all addresses applies.
 */
import type { Context } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import type { AppEnv, Services } from "./context.ts";
import { clientAddress } from "./request.ts";
import { addressBucket, type Attempt } from "./throttle.ts";
import { takeClientTurn, takeHashPlace, verifyPassword } from "./passwords.ts";
import { KNOWN_DEVICE_DAYS } from "../kv/constants.ts";
import { fail } from "./errors.ts";

/** A random id the browser keeps, so an account knows the devices it signed in from. */
const DEVICE_COOKIE = "careeredge_device";

export interface PasswordCheck {
  matches: boolean;
  attempt: Attempt;
}

/** The device id of the browser of `c` if it signed in to the admin `adminId` before, else null. */
export async function knownBrowser(
  c: Context<AppEnv>,
  services: Services,
  adminId: string,
): Promise<string | null> {
  const device = getCookie(c, DEVICE_COOKIE);
  return device && await services.sessions.knowsDevice(adminId, device) ? device : null;
}

/**
 * Checks `password` against `hash` for the account `email` (whose id is `adminId`, if it exists).
 * Answers 429 when a throttle refuses and 503 when the hashing queue is full; a refused attempt
 * costs no allowance. `secondFactor` says the attempt carries a right two-factor code, which, like
 * a browser the account knows, frees it from the account's allowance over all addresses; `device`
 * is the id of a browser the account knows, or null, when the caller has asked already.
 */
export async function checkPassword(
  c: Context<AppEnv>,
  services: Services,
  account: {
    email: string;
    adminId: string | null;
    secondFactor?: boolean;
    device?: string | null;
  },
  password: string,
  hash: string,
): Promise<PasswordCheck> {
  const address = clientAddress(c);
  using turn = takeClientTurn(addressBucket(address));
  const device = account.device !== undefined
    ? account.device
    : account.adminId !== null
    ? await knownBrowser(c, services, account.adminId)
    : null;
  const trusted = account.secondFactor === true || device !== null;
  const attempt = await services.throttle.attempt(
    account.email,
    address,
    trusted,
    device ?? undefined,
  );
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

/**
 * For what a signed-in admin may change only by knowing their password (e-mail, password,
 * two-factor): checks it, throttled as a sign-in is so that a stolen session cannot guess it, and
 * answers 400 when it is wrong. Returns the attempt, to be marked succeeded once the change is
 * allowed.
 */
export async function requireCurrentPassword(
  c: Context<AppEnv>,
  services: Services,
  admin: { _id: string; email: string; passwordHash: string },
  password: string,
): Promise<Attempt> {
  const { matches, attempt } = await checkPassword(
    c,
    services,
    { email: admin.email, adminId: admin._id },
    password,
    admin.passwordHash,
  );
  if (!matches) fail(400, "Current password is incorrect");
  return attempt;
}

/**
 * Marks the browser as one the admin signed in from (a new device id unless it has this admin's):
 * sets the device cookie on the answer `c` builds, and gives it for an answer built by hand.
 */
export async function rememberDevice(
  c: Context<AppEnv>,
  services: Services,
  adminId: string,
): Promise<string> {
  const given = getCookie(c, DEVICE_COOKIE);
  // A browser keeps its id only where it already signed in as this admin: an id someone else set
  // in it (a cookie planted from a subdomain) would otherwise become known to the account, and
  // the planter's own browser, holding the same id, would pass the account's lock.
  const known = given !== undefined && /^[\w-]{22,64}$/.test(given) &&
    await services.sessions.knowsDevice(adminId, given);
  const device = known ? given : crypto.randomUUID();
  await services.sessions.rememberDevice(adminId, device);
  const cookie = generateCookie(DEVICE_COOKIE, device, {
    path: "/api/admin",
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:" ||
      services.config.SITE_URL?.startsWith("https:") === true,
    maxAge: KNOWN_DEVICE_DAYS * 86_400,
  });
  c.header("set-cookie", cookie, { append: true });
  return cookie;
}
