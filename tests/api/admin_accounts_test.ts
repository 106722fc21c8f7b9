/** Admin accounts: creating the main admin, signing in and out, managing admins, profiles, sessions. */
import { DECOY_HASH, hashPassword, verifyPassword } from "../../server/passwords.ts";
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { authHeaders, json, mainBody, request, signIn, signInMain } from "../helpers/admins.ts";
import { SESSIONS_PER_ADMIN } from "../../kv/constants.ts";
import { ALL_PERMISSIONS, NO_PERMISSIONS } from "../../kv/permissions.ts";

Deno.test("create-main-admin needs the secret, works once, and then logs in with every permission", async () => {
  await using t = await testApp();
  const wrong = await request(t, "POST", "/api/admin/create-main-admin", {
    ...mainBody,
    secretKey: "guess",
  });
  assert.deepEqual([wrong.status, wrong.body.message], [403, "Invalid secret key"]);

  const created = await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  assert.equal(created.status, 201);
  assert.equal(created.body.admin.role, "main_admin");
  assert.equal(created.body.admin.email, "owner@example.com");
  assert.equal("passwordHash" in created.body.admin, false);

  const second = await request(t, "POST", "/api/admin/create-main-admin", {
    ...mainBody,
    email: "other@example.com",
  });
  assert.deepEqual([second.status, second.body.message], [409, "Main admin already exists"]);

  const login = await request(t, "POST", "/api/admin/login", {
    email: "OWNER@example.com",
    password: "correct horse",
  });
  assert.equal(login.status, 200);
  assert.equal(login.body.message, "Login successful");
  assert.equal(typeof login.body.token, "string");
  assert.deepEqual(login.body.admin.permissions, ALL_PERMISSIONS);
  assert.ok(login.body.admin.lastLogin);

  const profile = await request(t, "GET", "/api/admin/profile", undefined, {
    authorization: `Bearer ${login.body.token}`,
  });
  assert.equal(profile.status, 200);
  assert.equal(profile.body.username, "Owner");
  assert.equal(profile.body.role, "main_admin");
});

Deno.test("a server stores passwords with Argon2id at OWASP's cost (19 MiB, two passes); test apps ask for the least", async () => {
  // A server's services, as `createServices` makes them when not asked for less.
  await using real = await testApp({ passwordHashing: undefined });
  await request(real, "POST", "/api/admin/create-main-admin", mainBody);
  const stored = await real.services.admins.getByEmail(mainBody.email);
  assert.match(stored!.passwordHash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  // A stored hash is verified at its own cost: the test app's cheap one signs in as well.
  await using cheap = await testApp();
  const main = await signInMain(cheap);
  assert.match((await cheap.services.admins.get(main.admin._id))!.passwordHash, /\$m=8,t=1,p=1\$/);
});

Deno.test("an unknown e-mail is checked against a hash of a real one's parameters and size that no password matches", async () => {
  const real = await hashPassword("first-admin-password");
  const parts = (hash: string) => hash.split("$");
  // "", "argon2id", "v=19", the parameters, the salt, the hash.
  assert.deepEqual(parts(DECOY_HASH).slice(0, 4), parts(real).slice(0, 4));
  assert.deepEqual(
    parts(DECOY_HASH).slice(4).map((part) => atob(part).length),
    parts(real).slice(4).map((part) => atob(part).length),
  );
  assert.notEqual(DECOY_HASH, await hashPassword(""));
  for (const password of ["", "first-admin-password", DECOY_HASH]) {
    assert.equal(await verifyPassword(password, DECOY_HASH), false, password);
  }
});

Deno.test("login: wrong password and unknown e-mail get the same answer; bad input is 400", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const wrong = await request(t, "POST", "/api/admin/login", {
    email: mainBody.email,
    password: "nope",
  });
  const unknown = await request(
    t,
    "POST",
    "/api/admin/login",
    {
      email: "nobody@example.com",
      password: "nope",
    },
    json,
    "198.51.100.1",
  );
  assert.deepEqual(wrong, { ...unknown, headers: wrong.headers });
  assert.deepEqual([wrong.status, wrong.body], [401, { message: "Invalid email or password" }]);

  const noEmail = await request(t, "POST", "/api/admin/login", { password: "x" });
  assert.deepEqual([noEmail.status, noEmail.body.message], [400, "Email is required"]);
  const badEmail = await request(t, "POST", "/api/admin/login", { email: "x@", password: "x" });
  assert.deepEqual([badEmail.status, badEmail.body.message], [
    400,
    "email: Please enter a valid email",
  ]);
  const noPassword = await request(t, "POST", "/api/admin/login", { email: "a@b.co" });
  assert.deepEqual([noPassword.status, noPassword.body.message], [
    400,
    "Password is required",
  ]);
});

Deno.test("logout ends the session at once", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const out = await request(t, "POST", "/api/admin/logout", undefined, main.headers);
  assert.deepEqual([out.status, out.body.message], [200, "Logged out successfully"]);
  const after = await request(t, "GET", "/api/admin/profile", undefined, main.headers);
  assert.equal(after.status, 401);
});

Deno.test("the main admin registers, lists, deactivates, reactivates and deletes admins", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const created = await request(t, "POST", "/api/admin/register", {
    username: "Editor",
    email: "editor@example.com",
    password: "quiet-lantern-7",
    permissions: { canViewAnalytics: false },
  }, main.headers);
  assert.equal(created.status, 201);
  assert.equal(created.body.message, "Admin created successfully");
  assert.deepEqual(created.body.admin.permissions, {
    ...NO_PERMISSIONS,
    canCreateJobs: true,
    canDeleteJobs: true,
  });
  assert.equal(created.body.admin.role, "admin");
  assert.equal(created.body.admin.lastLogin, null);

  const taken = await request(t, "POST", "/api/admin/register", {
    username: "Again",
    email: "EDITOR@example.com",
    password: "quiet-lantern-7",
  }, main.headers);
  assert.equal(taken.status, 409);
  const short = await request(t, "POST", "/api/admin/register", {
    username: "Short",
    email: "short@example.com",
    password: "12345",
  }, main.headers);
  assert.deepEqual([short.status, short.body.message], [
    400,
    "Password must be at least 6 characters",
  ]);

  const listed = await request(t, "GET", "/api/admin/all", undefined, main.headers);
  assert.deepEqual(listed.body.admins.map((a: { username: string }) => a.username), [
    "Main Admin",
    "Editor",
  ]);

  const editorLogin = await request(t, "POST", "/api/admin/login", {
    email: "editor@example.com",
    password: "quiet-lantern-7",
  });
  const editor = authHeaders(editorLogin.body.token);
  const id = created.body.admin._id;
  const off = await request(t, "PUT", `/api/admin/${id}/status`, { isActive: false }, main.headers);
  assert.deepEqual([off.status, off.body.message], [200, "Admin deactivated successfully"]);
  assert.equal((await request(t, "GET", "/api/admin/profile", undefined, editor)).status, 401);
  const refused = await request(t, "POST", "/api/admin/login", {
    email: "editor@example.com",
    password: "quiet-lantern-7",
  });
  assert.deepEqual(
    [refused.status, refused.body.message],
    [401, "Invalid email or password"],
    "a deactivated account's right password gets the wrong-password answer",
  );
  const on = await request(t, "PUT", `/api/admin/${id}/status`, { isActive: true }, main.headers);
  assert.equal(on.body.message, "Admin activated successfully");

  const gone = await request(t, "DELETE", `/api/admin/${id}`, undefined, main.headers);
  assert.deepEqual([gone.status, gone.body.message], [200, "Admin deleted successfully"]);
  assert.equal(
    (await request(t, "DELETE", `/api/admin/${id}`, undefined, main.headers)).status,
    404,
  );
  const relogin = await request(t, "POST", "/api/admin/login", {
    email: "editor@example.com",
    password: "quiet-lantern-7",
  });
  assert.equal(relogin.status, 401);
});

Deno.test("a main admin is never deactivated or deleted; admins cannot manage accounts", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const id = main.admin._id;
  const off = await request(t, "PUT", `/api/admin/${id}/status`, { isActive: false }, main.headers);
  assert.equal(off.status, 403);
  const del = await request(t, "DELETE", `/api/admin/${id}`, undefined, main.headers);
  assert.equal(del.status, 403);
  const manager = await signIn(t, { permissions: { canManageAdmins: true } });
  for (
    const [method, path, body] of [
      ["GET", "/api/admin/all"],
      ["POST", "/api/admin/register", {
        username: "x",
        email: "x@y.co",
        password: "quiet-lantern-7",
      }],
      ["PUT", `/api/admin/${id}/status`, { isActive: false }],
      ["DELETE", `/api/admin/${id}`],
    ] as const
  ) {
    const answer = await request(t, method, path, body, manager.headers);
    assert.equal(answer.status, 403, `${method} ${path}`);
  }
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, main.headers)).status,
    200,
  );
});

Deno.test("profile update: name and e-mail; a new password needs the current one and ends other sessions", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const other = await request(t, "POST", "/api/admin/login", {
    email: admin.email,
    password: admin.password,
  });
  const renamed = await request(t, "PUT", "/api/admin/profile", {
    username: "Renamed",
  }, admin.headers);
  assert.deepEqual([renamed.status, renamed.body.admin.username], [200, "Renamed"]);
  const emailWithoutPassword = await request(t, "PUT", "/api/admin/profile", {
    email: "renamed@example.com",
  }, admin.headers);
  assert.deepEqual([emailWithoutPassword.status, emailWithoutPassword.body.message], [
    400,
    "Current password is required to change the e-mail or password",
  ]);
  const moved = await request(t, "PUT", "/api/admin/profile", {
    email: "renamed@example.com",
    currentPassword: admin.password,
  }, admin.headers);
  assert.equal(moved.body.admin.email, "renamed@example.com");

  const noCurrent = await request(t, "PUT", "/api/admin/profile", {
    password: "new-password",
  }, admin.headers);
  assert.equal(noCurrent.status, 400);
  const wrongCurrent = await request(t, "PUT", "/api/admin/profile", {
    password: "new-password",
    currentPassword: "wrong",
  }, admin.headers);
  assert.deepEqual([wrongCurrent.status, wrongCurrent.body.message], [
    400,
    "Current password is incorrect",
  ]);
  const changed = await request(t, "PUT", "/api/admin/profile", {
    password: "new-password",
    currentPassword: admin.password,
  }, admin.headers);
  assert.equal(changed.status, 200);
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, admin.headers)).status,
    200,
  );
  const otherSession = authHeaders(other.body.token);
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, otherSession)).status,
    401,
  );
  const login = await request(t, "POST", "/api/admin/login", {
    email: "renamed@example.com",
    password: "new-password",
  });
  assert.equal(login.status, 200);
});

Deno.test("changing the e-mail ends the admin's other sessions and keeps this one", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const other = await request(t, "POST", "/api/admin/login", {
    email: admin.email,
    password: admin.password,
  });
  const changed = await request(t, "PUT", "/api/admin/profile", {
    email: "moved@example.com",
    currentPassword: admin.password,
  }, admin.headers);
  assert.equal(changed.status, 200);
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, admin.headers)).status,
    200,
  );
  const otherHeaders = authHeaders(other.body.token);
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, otherHeaders)).status,
    401,
  );
});

Deno.test(`an admin holds at most ${SESSIONS_PER_ADMIN} sessions; signing in again ends the oldest`, async () => {
  await using t = await testApp({ now: new Date("2026-06-01T00:00:00Z") });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const tokens = [];
  for (let i = 0; i < SESSIONS_PER_ADMIN + 2; i++) {
    t.clock.now = new Date(t.clock.now.getTime() + 1_000);
    const login = await request(t, "POST", "/api/admin/login", {
      email: mainBody.email,
      password: mainBody.password,
    });
    tokens.push(login.body.token);
  }
  const statuses = [];
  for (const token of tokens) {
    statuses.push(
      (await request(t, "GET", "/api/admin/profile", undefined, authHeaders(token))).status,
    );
  }
  assert.deepEqual(statuses, [401, 401, ...Array(SESSIONS_PER_ADMIN).fill(200)]);
});

Deno.test("once a main admin exists, create-main-admin answers the same whatever the secret", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const right = await request(t, "POST", "/api/admin/create-main-admin", {
    ...mainBody,
    email: "second@example.com",
  });
  const wrong = await request(t, "POST", "/api/admin/create-main-admin", {
    ...mainBody,
    email: "second@example.com",
    secretKey: "a-wrong-guess",
  });
  assert.deepEqual([right.status, right.body], [409, { message: "Main admin already exists" }]);
  assert.deepEqual([wrong.status, wrong.body], [right.status, right.body]);
});
