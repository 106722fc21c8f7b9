/** Analytics needs canViewAnalytics on the server; the dashboard's call is open to every admin. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";

const restricted = [
  "/api/analytics/overview?days=7",
  "/api/analytics/jobs?days=7",
  "/api/analytics/companies?days=7",
  "/api/analytics/trends?days=7",
  "/api/analytics/export?days=7&format=csv",
  "/api/analytics/export?days=7&format=json",
];

Deno.test("without canViewAnalytics every analytics call but the dashboard's answers 403", async () => {
  await using t = await testApp();
  const admin = await signIn(t, {
    permissions: { canCreateJobs: true, canDeleteJobs: true, canManageAdmins: true },
  });
  for (const path of restricted) {
    const response = await t.app.request(path, { headers: admin.headers });
    assert.equal(response.status, 403, path);
    assert.deepEqual(await response.json(), {
      message: "You don't have permission to view analytics",
    });
  }
  const dashboard = await t.app.request("/api/analytics/dashboard?days=7", {
    headers: admin.headers,
  });
  assert.equal(dashboard.status, 200);
  assert.equal((await dashboard.json()).dailyAnalytics.length, 7);
  const summary = await t.app.request("/api/analytics/dashboard/summary?days=7", {
    headers: admin.headers,
  });
  assert.equal(summary.status, 200);
  assert.equal((await summary.json()).daily.length, 7);
});

Deno.test("canViewAnalytics alone, or a main admin, may make every analytics call", async () => {
  await using t = await testApp();
  const viewer = await signIn(t, { permissions: { canViewAnalytics: true } });
  const main = await signIn(t, { main: true });
  for (const admin of [viewer, main]) {
    for (const path of [...restricted, "/api/analytics/dashboard?days=30"]) {
      const response = await t.app.request(path, { headers: admin.headers });
      assert.equal(response.status, 200, `${admin.admin.role} ${path}`);
      await response.body?.cancel();
    }
  }
});

Deno.test("no session or a bad token answers 401", async () => {
  await using t = await testApp();
  for (
    const path of [...restricted, "/api/analytics/dashboard", "/api/analytics/dashboard/summary"]
  ) {
    const none = await t.app.request(path);
    assert.equal(none.status, 401, path);
    await none.body?.cancel();
    const bad = await t.app.request(path, { headers: { authorization: "Bearer not-a-token" } });
    assert.equal(bad.status, 401, path);
    await bad.body?.cancel();
  }
});
