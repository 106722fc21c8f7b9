/**
 * An account that failed sign-ins from many addresses hold back: the owner still gets in with a
 * right two-factor code, or from a browser confirmed by a link mailed over SMTP, while a guesser
 * without them learns nothing and waits.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { json, request, type SignedInAdmin, signIn } from "../helpers/admins.ts";
import { totpCode } from "../helpers/totp.ts";
import {
  DEVICE_LINK_MAILS_PER_HOUR,
  DEVICE_LINK_MINUTES,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  LOGIN_FAILURES_PER_ADDRESS,
  TWO_FACTOR_TRIES_PER_ACCOUNT,
} from "../../kv/constants.ts";
import { keys } from "../../kv/keys.ts";
import { tokenHash } from "../../kv/alerts.ts";
import { mailsSent } from "../../server/mail.ts";

const SITE = "https://jobs.example.com";
type App = Awaited<ReturnType<typeof testApp>>;

const login = (t: App, body: Record<string, string>, address: string, cookie?: string) =>
  request(t, "POST", "/api/admin/login", body, cookie ? { ...json, cookie } : json, address);

/** Failures from as many addresses as the account allows, so a new browser is held back. */
async function lockOut(t: App, email: string) {
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
    const guess = await login(t, { email, password: `guess-${i}` }, `198.18.0.${i}`);
    assert.equal(guess.status, 401);
  }
  const held = await login(t, { email, password: "guess-again" }, "198.18.1.1");
  assert.deepEqual([held.status, held.body.accountLocked], [429, true]);
  return held.body.message as string;
}

async function turnOnTwoFactor(t: App, admin: SignedInAdmin): Promise<string> {
  const { secret } = (await request(t, "POST", "/api/admin/profile/totp", {}, admin.headers)).body;
  await request(t, "POST", "/api/admin/profile/totp/confirm", {
    code: totpCode(secret, t.clock.now, -1),
    password: admin.password,
  }, admin.headers);
  return secret;
}

Deno.test("a held-back account lets its owner in with a right code; a guesser without one learns nothing", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T09:00:10Z") });
  const admin = await signIn(t);
  const secret = await turnOnTwoFactor(t, admin);
  const message = await lockOut(t, admin.email);
  assert.match(message, /authenticator app, or have a link e-mailed to you/);
  assert.equal(
    await lockOut(t, "nobody@careeredge.test"),
    message,
    "an unknown address is told the same",
  );

  const owner = { email: admin.email, password: admin.password };
  const noCode = await login(t, owner, "203.0.113.50");
  assert.deepEqual([noCode.status, noCode.body.accountLocked], [429, true]);
  const wrongCode = await login(t, { ...owner, totp: "000000" }, "203.0.113.50");
  assert.deepEqual(
    [wrongCode.status, wrongCode.body.accountLocked],
    [429, true],
    "a wrong code is refused before the password is checked",
  );
  const code = totpCode(secret, t.clock.now);
  const wrongPassword = await login(t, { ...owner, password: "guess", totp: code }, "203.0.113.50");
  assert.equal(wrongPassword.status, 401);
  const signedIn = await login(t, { ...owner, totp: code }, "203.0.113.50");
  assert.equal(signedIn.status, 200, signedIn.body.message);
  assert.ok(signedIn.body.token);
  const replay = await login(t, { ...owner, totp: code }, "203.0.113.51");
  assert.equal(replay.status, 429, "a spent code does not open the account again");
});

Deno.test("a held-back account: a link mailed over SMTP confirms a browser once, which then signs in with the password", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const admin = await signIn(t);
  await lockOut(t, admin.email);
  const owner = { email: admin.email, password: admin.password };
  assert.equal((await login(t, owner, "203.0.113.60")).status, 429);

  const ask = (email: string) => request(t, "POST", "/api/admin/device-link", { email });
  const unknown = await ask("nobody@careeredge.test");
  const known = await ask(` ${admin.email.toUpperCase()} `);
  assert.deepEqual([unknown.status, known.status], [202, 202]);
  assert.deepEqual(unknown.body, known.body, "the same answer for any address");
  assert.ok(
    known.body.message.includes(
      `Open it here, in this browser, within ${DEVICE_LINK_MINUTES} minutes`,
    ),
  );
  const [mail] = await smtp.received(1);
  await mailsSent();
  assert.equal(smtp.mails.length, 1, "no mail for an unknown address");
  assert.deepEqual(mail.to, [admin.email]);
  assert.match(mail.header("Subject")!, /Confirm a browser for your CareerEdge admin account/);
  const link = mail.text.match(
    /https:\/\/jobs\.example\.com\/admin\/confirm-browser\?token=[\w%-]+/,
  );
  assert.ok(link, mail.text);
  const token = decodeURIComponent(new URL(link[0]).searchParams.get("token")!);
  assert.ok(token.length >= 43, "256 random bits, base64url");
  assert.equal((await t.services.kv.get(keys.deviceLink(token))).value, null);
  assert.ok((await t.services.kv.get(keys.deviceLink(await tokenHash(token)))).value, "hashed");

  const page = (method: string, body?: string) =>
    t.app.request(
      method === "GET"
        ? `/admin/confirm-browser?token=${encodeURIComponent(token)}`
        : "/admin/confirm-browser",
      {
        method,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      },
      { remoteAddr: { hostname: "203.0.113.60", port: 40000, transport: "tcp" } },
    );
  for (let i = 0; i < 2; i++) {
    const opened = await page("GET");
    assert.equal(opened.status, 200, "opening the link (a mail scanner too) spends nothing");
    assert.equal(opened.headers.get("referrer-policy"), "no-referrer");
    assert.match(await opened.text(), /Confirm this browser/);
  }
  const confirmed = await page("POST", `token=${encodeURIComponent(token)}`);
  assert.equal(confirmed.status, 200);
  assert.match(await confirmed.text(), /This browser is confirmed\. Sign in with your password\./);
  const setCookie = confirmed.headers.get("set-cookie") ?? "";
  assert.match(setCookie, /^careeredge_device=[\w-]+;.*Path=\/api\/admin.*HttpOnly/);
  const again = await page("POST", `token=${encodeURIComponent(token)}`);
  assert.equal(again.status, 400);
  assert.match(await again.text(), /already used, or it has expired/);

  const cookie = setCookie.split(";")[0];
  assert.equal(
    (await login(t, { ...owner, password: "guess" }, "203.0.113.60", cookie)).status,
    401,
    "the confirmed browser still needs the password",
  );
  const signedIn = await login(t, owner, "203.0.113.60", cookie);
  assert.equal(signedIn.status, 200, signedIn.body.message);
  assert.equal((await login(t, owner, "203.0.113.61")).status, 429, "other browsers still wait");

  const log = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "auth.browser_confirmed",
  });
  assert.equal(log.records.length, 1);
  assert.equal(log.records[0].target?.id, admin.admin._id);
});

Deno.test(`a browser link runs out in ${DEVICE_LINK_MINUTES} minutes, and an account gets at most ${DEVICE_LINK_MAILS_PER_HOUR} such mails an hour`, async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const admin = await signIn(t);
  for (let i = 0; i < DEVICE_LINK_MAILS_PER_HOUR + 2; i++) {
    assert.equal(
      (await request(t, "POST", "/api/admin/device-link", { email: admin.email })).status,
      202,
    );
  }
  const mails = await smtp.received(DEVICE_LINK_MAILS_PER_HOUR);
  await mailsSent();
  assert.equal(smtp.mails.length, DEVICE_LINK_MAILS_PER_HOUR);
  const token = new URL(mails[0].text.match(/https:\S+confirm-browser\S+/)![0]).searchParams.get(
    "token",
  )!;
  t.clock.now = new Date(t.clock.now.getTime() + DEVICE_LINK_MINUTES * 60_000 + 1);
  const late = await t.app.request(`/admin/confirm-browser?token=${encodeURIComponent(token)}`);
  assert.equal(late.status, 400);
  assert.match(await late.text(), /already used, or it has expired/);
  const bad = await request(t, "POST", "/api/admin/device-link", { email: "not an address" });
  assert.equal(bad.status, 400);
});

Deno.test("a held-back account: wrong codes still use up the guessing address's allowance", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T09:00:10Z") });
  const admin = await signIn(t);
  const secret = await turnOnTwoFactor(t, admin);
  await lockOut(t, admin.email);
  const owner = { email: admin.email, password: admin.password };
  const right = totpCode(secret, t.clock.now);
  const wrong = right === "000000" ? "000001" : "000000";
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    const guess = await login(t, { ...owner, totp: wrong }, "203.0.113.70");
    assert.deepEqual([guess.status, guess.body.accountLocked], [429, true]);
  }
  const after = await login(t, { ...owner, totp: right }, "203.0.113.70");
  assert.equal(after.status, 429, "the code is no longer checked from there");
  assert.equal(after.body.accountLocked, undefined);
  const elsewhere = await login(t, { ...owner, totp: right }, "203.0.113.71");
  assert.equal(elsewhere.status, 200, "the owner elsewhere signs in with the code");
});

Deno.test("a guesser holding the password gets few two-factor codes over all addresses; the owner's browser still signs in", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T09:00:10Z") });
  const admin = await signIn(t);
  const secret = await turnOnTwoFactor(t, admin);
  const owner = { email: admin.email, password: admin.password };
  // The owner's browser signs in once, and is known from then on.
  const first = await login(t, { ...owner, totp: totpCode(secret, t.clock.now) }, "192.0.2.1");
  assert.equal(first.status, 200, first.body.message);
  const browser = first.headers.get("set-cookie")!.match(/careeredge_device=[\w-]+/)![0];
  t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  const right = () => totpCode(secret, t.clock.now);
  const wrong = () => right() === "000000" ? "000001" : "000000";
  // Wrong codes from address after address, one each: no address's own allowance is reached.
  for (let i = 0; i < TWO_FACTOR_TRIES_PER_ACCOUNT; i++) {
    const guess = await login(t, { ...owner, totp: wrong() }, `2001:db8:${i}::1`);
    assert.equal(guess.status, i < LOGIN_FAILURES_PER_ACCOUNT ? 401 : 429, `guess ${i}`);
  }
  // From a new address even the right code is not checked now.
  const refused = await login(t, { ...owner, totp: right() }, "2001:db8:ffff::1");
  assert.deepEqual([refused.status, refused.body.accountLocked], [429, true]);
  assert.match(refused.body.message, /^Too many two-factor codes for this account/);
  assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
  // The owner's known browser is not held to it, mistyped code and all.
  const mistyped = await login(t, { ...owner, totp: wrong() }, "192.0.2.1", browser);
  assert.equal(mistyped.status, 401);
  const owners = await login(t, { ...owner, totp: right() }, "192.0.2.1", browser);
  assert.equal(owners.status, 200, owners.body.message);
  // After the window a right code opens a new browser again.
  t.clock.now = new Date(t.clock.now.getTime() + 16 * 60_000);
  const later = await login(t, { ...owner, totp: right() }, "2001:db8:ffff::1");
  assert.equal(later.status, 200, later.body.message);
});

Deno.test("a browser the account knows keeps its own allowance behind an address others use up", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const owner = { email: admin.email, password: admin.password };
  const office = "203.0.113.90";
  const first = await login(t, owner, office);
  assert.equal(first.status, 200, first.body.message);
  const browser = first.headers.get("set-cookie")!.match(/careeredge_device=[\w-]+/)![0];
  // Someone behind the same address uses up its allowance: on the owner's account, then on any.
  for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
    const email = i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS ? admin.email : `other-${i}@example.com`;
    assert.equal((await login(t, { email, password: `guess-${i}` }, office)).status, 401);
  }
  assert.equal((await login(t, owner, office)).status, 429, "a new browser there waits");
  const known = await login(t, owner, office, browser);
  assert.equal(known.status, 200, known.body.message);
  // Its own mistakes still count, as its own.
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    assert.equal((await login(t, { ...owner, password: "typo" }, office, browser)).status, 401);
  }
  assert.equal((await login(t, owner, office, browser)).status, 429);
});

Deno.test("a device id set in a browser by someone else is replaced at sign-in, never made known", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const owner = { email: admin.email, password: admin.password };
  const deviceOf = (setCookie: string | null) =>
    setCookie?.match(/careeredge_device=([\w-]+)/)?.[1];
  // Planted from a subdomain, say: an id the planter's own browser holds too.
  const planted = "planted-device-id-0123456789";
  const first = await login(t, owner, "203.0.113.70", `careeredge_device=${planted}`);
  assert.equal(first.status, 200);
  const issued = deviceOf(first.headers.get("set-cookie"));
  assert.ok(issued && issued !== planted, issued);
  assert.equal(await t.services.sessions.knowsDevice(admin.admin._id, planted), false);
  await lockOut(t, admin.email);
  assert.equal(
    (await login(t, owner, "203.0.113.71", `careeredge_device=${planted}`)).status,
    429,
    "the planter's browser is held back with the others",
  );
  // The browser that signed in keeps its own id, and is let in while the account is held back.
  const again = await login(t, owner, "203.0.113.70", `careeredge_device=${issued}`);
  assert.equal(again.status, 200, again.body.message);
  assert.equal(deviceOf(again.headers.get("set-cookie")), issued);
});
