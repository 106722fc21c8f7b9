/**
 * A forgotten password in the browser at phone width: "Forgot password?" on the sign-in page, the
 * address asked for, the link from a real mail, the policy's refusal shown, the new password set,
 * and signing in with it. The pages need no script and send no Referer.
 */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { request, signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { expectAccessible, expectHeading, expectText, newPage } from "./helpers.ts";

Deno.test({ name: "resetting a forgotten password at 390 px", ...browserTest }, async () => {
  await using smtp = await testSmtp();
  await using s = await testServer({ config: { SMTP_URL: smtp.url } });
  const admin = await signIn(s);
  await using browser = await launchBrowser();
  const { page } = await newPage(browser, 390);

  await page.goto(`${s.url}/admin/login`);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL(`${s.url}/admin/forgot-password`);
  await expectHeading(page, "Forgot password?");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expectText(
    page,
    "If that address belongs to an admin, a link to reset the password is on its way.",
  );
  await expectAccessible(page);
  await screenshot(page, "reset-asked");

  const [mail] = await smtp.received(1);
  const link = mail.text.match(/http:\/\/127\.0\.0\.1:\d+\/admin\/reset-password\?token=\S+/)?.[0];
  assert.ok(link, mail.text);
  const opened = await page.goto(link);
  assert.equal(opened?.headers()["referrer-policy"], "no-referrer");
  assert.equal(opened?.headers()["x-robots-tag"], "noindex");
  assert.equal(
    await page.locator('meta[name="robots"]').getAttribute("content"),
    "noindex, nofollow",
  );
  await expectHeading(page, "Set a new password");

  await page.getByLabel("New password", { exact: true }).fill("123456");
  await page.getByLabel("Repeat the new password").fill("123456");
  await page.getByRole("button", { name: "Set password" }).click();
  await expectText(
    page,
    "This password is one of the most common passwords. Please choose another: a passphrase of " +
      "a few unrelated words is easy to remember and hard to guess.",
  );
  await expectAccessible(page);
  await screenshot(page, "reset-refused");

  await page.getByLabel("New password", { exact: true }).fill("violet kettle harbour");
  await page.getByLabel("Repeat the new password").fill("violet kettle harbour");
  await page.getByRole("button", { name: "Set password" }).click();
  await expectText(page, "Password changed. Sign in with your new password.");
  await screenshot(page, "reset-done");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width} px)`);

  await page.getByRole("link", { name: "Sign in" }).click();
  await page.waitForURL(`${s.url}/admin/login`);
  const login = (password: string) =>
    request(s, "POST", "/api/admin/login", { email: admin.email, password });
  assert.equal((await login("violet kettle harbour")).status, 200);
  assert.equal((await login(admin.password)).status, 401);

  // The used link shows why it no longer works, and where to get a new one.
  await page.goto(link);
  await expectText(
    page,
    "This link is not valid: it was already used, or it has expired. Ask for a new one.",
  );
  await page.getByRole("link", { name: "Ask for a new link" }).waitFor();
});
