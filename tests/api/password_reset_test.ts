/**
 * Password reset by mail against a real SMTP server: the same 202 for any address, the mail with
 * its link, the password set once under the policy, every old session ended, an expired link
 * refused, and the mails an account can be sent in an hour bounded.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { request, signIn } from "../helpers/admins.ts";
import { keys } from "../../kv/keys.ts";
import { tokenHash } from "../../kv/alerts.ts";
import { mailsSent } from "../../server/mail.ts";
import {
  MIN_ADMIN_PASSWORD,
  RESET_LINK_MINUTES,
  RESET_MAILS_PER_HOUR,
  RESET_REQUESTS_PER_HOUR,
} from "../../kv/constants.ts";

const SITE = "https://jobs.example.com";
const SAME = {
  message: "If that address belongs to an admin, a link to reset the password is on its way.",
};

async function setup() {
  const smtp = await testSmtp();
  const app = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  return { smtp, app };
}

type App = Awaited<ReturnType<typeof testApp>>;

const ask = (t: App, email: string, address?: string) =>
  request(t, "POST", "/api/admin/password-reset", { email }, undefined, address);
const confirm = (t: App, token: string, password: string) =>
  request(t, "POST", "/api/admin/password-reset/confirm", { token, password });
const login = (t: App, email: string, password: string) =>
  request(t, "POST", "/api/admin/login", { email, password }, undefined, "198.51.100.9");

function tokenOf(text: string): string {
  const link = text.match(/https:\/\/jobs\.example\.com\/admin\/reset-password\?token=[\w%-]+/);
  assert.ok(link, `a reset link in: ${text}`);
  return decodeURIComponent(new URL(link[0]).searchParams.get("token")!);
}

Deno.test("a reset link by mail sets the password once and ends every session", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const admin = await signIn(t);

  const asked = await ask(t, ` ${admin.email.toUpperCase()} `);
  assert.equal(asked.status, 202);
  assert.deepEqual(asked.body, SAME);
  const [mail] = await smtp.received(1);
  assert.deepEqual(mail.to, [admin.email]);
  assert.match(mail.header("Subject")!, /Reset your CareerEdge admin password/);
  const token = tokenOf(mail.text);
  assert.equal(tokenOf(mail.html.replaceAll("&amp;", "&")), token);
  assert.ok(mail.text.includes(`works once, for ${RESET_LINK_MINUTES} minutes`));
  assert.ok(token.length >= 22, "at least 128 random bits, base64url");
  // Only the token's hash is stored, and it runs out.
  assert.equal((await t.services.kv.get(keys.passwordReset(token))).value, null);
  assert.ok((await t.services.kv.get(keys.passwordReset(tokenHash(token)))).value);

  const weak = await confirm(t, token, "123456");
  assert.equal(weak.status, 400);
  assert.match(weak.body.message, /one of the most common passwords/);
  const short = await confirm(t, token, "abc");
  assert.equal(short.status, 400);
  assert.equal(short.body.message, `Password must be at least ${MIN_ADMIN_PASSWORD} characters`);

  const done = await confirm(t, token, "violet kettle harbour");
  assert.equal(done.status, 200);
  assert.equal(done.body.message, "Password changed. Sign in with your new password.");

  const old = await request(t, "GET", "/api/admin/profile", undefined, admin.headers);
  assert.equal(old.status, 401, "the session from before the reset has ended");
  assert.equal((await login(t, admin.email, admin.password)).status, 401);
  assert.equal((await login(t, admin.email, "violet kettle harbour")).status, 200);

  const again = await confirm(t, token, "another fine passphrase");
  assert.equal(again.status, 400);
  assert.match(again.body.message, /already used, or it has expired/);

  const log = await t.services.activity.list({
    page: 1,
    limit: 10,
    action: "auth.password_reset",
  });
  assert.equal(log.records.length, 1);
  assert.equal(log.records[0].target?.id, admin.admin._id);
  assert.deepEqual(log.records[0].change, { passwordChanged: true });
});

Deno.test(`an unknown address gets the same answer and no mail; a link runs out in ${RESET_LINK_MINUTES} minutes`, async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const admin = await signIn(t);

  const unknown = await ask(t, "nobody@example.com");
  assert.equal(unknown.status, 202);
  assert.deepEqual(unknown.body, SAME);
  await ask(t, admin.email);
  const [mail] = await smtp.received(1);
  await mailsSent();
  assert.deepEqual(mail.to, [admin.email], "the only mail went to the admin");
  assert.equal(smtp.mails.length, 1);

  t.clock.now = new Date(t.clock.now.getTime() + (RESET_LINK_MINUTES + 1) * 60_000);
  const late = await confirm(t, tokenOf(mail.text), "violet kettle harbour");
  assert.equal(late.status, 400);
  assert.equal(
    late.body.message,
    "This link has expired: a link to reset the password works for " +
      `${RESET_LINK_MINUTES} minutes. Ask for a new one.`,
  );
  assert.equal((await login(t, admin.email, admin.password)).status, 200);
});

Deno.test("a known address is answered before its link is issued or mailed: the answer's timing tells nothing", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const admin = await signIn(t);
  const store = t.services.passwordResets;
  const issue = store.issue.bind(store);
  let issued = 0;
  store.issue = (adminId) => {
    issued++;
    return issue(adminId);
  };
  const answer = await ask(t, admin.email);
  assert.deepEqual([answer.status, answer.body], [202, SAME]);
  assert.equal(issued, 0, "the link's writes began before the answer");
  await mailsSent();
  assert.equal(issued, 1);
  assert.deepEqual((await smtp.received(1))[0].to, [admin.email]);
});

Deno.test("the reset pages state the link's minutes and the password's length", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const admin = await signIn(t);
  const asked = await t.app.request("/admin/forgot-password", {
    method: "POST",
    body: new URLSearchParams({ email: admin.email }),
  });
  assert.equal(asked.status, 200);
  assert.ok(
    (await asked.text()).includes(`The link works once, for ${RESET_LINK_MINUTES} minutes.`),
  );
  const [mail] = await smtp.received(1);
  const form = await t.app.request(
    `/admin/reset-password?token=${encodeURIComponent(tokenOf(mail.text))}`,
  );
  assert.equal(form.status, 200);
  assert.ok(
    (await form.text()).includes(`At least ${MIN_ADMIN_PASSWORD} characters, not a common`),
  );
});

Deno.test("nobody can flood an admin's mailbox or the server with reset requests", async () => {
  const { smtp, app } = await setup();
  await using _smtp = smtp;
  await using t = app;
  const admin = await signIn(t);
  for (let i = 0; i < RESET_MAILS_PER_HOUR + 2; i++) {
    const asked = await ask(t, admin.email, `192.0.2.${i + 1}`);
    assert.equal(asked.status, 202);
    assert.deepEqual(asked.body, SAME);
  }
  await smtp.received(RESET_MAILS_PER_HOUR);
  await mailsSent();
  assert.equal(smtp.mails.length, RESET_MAILS_PER_HOUR, "at most so many reset mails an hour");

  for (let i = 0; i < RESET_REQUESTS_PER_HOUR; i++) {
    assert.equal((await ask(t, `x${i}@example.com`)).status, 202);
  }
  const flood = await ask(t, "x-past@example.com");
  assert.equal(flood.status, 429);
  assert.equal(flood.headers.get("retry-after"), "3600");

  const bad = await ask(t, "not an address", "192.0.2.99");
  assert.equal(bad.status, 400);
  assert.ok(bad.body.message);
  const missing = await confirm(t, "", "violet kettle harbour");
  assert.equal(missing.status, 400);
});

Deno.test("a sign-in with the old password still being checked when a reset ends every session gets no session", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const token = (await t.services.passwordResets.issue(admin.admin._id))!;
  // The reset lands between the sign-in's read of the account and its password check.
  const { throttle } = t.services;
  const attempt = throttle.attempt.bind(throttle);
  throttle.attempt = async (...args) => {
    throttle.attempt = attempt;
    const counted = await attempt(...args);
    assert.equal((await confirm(t, token, "violet kettle harbour")).status, 200);
    return counted;
  };
  const racing = await login(t, admin.email, admin.password);
  assert.equal(racing.status, 401, "the old password signs nobody in once it was changed");
  assert.equal((await login(t, admin.email, "violet kettle harbour")).status, 200);
});
