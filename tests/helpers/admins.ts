/** Signs test accounts in through the API, the way the admin portal does. */
import type { TestApp } from "./server.ts";
import type { Admin, Permissions } from "../../kv/schemas.ts";
import { NO_PERMISSIONS } from "../../kv/permissions.ts";

export interface SignedInAdmin {
  token: string;
  admin: Admin;
  email: string;
  password: string;
  /** Headers for an authorised JSON call. */
  headers: Record<string, string>;
}

let accounts = 0;

async function post(t: TestApp, path: string, body: unknown, token?: string) {
  const response = await t.app.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${json.message}`);
  return json;
}

/** The main admin of `t`, created on first use. */
export async function signInMain(t: TestApp): Promise<SignedInAdmin> {
  const email = "main@careeredge.test";
  const password = "first-admin-password";
  if (!(await t.services.admins.hasMainAdmin())) {
    await post(t, "/api/admin/create-main-admin", {
      username: "Main Admin",
      email,
      password,
      secretKey: t.services.config.MAIN_ADMIN_SECRET,
    });
  }
  const { token, admin } = await post(t, "/api/admin/login", { email, password });
  return { token, admin, email, password, headers: authHeaders(token) };
}

const keptMain = new WeakMap<TestApp, Promise<SignedInAdmin>>();

/**
 * A JSON call as the main admin through one session kept per app, signed in again once it has
 * ended (the clock moved past its life): an admin holds a bounded number of live sessions, so a
 * sign-in per call would end sessions tests still hold.
 */
export async function asMain(t: TestApp, method: string, path: string, body?: unknown) {
  for (let attempt = 0;; attempt++) {
    if (!keptMain.has(t)) keptMain.set(t, signInMain(t));
    const { headers } = await keptMain.get(t)!;
    const response = await t.app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && attempt === 0) {
      keptMain.delete(t);
      continue;
    }
    return { status: response.status, body: await response.json() };
  }
}

/**
 * A signed-in account: the main admin with `{ main: true }`, else an admin with exactly the given
 * permission flags (all false unless named).
 */
export async function signIn(
  t: TestApp,
  options: { permissions?: Partial<Permissions>; main?: boolean; username?: string } = {},
): Promise<SignedInAdmin> {
  if (options.main) return await signInMain(t);
  accounts++;
  const email = `admin${accounts}-${crypto.randomUUID().slice(0, 8)}@careeredge.test`;
  const password = "admin-password";
  const registered = await asMain(t, "POST", "/api/admin/register", {
    username: options.username ?? `Admin ${accounts}`,
    email,
    password,
    permissions: { ...NO_PERMISSIONS, ...options.permissions },
  });
  if (registered.status >= 400) {
    throw new Error(`/api/admin/register: ${registered.status} ${registered.body.message}`);
  }
  const { token, admin } = await post(t, "/api/admin/login", { email, password });
  return { token, admin, email, password, headers: authHeaders(token) };
}

export function authHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

export const json = { "content-type": "application/json" };

/** A call from `address` (a fixed documentation address unless given), its status and JSON body. */
export async function request(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = json,
  address = "203.0.113.7",
) {
  const response = await t.app.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }, { remoteAddr: { hostname: address, port: 40000, transport: "tcp" } });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.json(),
  };
}

/** The create-main-admin body the test configuration accepts. */
export const mainBody = {
  username: "Owner",
  email: "Owner@Example.com",
  password: "correct horse",
  secretKey: "test-main-admin-secret",
};
