import assert from "node:assert/strict";
import { type TestApp, testApp } from "../helpers/server.ts";
import { authHeaders, signIn, signInMain } from "../helpers/admins.ts";
import {
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  SESSIONS_PER_ADMIN,
} from "../../kv/constants.ts";
import { HASHES_AT_ONCE, HASHES_WAITING, HASHING_RETRY_SECONDS } from "../../server/passwords.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";

const json = { "content-type": "application/json" };

async function request(
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

const mainBody = {
  username: "Owner",
  email: "Owner@Example.com",
  password: "correct horse",
  secretKey: "test-main-admin-secret",
};

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
  assert.deepEqual(login.body.admin.permissions, {
    canCreateJobs: true,
    canDeleteJobs: true,
    canViewAnalytics: true,
    canManageAdmins: true,
  });
  assert.ok(login.body.admin.lastLogin);

  const profile = await request(t, "GET", "/api/admin/profile", undefined, {
    authorization: `Bearer ${login.body.token}`,
  });
  assert.equal(profile.status, 200);
  assert.equal(profile.body.username, "Owner");
  assert.equal(profile.body.role, "main_admin");
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
  assert.deepEqual([noEmail.status, noEmail.body.message], [400, "email: Email is required"]);
  const badEmail = await request(t, "POST", "/api/admin/login", { email: "x@", password: "x" });
  assert.deepEqual([badEmail.status, badEmail.body.message], [
    400,
    "email: Please enter a valid email",
  ]);
  const noPassword = await request(t, "POST", "/api/admin/login", { email: "a@b.co" });
  assert.deepEqual([noPassword.status, noPassword.body.message], [
    400,
    "password: Password is required",
  ]);
});

Deno.test("5 failures lock one account from one address only; 20 lock the address; the window ends", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T00:00:00Z") });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const attempt = (email: string, password: string, address: string) =>
    request(t, "POST", "/api/admin/login", { email, password }, json, address);

  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    assert.equal((await attempt(mainBody.email, "bad", "192.0.2.1")).status, 401, `failure ${i}`);
  }
  const blocked = await attempt(mainBody.email, mainBody.password, "192.0.2.1");
  assert.equal(blocked.status, 429, "from that address even the right password waits");
  assert.equal(blocked.headers.get("retry-after"), String(LOGIN_WINDOW_MS / 1000));
  assert.match(blocked.body.message, /Too many failed sign-in attempts/);
  assert.equal(
    (await attempt(mainBody.email, mainBody.password, "192.0.2.2")).status,
    200,
    "the owner at another address signs in",
  );

  t.clock.now = new Date(t.clock.now.getTime() + LOGIN_WINDOW_MS - 1_000);
  const late = await attempt(mainBody.email, mainBody.password, "192.0.2.1");
  assert.deepEqual([late.status, late.headers.get("retry-after")], [429, "1"]);
  t.clock.now = new Date(t.clock.now.getTime() + 1_001);
  assert.equal((await attempt(mainBody.email, mainBody.password, "192.0.2.1")).status, 200);

  for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
    assert.equal((await attempt(`user${i}@example.com`, "bad", "198.51.100.50")).status, 401);
  }
  const fromAddress = await attempt(mainBody.email, mainBody.password, "198.51.100.50");
  assert.equal(fromAddress.status, 429);
  assert.equal((await attempt(mainBody.email, mainBody.password, "198.51.100.51")).status, 200);
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
    password: "secret1",
    permissions: { canViewAnalytics: false },
  }, main.headers);
  assert.equal(created.status, 201);
  assert.equal(created.body.message, "Admin created successfully");
  assert.deepEqual(created.body.admin.permissions, {
    canCreateJobs: true,
    canDeleteJobs: true,
    canViewAnalytics: false,
    canManageAdmins: false,
  });
  assert.equal(created.body.admin.role, "admin");
  assert.equal(created.body.admin.lastLogin, null);

  const taken = await request(t, "POST", "/api/admin/register", {
    username: "Again",
    email: "EDITOR@example.com",
    password: "secret1",
  }, main.headers);
  assert.equal(taken.status, 409);
  const short = await request(t, "POST", "/api/admin/register", {
    username: "Short",
    email: "short@example.com",
    password: "12345",
  }, main.headers);
  assert.deepEqual([short.status, short.body.message], [
    400,
    "password: Password must be at least 6 characters",
  ]);

  const listed = await request(t, "GET", "/api/admin/all", undefined, main.headers);
  assert.deepEqual(listed.body.admins.map((a: { username: string }) => a.username), [
    "Main Admin",
    "Editor",
  ]);

  const editorLogin = await request(t, "POST", "/api/admin/login", {
    email: "editor@example.com",
    password: "secret1",
  });
  const editor = authHeaders(editorLogin.body.token);
  const id = created.body.admin._id;
  const off = await request(t, "PUT", `/api/admin/${id}/status`, { isActive: false }, main.headers);
  assert.deepEqual([off.status, off.body.message], [200, "Admin deactivated successfully"]);
  assert.equal((await request(t, "GET", "/api/admin/profile", undefined, editor)).status, 401);
  const refused = await request(t, "POST", "/api/admin/login", {
    email: "editor@example.com",
    password: "secret1",
  });
  assert.equal(refused.status, 403);
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
    password: "secret1",
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
      ["POST", "/api/admin/register", { username: "x", email: "x@y.co", password: "secret1" }],
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
    "currentPassword: Current password is required to change the e-mail or password",
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

Deno.test("a burst of parallel guesses is throttled as if they came one by one", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const answers = await Promise.all(
    Array.from(
      { length: HASHES_AT_ONCE + HASHES_WAITING },
      (_, i) =>
        request(t, "POST", "/api/admin/login", {
          email: mainBody.email,
          password: `guess-${i}`,
        }),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  const failures = LOGIN_FAILURES_PER_ACCOUNT_ADDRESS;
  assert.equal(statuses.filter((status) => status === 401).length, failures);
  assert.equal(statuses.filter((status) => status === 429).length, statuses.length - failures);
});

Deno.test("signing in successfully does not use up the address's allowance", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  for (let i = 0; i < 25; i++) {
    const login = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: mainBody.email,
        password: mainBody.password,
      },
      json,
      "198.51.100.77",
    );
    assert.equal(login.status, 200, `sign-in ${i + 1}`);
  }
});

/** Requests that come through a reverse proxy at 127.0.0.1 on behalf of `client`. */
const proxied = (client: string, headers: Record<string, string> = json) => ({
  ...headers,
  "x-forwarded-for": client,
});

Deno.test("behind a trusted proxy, a flood from many addresses never locks the owner out", async () => {
  await using t = await testApp({ config: { TRUSTED_PROXIES: ["127.0.0.1", "10.0.0.0/8"] } });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const login = (password: string, headers: Record<string, string>, address = "127.0.0.1") =>
    request(t, "POST", "/api/admin/login", { email: mainBody.email, password }, headers, address);

  // As many attackers at once as the hash queue holds, each failing until it is stopped.
  const attackers = HASHES_AT_ONCE + HASHES_WAITING;
  const statuses = [];
  for (let round = 0; round < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS + 2; round++) {
    const answers = await Promise.all(
      Array.from({ length: attackers }, (_, i) => login("guess", proxied(`198.51.100.${i}`))),
    );
    statuses.push(...answers.map((answer) => answer.status));
  }
  assert.equal(statuses.filter((status) => status === 401).length, attackers * 5);
  assert.equal(statuses.filter((status) => status === 429).length, attackers * 2);

  const owner = await login(mainBody.password, proxied("203.0.113.20"));
  assert.equal(owner.status, 200, "the owner's own address still signs in");
  // A chain of proxies: the nearest address that is not a trusted proxy is the client's.
  const chained = await login(mainBody.password, proxied("198.51.100.3, 203.0.113.20, 10.1.2.3"));
  assert.equal(chained.status, 200);
  const spoofed = await login(mainBody.password, proxied("203.0.113.20, 198.51.100.3"));
  assert.equal(spoofed.status, 429, "an address the client wrote to the left proves nothing");
});

Deno.test("forwarding headers from anyone but a trusted proxy are ignored", async () => {
  for (const config of [{}, { TRUSTED_PROXIES: ["10.0.0.1"] }]) {
    await using t = await testApp({ config });
    await request(t, "POST", "/api/admin/create-main-admin", mainBody);
    const statuses = [];
    for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) {
      const answer = await request(
        t,
        "POST",
        "/api/admin/login",
        {
          email: `user${i}@example.com`,
          password: "bad",
        },
        proxied(`198.51.100.${i}`),
        "203.0.113.9",
      );
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
  }
});

Deno.test("the addresses of one IPv6 /64 count as one address", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const statuses = [];
  for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) {
    const address = i % 2 ? `2001:db8:0:7::${i.toString(16)}` : `2001:DB8::7:${i}:0:0:1`;
    const answer = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: `user${i}@example.com`,
        password: "bad",
      },
      json,
      address,
    );
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
  const other = await request(
    t,
    "POST",
    "/api/admin/login",
    {
      email: mainBody.email,
      password: mainBody.password,
    },
    json,
    "2001:db8:0:8::1",
  );
  assert.equal(other.status, 200);
});

Deno.test("sign-ins beyond the hash queue get 503 with Retry-After, and cost no attempt", async () => {
  await using t = await testApp({ config: { TRUSTED_PROXIES: ["127.0.0.1"] } });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const burst = HASHES_AT_ONCE + HASHES_WAITING + 30;
  const answers = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      request(
        t,
        "POST",
        "/api/admin/login",
        {
          email: `unknown${i}@example.com`,
          password: "guess",
        },
        proxied(`198.51.100.${i}`),
        "127.0.0.1",
      )),
  );
  const busy = answers.filter((answer) => answer.status === 503);
  assert.ok(busy.length >= burst - 2 * (HASHES_AT_ONCE + HASHES_WAITING), `${busy.length} busy`);
  assert.deepEqual(
    answers.filter((answer) => answer.status !== 503).map((answer) => answer.status),
    Array(burst - busy.length).fill(401),
  );
  assert.deepEqual(busy[0].body, {
    message: "The server is busy. Please try again in a few seconds.",
  });
  assert.equal(busy[0].headers.get("retry-after"), String(HASHING_RETRY_SECONDS));

  // An attempt refused as busy was never checked: the address keeps its whole allowance.
  const refused = answers.findIndex((answer) => answer.status === 503);
  const statuses = [];
  for (let i = 0; i <= LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    const answer = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: `unknown${refused}@example.com`,
        password: "guess",
      },
      proxied(`198.51.100.${refused}`),
      "127.0.0.1",
    );
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ACCOUNT_ADDRESS).fill(401), 429]);
});

Deno.test("the current password of a profile update is throttled as sign-in is", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const update = (currentPassword: string, address: string) =>
    request(
      t,
      "PUT",
      "/api/admin/profile",
      {
        password: "another-password",
        currentPassword,
      },
      admin.headers,
      address,
    );
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    const wrong = await update(`guess-${i}`, "192.0.2.40");
    assert.deepEqual([wrong.status, wrong.body.message], [400, "Current password is incorrect"]);
  }
  const blocked = await update(admin.password, "192.0.2.40");
  assert.equal(blocked.status, 429);
  assert.match(blocked.body.message, /Too many failed sign-in attempts/);
  const signInThere = await request(
    t,
    "POST",
    "/api/admin/login",
    {
      email: admin.email,
      password: admin.password,
    },
    json,
    "192.0.2.40",
  );
  assert.equal(signInThere.status, 429, "sign-in from that address shares the allowance");
  assert.equal((await update(admin.password, "192.0.2.41")).status, 200);
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

Deno.test("TRUSTED_PROXIES takes addresses and CIDR ranges, and refuses anything else", () => {
  assert.deepEqual(loadConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,::1" }).TRUSTED_PROXIES, [
    "127.0.0.1",
    "10.0.0.0/8",
    "::1",
  ]);
  assert.deepEqual(loadConfig({}).TRUSTED_PROXIES, []);
  for (const bad of ["proxy.local", "10.0.0.0/33", "1.2.3.4/", "127.0.0.1,,::1"]) {
    assert.throws(
      () => loadConfig({ TRUSTED_PROXIES: bad }),
      (error) =>
        error instanceof ConfigError && /TRUSTED_PROXIES must be IP addresses/.test(error.message),
      bad,
    );
  }
});
