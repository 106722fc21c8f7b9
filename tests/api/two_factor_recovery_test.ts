/**
 * When an admin loses the second factor or the password: a mailed reset keeps two-factor sign-in
 * on (it proves the mailbox, not the device), the main admin can turn it off for another admin,
 * and a password changed on the profile ends every reset link mailed before.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { json, request, type SignedInAdmin, signIn, signInMain } from "../helpers/admins.ts";
import { totpCode } from "../helpers/totp.ts";

const SITE = "https://jobs.example.com";
type App = Awaited<ReturnType<typeof testApp>>;

async function turnOnTwoFactor(t: App, admin: SignedInAdmin): Promise<string> {
  const { secret } = (await request(t, "POST", "/api/admin/profile/totp", {}, admin.headers)).body;
  const on = await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: totpCode(secret, t.clock.now),
    password: admin.password,
  }, admin.headers);
  assert.equal(on.status, 200, on.body.message);
  return secret;
}

const login = (t: App, email: string, password: string, totp?: string) =>
  request(t, "POST", "/api/admin/login", { email, password, totp }, json, "198.51.100.9");

function tokenOf(text: string): string {
  const link = text.match(/https:\/\/jobs\.example\.com\/admin\/reset-password\?token=[\w%-]+/);
  assert.ok(link, `a reset link in: ${text}`);
  return decodeURIComponent(new URL(link[0]).searchParams.get("token")!);
}

Deno.test("a mailed password reset keeps two-factor sign-in on and says so", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const admin = await signIn(t);
  const secret = await turnOnTwoFactor(t, admin);
  await request(t, "POST", "/api/admin/password-reset", { email: admin.email });
  const [mail] = await smtp.received(1);
  const done = await request(t, "POST", "/api/admin/password-reset/confirm", {
    token: tokenOf(mail.text),
    password: "violet kettle harbour",
  });
  assert.equal(done.status, 200, done.body.message);
  assert.match(done.body.twoFactor, /Two-factor sign-in stays on/);
  assert.match(done.body.twoFactor, /Ask the main admin/);
  const asked = await login(t, admin.email, "violet kettle harbour");
  assert.deepEqual([asked.status, asked.body.totpRequired, asked.body.token], [
    401,
    true,
    undefined,
  ]);
  t.clock.now = new Date(t.clock.now.getTime() + 30_000);
  const signedIn = await login(
    t,
    admin.email,
    "violet kettle harbour",
    totpCode(secret, t.clock.now),
  );
  assert.equal(signedIn.status, 200);
});

Deno.test("the main admin turns off another admin's two-factor sign-in: their sessions end, the log says so", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const other = await signIn(t, { permissions: { canManageAdmins: true } });
  const third = await signIn(t);
  await turnOnTwoFactor(t, other);
  await turnOnTwoFactor(t, main);
  const off = (by: SignedInAdmin, id: string) =>
    request(t, "DELETE", `/api/admin/${id}/two-factor`, undefined, by.headers);

  const byOther = await off(other, third.admin._id);
  assert.equal(byOther.status, 403, "only the main admin, even with canManageAdmins");
  assert.equal((await off(main, main.admin._id)).status, 403, "not the main admin's own");
  assert.equal((await off(main, "nobody")).status, 404);
  assert.equal((await off(main, third.admin._id)).status, 409, "not on for this admin");

  const done = await off(main, other.admin._id);
  assert.equal(done.status, 200, done.body.message);
  assert.equal(done.body.message, `Two-factor sign-in is off for ${other.admin.username}`);
  assert.equal(done.body.admin.twoFactorEnabled, false);
  assert.equal(
    (await request(t, "GET", "/api/admin/profile", undefined, other.headers)).status,
    401,
    "a session on the lost device has ended",
  );
  assert.equal((await login(t, other.email, other.password)).status, 200, "no code asked");
  assert.equal((await off(main, other.admin._id)).status, 409);

  const log = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "admin.two_factor_off",
  });
  assert.equal(log.records.length, 1);
  assert.equal(log.records[0].actor.id, main.admin._id);
  assert.equal(log.records[0].target?.id, other.admin._id);
  assert.match(JSON.stringify(log.records[0].change), /twoFactorEnabled/);
});

Deno.test("a password or e-mail changed on the profile ends every reset link mailed before", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const admin = await signIn(t);
  const ask = () => request(t, "POST", "/api/admin/password-reset", { email: admin.email });
  await ask();
  await ask();
  const links = (await smtp.received(2)).map((mail) => tokenOf(mail.text));
  const changed = await request(t, "PUT", "/api/admin/profile", {
    currentPassword: admin.password,
    password: "a new profile passphrase",
  }, admin.headers);
  assert.equal(changed.status, 200, changed.body.message);
  for (const token of links) {
    const used = await request(t, "POST", "/api/admin/password-reset/confirm", {
      token,
      password: "violet kettle harbour",
    });
    assert.equal(used.status, 400);
    assert.match(used.body.message, /already used, or it has expired/);
  }
  assert.equal((await login(t, admin.email, "a new profile passphrase")).status, 200);

  await ask();
  const [, , third] = await smtp.received(3);
  const moved = await request(t, "PUT", "/api/admin/profile", {
    currentPassword: "a new profile passphrase",
    email: `moved-${admin.email}`,
  }, admin.headers);
  assert.equal(moved.status, 200, moved.body.message);
  const late = await request(t, "POST", "/api/admin/password-reset/confirm", {
    token: tokenOf(third.text),
    password: "violet kettle harbour",
  });
  assert.equal(late.status, 400, "a link sent to the old mailbox ends with the e-mail");
});
