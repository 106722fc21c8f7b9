/** PUT /api/admin/{id}/permissions: the main admin changes another admin's flags. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { request, signIn, signInMain } from "../helpers/admins.ts";
import { NO_PERMISSIONS } from "../../kv/permissions.ts";

Deno.test("the main admin changes an admin's flags, in force from that admin's next request", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const editor = await signIn(t, { username: "Editor", permissions: { canViewAnalytics: true } });
  const list = () => request(t, "GET", "/api/jobs/admin/all", undefined, editor.headers);

  assert.equal((await list()).status, 403);
  const changed = await request(
    t,
    "PUT",
    `/api/admin/${editor.admin._id}/permissions`,
    { permissions: { canCreateJobs: true, canViewAnalytics: false } },
    main.headers,
  );
  assert.equal(changed.status, 200);
  assert.equal(changed.body.message, "Permissions updated successfully");
  assert.deepEqual(changed.body.admin.permissions, { ...NO_PERMISSIONS, canCreateJobs: true });
  assert.equal("passwordHash" in changed.body.admin, false);
  // The same token, the next request: the new flags hold at once.
  assert.equal((await list()).status, 200);
  const analytics = await request(t, "GET", "/api/analytics/overview?days=7", undefined, {
    ...editor.headers,
  });
  assert.equal(analytics.status, 403);
  const profile = await request(t, "GET", "/api/admin/profile", undefined, editor.headers);
  assert.equal(profile.body.permissions.canCreateJobs, true);

  // A flag left out keeps its value.
  const partial = await request(
    t,
    "PUT",
    `/api/admin/${editor.admin._id}/permissions`,
    { permissions: { canDeleteJobs: true } },
    main.headers,
  );
  assert.deepEqual(partial.body.admin.permissions, {
    ...NO_PERMISSIONS,
    canCreateJobs: true,
    canDeleteJobs: true,
  });

  // Each change is in the activity log, by whom, of whom, before and after.
  const log = await request(
    t,
    "GET",
    `/api/admin/activity?action=admin.permissions`,
    undefined,
    main.headers,
  );
  assert.equal(log.status, 200);
  const records = log.body.records;
  assert.equal(records.length, 2);
  const first = records.at(-1);
  assert.equal(first.actor.id, main.admin._id);
  assert.equal(first.target.id, editor.admin._id);
  assert.deepEqual(first.change.before.permissions.canCreateJobs, false);
  assert.deepEqual(first.change.after.permissions.canCreateJobs, true);
});

Deno.test("permissions: only the main admin, never their own, never a main admin; bad bodies are 400", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const manager = await signIn(t, {
    permissions: { canManageAdmins: true, canCreateJobs: true },
  });
  const other = await signIn(t, { username: "Other" });
  const put = (id: string, body: unknown, headers = main.headers) =>
    request(t, "PUT", `/api/admin/${id}/permissions`, body, headers);
  const grant = { permissions: { canCreateJobs: true } };

  const byManager = await put(other.admin._id, grant, manager.headers);
  assert.equal(byManager.status, 403);
  const own = await put(main.admin._id, { permissions: { canCreateJobs: false } });
  assert.deepEqual([own.status, own.body.message], [403, "You cannot change your own permissions"]);
  const unknown = await put("0123456789abcdef", grant);
  assert.deepEqual([unknown.status, unknown.body.message], [404, "Admin not found"]);
  const signedOut = await request(t, "PUT", `/api/admin/${other.admin._id}/permissions`, grant);
  assert.equal(signedOut.status, 401);

  for (
    const body of [
      {},
      { permissions: {} },
      { permissions: { canCreateJobs: "yes" } },
      { permissions: null },
      "[]",
    ]
  ) {
    const answer = await put(other.admin._id, body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(typeof answer.body.message, "string");
  }
  // Unknown flag names are not stored.
  const extra = await put(other.admin._id, {
    permissions: { canCreateJobs: true, isMain: true },
  });
  assert.equal(extra.status, 200);
  assert.equal("isMain" in extra.body.admin.permissions, false);
  assert.equal(extra.body.admin.role, "admin");
});
