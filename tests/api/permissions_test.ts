/**
 * The permission matrix: every admin call, with every kind of bad credential and with an admin
 * lacking the flag, is refused with 401 or 403, and leaves the database exactly as it was.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { authHeaders, signIn, signInMain } from "../helpers/admins.ts";
import { ALL_PERMISSIONS, type Permission, PERMISSIONS } from "../../kv/permissions.ts";
import { testConfig } from "../../server/config.ts";

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** The flag the call needs; "main_admin" for account management; none for any admin. */
  needs?: Permission | "main_admin";
}

function calls(jobId: string, adminId: string): Call[] {
  return [
    { method: "GET", path: "/api/jobs/admin/all?status=all", needs: "canCreateJobs" },
    { method: "GET", path: "/api/jobs/admin/recent" },
    { method: "GET", path: "/api/jobs/admin/export?status=all", needs: "canCreateJobs" },
    { method: "GET", path: "/api/jobs/admin/dump", needs: "canCreateJobs" },
    { method: "POST", path: "/api/jobs", body: sampleJob(), needs: "canCreateJobs" },
    {
      method: "POST",
      path: "/api/jobs/bulk",
      body: { jobs: [sampleJob()] },
      needs: "canCreateJobs",
    },
    { method: "PUT", path: `/api/jobs/${jobId}`, body: sampleJob(), needs: "canCreateJobs" },
    {
      method: "PUT",
      path: `/api/jobs/${jobId}/status`,
      body: { status: "inactive" },
      needs: "canCreateJobs",
    },
    { method: "DELETE", path: `/api/jobs/${jobId}`, needs: "canDeleteJobs" },
    { method: "POST", path: "/api/jobs/admin/process-status-changes", needs: "canCreateJobs" },
    {
      method: "POST",
      path: "/api/jobs/check-duplicate",
      body: { hiringLink: "https://example.com/x" },
      needs: "canCreateJobs",
    },
    { method: "GET", path: "/api/admin/profile" },
    { method: "PUT", path: "/api/admin/profile", body: { username: "Changed" } },
    { method: "POST", path: "/api/admin/logout" },
    { method: "GET", path: "/api/admin/all", needs: "main_admin" },
    {
      method: "POST",
      path: "/api/admin/register",
      body: { username: "New", email: "new@example.com", password: "quiet-lantern-7" },
      needs: "main_admin",
    },
    {
      method: "PUT",
      path: `/api/admin/${adminId}/status`,
      body: { isActive: false },
      needs: "main_admin",
    },
    {
      method: "PUT",
      path: `/api/admin/${adminId}/permissions`,
      body: { permissions: { canCreateJobs: true } },
      needs: "main_admin",
    },
    { method: "DELETE", path: `/api/admin/${adminId}`, needs: "main_admin" },
    { method: "GET", path: "/api/analytics/dashboard?days=7" },
    { method: "GET", path: "/api/analytics/dashboard/summary?days=7" },
    { method: "GET", path: "/api/analytics/overview?days=7", needs: "canViewAnalytics" },
    { method: "GET", path: "/api/analytics/jobs?days=30&limit=10", needs: "canViewAnalytics" },
    { method: "GET", path: "/api/analytics/companies?days=30", needs: "canViewAnalytics" },
    { method: "GET", path: "/api/analytics/trends?days=90", needs: "canViewAnalytics" },
    { method: "GET", path: "/api/analytics/export?days=7&format=csv", needs: "canViewAnalytics" },
  ];
}

/** Every entry of the database, for comparing before and after a refused call. */
async function snapshot(t: TestApp) {
  const entries = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    entries.push([entry.key, entry.value, entry.versionstamp]);
  }
  return entries;
}

const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

Deno.test("every admin call refuses bad credentials and missing flags, changing nothing", async () => {
  const now = new Date("2026-07-01T12:00:00Z");
  await using t = await testApp({ now });
  const main = await signInMain(t);
  const created = await t.services.jobs.create(sampleJob());
  assert.ok(created.ok);
  const target = await signIn(t, { username: "Target" });

  // An admin holding every flag, whose credentials are then spoiled in each way.
  const everything = ALL_PERMISSIONS;
  const loggedOut = await signIn(t, { permissions: everything });
  await t.app.request("/api/admin/logout", { method: "POST", headers: loggedOut.headers });
  const deactivated = await signIn(t, { permissions: everything });
  await t.app.request(`/api/admin/${deactivated.admin._id}/status`, {
    method: "PUT",
    headers: main.headers,
    body: JSON.stringify({ isActive: false }),
  });
  t.clock.now = new Date(now.getTime() - 9 * 3_600_000);
  const expired = await signIn(t, { permissions: everything });
  t.clock.now = now;

  const claims = { sub: main.admin._id, jti: crypto.randomUUID(), iss: "careeredge" };
  const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h").sign(new TextEncoder().encode("another-key-another-key-another-key!"));
  const exp = Math.floor(now.getTime() / 1000) + 3600;
  const algNone = `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ ...claims, exp })}.`;
  const forgedSession = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" })
    .setExpirationTime(exp).sign(new TextEncoder().encode(testConfig().JWT_SECRET));

  const unauthenticated: [string, Record<string, string>][] = [
    ["no token", { "content-type": "application/json" }],
    ["malformed token", authHeaders("not.a.jwt")],
    ["wrong scheme", { authorization: `Basic ${main.token}`, "content-type": "application/json" }],
    ["another key", authHeaders(otherKey)],
    ["alg none", authHeaders(algNone)],
    ["no session behind a valid signature", authHeaders(forgedSession)],
    ["expired", expired.headers],
    ["logged out", loggedOut.headers],
    ["deactivated", deactivated.headers],
  ];

  const lacking = new Map<string, Record<string, string>>();
  for (const flag of PERMISSIONS) {
    // Every flag but the one the call needs: the check must look at that very flag.
    const permissions = Object.fromEntries(PERMISSIONS.map((other) => [other, other !== flag]));
    lacking.set(flag, (await signIn(t, { permissions })).headers);
  }

  for (const call of calls(created.job._id, target.admin._id)) {
    const attempts = [...unauthenticated.map(([name, headers]) => ({ name, headers, want: 401 }))];
    if (call.needs === "main_admin") {
      attempts.push({
        name: "admin with every flag",
        headers: lacking.get("canCreateJobs")!,
        want: 403,
      });
      const allFlags = await signIn(t, { permissions: everything });
      attempts.push({ name: "non-main admin", headers: allFlags.headers, want: 403 });
    } else if (call.needs) {
      attempts.push({
        name: `lacking ${call.needs}`,
        headers: lacking.get(call.needs)!,
        want: 403,
      });
    }
    for (const attempt of attempts) {
      const before = await snapshot(t);
      const response = await t.app.request(call.path, {
        method: call.method,
        headers: attempt.headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      const label = `${call.method} ${call.path} with ${attempt.name}`;
      assert.equal(response.status, attempt.want, label);
      assert.equal(typeof (await response.json()).message, "string", label);
      assert.deepEqual(await snapshot(t), before, `${label} changed the database`);
    }
  }
});

Deno.test("the specification's permission messages", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.create(sampleJob());
  assert.ok(created.ok);
  const none = await signIn(t);
  const message = async (method: string, path: string, body?: unknown) => {
    const response = await t.app.request(path, {
      method,
      headers: none.headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.equal(response.status, 403);
    return (await response.json()).message;
  };
  assert.equal(
    await message("DELETE", `/api/jobs/${created.job._id}`),
    "You do not have permission to delete jobs",
  );
  assert.equal(
    await message("PUT", `/api/jobs/${created.job._id}/status`, { status: "active" }),
    "You do not have permission to change job status",
  );
  assert.equal(
    await message("POST", "/api/jobs/admin/process-status-changes"),
    "You do not have permission to process status changes",
  );
});
