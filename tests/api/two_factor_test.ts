/** Two-factor sign-in (RFC 6238) with codes computed here, independently of the server's code. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { json, request, signIn, signInMain } from "../helpers/admins.ts";
import { base32Encode, hotp } from "../../server/totp.ts";
import { totpCode as code } from "../helpers/totp.ts";
import { RECOVERY_CODE_COUNT } from "../../kv/constants.ts";

Deno.test("the server's HOTP gives RFC 6238's test vectors", async () => {
  const secret = base32Encode(new TextEncoder().encode("12345678901234567890"));
  assert.equal(await hotp(secret, 1), "287082");
  assert.equal(await hotp(secret, 37037036), "081804");
  assert.equal(await hotp(secret, 37037037), "050471");
  assert.equal(await hotp(secret, 41152263), "005924");
});

Deno.test("TOTP: set up with a QR link, sign in with a code, a recovery code once, turn off with password and code", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T09:00:10Z") });
  const admin = await signIn(t);
  const setup = await request(t, "POST", "/api/admin/profile/totp", {}, admin.headers);
  assert.equal(setup.status, 200);
  const { secret, otpauthUrl } = setup.body;
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(
    otpauthUrl,
    `otpauth://totp/CareerEdge%3A${encodeURIComponent(admin.email)}?secret=${secret}` +
      "&issuer=CareerEdge&algorithm=SHA1&digits=6&period=30",
  );
  const wrongFirst = await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: "000000",
    password: admin.password,
  }, admin.headers);
  assert.equal(wrongFirst.status, 400);
  // A stolen session alone cannot turn it on (and so lock its owner out): the password is asked.
  for (
    const [password, message] of [
      [undefined, "Password is required"],
      ["not-the-password", "Current password is incorrect"],
    ]
  ) {
    const refused = await request(t, "POST", "/api/admin/profile/totp/confirm", {
      code: code(secret, t.clock.now),
      password,
    }, admin.headers);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, new RegExp(message!));
  }
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, admin.headers)).body
      .twoFactorEnabled,
    false,
  );
  const confirmed = await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: code(secret, t.clock.now),
    password: admin.password,
  }, admin.headers);
  assert.equal(confirmed.status, 200, confirmed.body.message);
  assert.equal(confirmed.body.admin.twoFactorEnabled, true);
  const recovery: string[] = confirmed.body.recoveryCodes;
  assert.equal(recovery.length, RECOVERY_CODE_COUNT);
  assert.equal(new Set(recovery).size, 10);
  assert.ok(!JSON.stringify(confirmed.body.admin).includes(secret), "the secret never comes back");

  const login = (body: Record<string, string>, address = "198.51.100.9") =>
    request(t, "POST", "/api/admin/login", { email: admin.email, ...body }, json, address);
  const asked = await login({ password: admin.password });
  assert.deepEqual([asked.status, asked.body.totpRequired, asked.body.token], [
    401,
    true,
    undefined,
  ]);
  assert.equal(
    (await login({ password: "wrong-password", totp: code(secret, t.clock.now) })).status,
    401,
  );

  t.clock.now = new Date("2026-06-01T09:01:00Z");
  const withCode = await login({ password: admin.password, totp: code(secret, t.clock.now) });
  assert.equal(withCode.status, 200);
  assert.ok(withCode.body.token);
  const replayed = await login({ password: admin.password, totp: code(secret, t.clock.now) });
  assert.deepEqual(
    [replayed.status, replayed.body.totpRequired],
    [401, true],
    "no code works twice",
  );
  const drifted = await login({ password: admin.password, totp: code(secret, t.clock.now, 1) });
  assert.equal(drifted.status, 200, "a phone 30 seconds ahead is fine");
  assert.equal(
    (await login({ password: admin.password, totp: code(secret, t.clock.now, 5) })).status,
    401,
  );

  const byRecovery = await login({ password: admin.password, totp: recovery[0].toUpperCase() });
  assert.equal(byRecovery.status, 200, "a recovery code, in any case");
  assert.equal((await login({ password: admin.password, totp: recovery[0] })).status, 401);

  const headers = { ...admin.headers, authorization: `Bearer ${withCode.body.token}` };
  const noPassword = await request(t, "DELETE", "/api/admin/profile/totp", {
    password: "wrong-password",
    code: recovery[1],
  }, headers);
  assert.equal(noPassword.status, 400);
  const off = await request(t, "DELETE", "/api/admin/profile/totp", {
    password: admin.password,
    code: recovery[1],
  }, headers);
  assert.deepEqual([off.status, off.body.admin.twoFactorEnabled], [200, false]);
  assert.equal((await login({ password: admin.password })).status, 200);
});

Deno.test("the main admin requires two-factor sign-in of every admin: others may only set it up", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const other = await signIn(t, { permissions: { canCreateJobs: true } });
  const draft = await request(
    t,
    "POST",
    "/api/jobs",
    { role: "Draft", status: "draft" },
    other.headers,
  );
  const readDraft = () =>
    request(t, "GET", `/api/jobs/${draft.body.job._id}`, undefined, other.headers);
  assert.equal((await readDraft()).status, 200);
  const require = (required: boolean) =>
    request(t, "PUT", "/api/admin/settings/two-factor", { required }, main.headers);
  assert.deepEqual(
    [(await require(true)).status, (await require(true)).body.message],
    [409, "Turn on two-factor sign-in for your own account first"],
  );
  const { secret } = (await request(t, "POST", "/api/admin/profile/totp", {}, main.headers)).body;
  await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: code(secret, t.clock.now),
    password: main.password,
  }, main.headers);
  assert.equal((await require(true)).status, 200);

  const blocked = await request(t, "GET", "/api/jobs/admin/all", undefined, other.headers);
  assert.deepEqual([blocked.status, blocked.body.twoFactorSetupRequired], [403, true]);
  assert.match(blocked.body.message, /Two-factor sign-in is required/);
  assert.equal((await readDraft()).status, 404, "a job is read as a visitor reads it");
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, other.headers)).status,
    200,
  );
  const own = await request(t, "POST", "/api/admin/profile/totp", {}, other.headers);
  await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: code(own.body.secret, t.clock.now),
    password: other.password,
  }, other.headers);
  assert.equal(
    (await request(t, "GET", "/api/jobs/admin/all", undefined, other.headers)).status,
    200,
  );
  assert.equal((await readDraft()).status, 200);
});

Deno.test("two sign-ins racing with one code: exactly one gets in, and an older step is refused", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T09:00:10Z") });
  const admin = await signIn(t);
  const { secret } = (await request(t, "POST", "/api/admin/profile/totp", {}, admin.headers)).body;
  const first = code(secret, t.clock.now, -1);
  const on = await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: first,
    password: admin.password,
  }, admin.headers);
  assert.equal(on.status, 200);
  const recovery: string = on.body.recoveryCodes[0];
  const login = (totp: string, address: string) =>
    request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: admin.email,
        password: admin.password,
        totp,
      },
      json,
      address,
    );
  const now = code(secret, t.clock.now);
  const raced = await Promise.all([login(now, "198.51.100.1"), login(now, "203.0.113.1")]);
  assert.deepEqual(raced.map((answer) => answer.status).sort(), [200, 401]);
  assert.equal(raced.filter((answer) => answer.body.token).length, 1, "one token only");
  assert.equal(raced.find((answer) => answer.status === 401)?.body.totpRequired, true);
  assert.equal(
    (await login(first, "198.51.100.2")).status,
    401,
    "the set-up code's step is spent too",
  );
  assert.equal((await login(code(secret, t.clock.now, 1), "198.51.100.3")).status, 200);
  assert.equal(
    (await login(now, "198.51.100.4")).status,
    401,
    "an older step than the last accepted one is refused",
  );
  const byRecovery = await Promise.all([
    login(recovery, "198.51.100.5"),
    login(recovery, "203.0.113.5"),
  ]);
  assert.deepEqual(
    byRecovery.map((answer) => answer.status).sort(),
    [200, 401],
    "a recovery code raced twice also gets in once",
  );
});
