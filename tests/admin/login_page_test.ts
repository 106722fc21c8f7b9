/**
 * The sign-in page as a page: the server sends the form itself, so it shows (and says what it
 * needs) without any script; with scripts on it signs in without the portal's code, also when the
 * visitor types and submits before the form's code has arrived.
 */
import assert from "node:assert/strict";
import { testApp, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import { assetUrl } from "../../server/assets.ts";
import {
  expectAccessible,
  expectText,
  expectToast,
  hold,
  newPage,
  storedToken,
} from "./helpers.ts";

Deno.test("the server answers /admin/login with the sign-in form and only its small script", async () => {
  await using t = await testApp();
  const response = await t.app.request("/admin/login");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("cache-control"), "no-store");
  const html = await response.text();
  assert.match(html, /<form[^>]* action="\/admin\/login" method="post"/);
  assert.match(html, /<label for="login-email"[^>]*>Email<\/label><input id="login-email"/);
  assert.match(html, /<label for="login-password"[^>]*>Password<\/label>/);
  assert.match(html, /<button type="submit"[^>]*>Sign In<\/button>/);
  assert.ok(html.includes("POST /api/admin/create-main-admin"));
  assert.ok(html.includes(`<script type="module" src="${assetUrl("admin/login.js")}"></script>`));
  assert.ok(!html.includes("admin/main.js"), "the portal's code is not linked");

  // A submit that reached the server (no script) goes back to the form, the password dropped.
  const posted = await t.app.request("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "email=a%40b.c&password=secret",
  });
  assert.equal(posted.status, 303);
  assert.equal(posted.headers.get("location"), "/admin/login");
});

Deno.test({ name: "signing in from the sign-in page", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();

  await t.step("without JavaScript the form shows and says what it needs", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${s.url}/admin/login`);
    await page.getByLabel("Email").fill(main.email);
    await page.getByLabel("Password", { exact: true }).fill(main.password);
    await expectText(
      page,
      "The admin portal needs JavaScript, which is turned off in this browser.",
    );
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${s.url}/admin/login`);
    assert.ok(!page.url().includes("password"));
    await context.close();
  });

  await t.step("with JavaScript it signs in without loading the portal first", async () => {
    const { page, context } = await newPage(browser);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${s.url}/admin/login`);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectText(page, "Email is required");
    await expectText(page, "Password is required");
    await page.getByLabel("Email").fill(main.email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Show password" }).click();
    assert.equal(await page.getByLabel("Password", { exact: true }).getAttribute("type"), "text");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Invalid email or password");
    assert.equal(page.url(), `${s.url}/admin/login`);
    assert.equal(await storedToken(page), null);
    assert.ok(!scripts.includes("/assets/admin/main.js"), scripts.join(", "));

    await page.getByLabel("Password", { exact: true }).fill(main.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${s.url}/admin/dashboard`);
    await expectToast(page, "Login successful!");
    await expectText(page, "Welcome back, Main Admin!");
    assert.ok(await storedToken(page));
    await context.close();
  });

  await t.step("a submit before the form's code has arrived waits for it", async () => {
    const { page, context } = await newPage(browser);
    const release = await hold(page, /\/assets\/login-app-/);
    await page.goto(`${s.url}/admin/login`);
    await page.getByLabel("Email").fill(main.email);
    await page.getByLabel("Password", { exact: true }).fill(main.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    assert.equal(page.url(), `${s.url}/admin/login`);
    await release();
    await page.waitForURL(`${s.url}/admin/dashboard`);
    await expectToast(page, "Login successful!");
    await context.close();
  });
});
