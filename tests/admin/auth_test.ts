/**
 * Signing in and out, the auth guard, the layout by permission, a session lost mid-way, the drawer
 * at 390 pixels, and axe on the sign-in page and the dashboard.
 */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { authHeaders, signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  ACCOUNT_KINDS,
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  flagsOf,
  newPage,
  openAs,
  press,
  storedToken,
} from "./helpers.ts";

const NAV_LINKS = {
  "Manage Jobs": "canCreateJobs",
  "Dump Jobs": "canCreateJobs",
  "Analytics": "canViewAnalytics",
  "Manage Admins": "canManageAdmins",
} as const;

Deno.test({ name: "admin sign-in, guard and layout", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  await using browser = await launchBrowser();
  const { page, context } = await newPage(browser);
  const reactErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /React|hydrat/i.test(message.text())) {
      reactErrors.push(message.text());
    }
  });

  await t.step("signed out, guarded paths and unknown paths land on the sign-in page", async () => {
    for (const path of ["/admin/dashboard", "/admin/jobs", "/admin/no/such/page", "/admin"]) {
      await page.goto(`${s.url}${path}`);
      await page.waitForURL(`${s.url}/admin/login`);
    }
    await expectText(page, "Admin Portal");
    await expectText(page, "POST /api/admin/create-main-admin");
    await expectAccessible(page);
    assert.deepEqual(reactErrors, [], "the shell hydrates without a mismatch");
  });

  await t.step("both fields are required and the e-mail must look like one", async () => {
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectText(page, "Email is required");
    await expectText(page, "Password is required");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("x");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectText(page, "Please enter a valid email");
    assert.equal(await page.getByText("Password is required").count(), 0);
  });

  await t.step("show/hide reveals the password", async () => {
    const password = page.getByLabel("Password", { exact: true });
    assert.equal(await password.getAttribute("type"), "password");
    await page.getByRole("button", { name: "Show password" }).click();
    assert.equal(await password.getAttribute("type"), "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    assert.equal(await password.getAttribute("type"), "password");
  });

  await t.step("a wrong password shows the server's message and stays signed out", async () => {
    await page.getByLabel("Email").fill(main.email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Invalid email or password");
    assert.equal(page.url(), `${s.url}/admin/login`);
    assert.equal(await storedToken(page), null);
  });

  await t.step("signing in stores the token and opens the dashboard", async () => {
    await page.getByLabel("Password", { exact: true }).fill(main.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Login successful!");
    await page.waitForURL(`${s.url}/admin/dashboard`);
    await expectText(page, "Welcome back, Main Admin!");
    assert.ok(await storedToken(page));
  });

  await t.step(
    "signed in, the sign-in page and unknown admin paths go to the dashboard",
    async () => {
      for (const path of ["/admin/login", "/admin/nothing/here", "/admin"]) {
        await page.goto(`${s.url}${path}`);
        await page.waitForURL(`${s.url}/admin/dashboard`);
      }
      await expectText(page, "Welcome back, Main Admin!");
    },
  );

  await t.step("logout ends the session and says so", async () => {
    const token = await storedToken(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await expectToast(page, "Logged out successfully");
    await page.waitForURL(`${s.url}/admin/login`);
    assert.equal(await storedToken(page), null);
    const profile = await s.app.request("/api/admin/profile", { headers: authHeaders(token!) });
    assert.equal(profile.status, 401);
    await profile.body?.cancel();
  });

  await t.step("the sidebar shows the links each account may use, its name and badge", async () => {
    for (const kind of ACCOUNT_KINDS) {
      const account = kind.main ? main : await signIn(s, {
        permissions: flagsOf(kind.permissions),
        username: `User ${kind.name}`,
      });
      await openAs(page, s, account, "/admin/dashboard");
      const nav = page.getByRole("navigation", { name: "Admin" });
      await nav.getByRole("link", { name: "Dashboard" }).waitFor();
      for (const [label, flag] of Object.entries(NAV_LINKS)) {
        const expected = kind.main || kind.permissions!.includes(flag) ? 1 : 0;
        assert.equal(
          await nav.getByRole("link", { name: label, exact: true }).count(),
          expected,
          `${kind.name}: ${label}`,
        );
      }
      await expectText(page, account.admin.username);
      await expectText(page, account.email);
      // The main admin's username is also "Main Admin": name and badge.
      const sidebar = page.getByRole("complementary");
      assert.equal(
        await sidebar.getByText("Main Admin", { exact: true }).count(),
        kind.main ? 2 : 0,
      );
      assert.equal(await sidebar.getByText("Admin", { exact: true }).count(), kind.main ? 0 : 1);
    }
  });

  await t.step("a session ended elsewhere sends the next call to the sign-in page", async () => {
    const editor = await signIn(s, { permissions: { canCreateJobs: true } });
    await openAs(page, s, editor, "/admin/jobs");
    await expectHeading(page, "Manage Jobs");
    const response = await s.app.request(`/api/admin/${editor.admin._id}/status`, {
      method: "PUT",
      headers: authHeaders(main.token),
      body: JSON.stringify({ isActive: false }),
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    // The tab's list call is refused: the app leaves for sign-in, so the tab may never show selected.
    await press(page.getByRole("tab", { name: /^Inactive/ }));
    await page.waitForURL(`${s.url}/admin/login`);
    assert.equal(await storedToken(page), null);
    await page.getByRole("button", { name: "Sign In" }).waitFor();
  });

  await t.step("an admin edits their own profile", async () => {
    const account = await signIn(s, { username: "Old Name" });
    await openAs(page, s, account, "/admin/dashboard");
    await page.getByRole("button", { name: "Edit Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    assert.equal(await dialog.getByLabel("Username").inputValue(), "Old Name");
    await dialog.getByLabel("New password (leave blank to keep)").fill("brand-new-password");
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await dialog.getByText("Current password is required to change the e-mail or password")
      .waitFor();
    await dialog.getByLabel("Current password").fill("not-the-password");
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await expectToast(page, "Current password is incorrect");
    await dialog.getByLabel("New password (leave blank to keep)").fill("");
    await dialog.getByLabel("Current password").fill("");
    await dialog.getByLabel("Username").fill("New Name");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await expectToast(page, "Profile updated successfully");
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("complementary").getByText("New Name", { exact: true }).waitFor();
    await expectHeading(page, "Welcome back, New Name!");

    await page.getByRole("button", { name: "Edit Profile" }).click();
    await dialog.getByLabel("Email").fill("moved-" + account.email);
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await dialog.getByText("Current password is required to change the e-mail or password")
      .waitFor();
    await dialog.getByLabel("Current password").fill(account.password);
    await dialog.getByRole("button", { name: "Save Profile" }).click();
    await expectToast(page, "Profile updated successfully");
    await page.getByRole("complementary").getByText("moved-" + account.email).waitFor();
  });

  await t.step("the dashboard passes axe", async () => {
    await openAs(page, s, main, "/admin/dashboard");
    await page.getByRole("img", { name: /Website visits/ }).waitFor();
    await expectAccessible(page);
  });

  await context.close();

  await t.step(
    "at 390 pixels the sidebar is a drawer that keeps focus and closes on Escape",
    async () => {
      const { page: phone, context: phoneContext } = await newPage(browser, 390);
      await openAs(phone, s, main, "/admin/dashboard");
      assert.equal(await phone.getByRole("link", { name: "Manage Jobs" }).count(), 0);
      await phone.getByRole("button", { name: "Open menu" }).click();
      const drawer = phone.getByRole("dialog", { name: "Navigation" });
      await drawer.waitFor();
      for (let i = 0; i < 12; i++) {
        await phone.keyboard.press("Tab");
        // Past the last control focus may visit the browser itself (body), never the page behind.
        const outside = await phone.evaluate(() => {
          const active = document.activeElement;
          return active === document.body || active?.closest("dialog[open]")
            ? null
            : active?.outerHTML.slice(0, 120);
        });
        assert.equal(outside, null, "focus stays inside the drawer");
      }
      await phone.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      await phone.getByRole("button", { name: "Open menu" }).click();
      await drawer.getByRole("link", { name: "Manage Jobs" }).click();
      await phone.waitForURL(`${s.url}/admin/jobs`);
      await drawer.waitFor({ state: "hidden" });
      await expectHeading(phone, "Manage Jobs");
      const overflow = await phone.evaluate(() =>
        document.documentElement.scrollWidth > document.documentElement.clientWidth
      );
      assert.equal(overflow, false, "the page itself never scrolls sideways");
      await expectAccessible(phone);
      await phoneContext.close();
    },
  );

  await t.step("every screen fits 390 pixels and passes axe there", async () => {
    const job = await createJob(s, main, sampleJob({ role: "A rather long role title to wrap" }));
    const { page: phone, context: phoneContext } = await newPage(browser, 390);
    await openAs(phone, s, main, "/admin/dashboard");
    const screens = [
      ["/admin/dashboard", "Welcome back, Main Admin!"],
      ["/admin/jobs", "Manage Jobs"],
      ["/admin/jobs/create", "Create Job"],
      [`/admin/jobs/edit/${job._id}`, "Edit Job"],
      ["/admin/jobs/dump", "Dump Jobs"],
      ["/admin/admins", "Manage Admins"],
      ["/admin/analytics", "Analytics"],
    ];
    for (const [path, heading] of screens) {
      await phone.goto(`${s.url}${path}`);
      await expectHeading(phone, heading);
      await phone.locator("[data-skeleton]").first().waitFor({ state: "detached" });
      const tab = heading.startsWith("Welcome") ? "Dashboard" : heading;
      assert.equal(await phone.title(), `${tab} · CareerEdge Admin`);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${path} is ${width} pixels wide`);
      await expectAccessible(phone);
    }
    await phoneContext.close();
  });
});
