/** Two-factor sign-in in the portal: set up from the profile with the QR code, then sign in with a code. */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { apiCall, expectText, expectToast, newPage, openAs, press } from "./helpers.ts";
import { totpCode } from "../helpers/totp.ts";
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from "../../kv/constants.ts";

Deno.test(
  { name: "two-factor set-up on the profile and sign-in with a code", ...browserTest },
  async () => {
    await using s = await testServer();
    const admin = await signIn(s, { main: true });
    await using browser = await launchBrowser();
    const { page } = await newPage(browser, 390);
    await openAs(page, s, admin, "/admin/dashboard");
    await page.getByRole("button", { name: "Open menu" }).click().catch(() => {});
    await press(page.getByRole("button", { name: "Edit Profile" }).first());
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("New password (leave blank to keep)").fill("short1");
    await dialog.getByRole("meter", { name: "Password strength" }).waitFor();
    await dialog.getByText(/Weak\. A passphrase of four or more unrelated words/).waitFor();
    await dialog.getByLabel("New password (leave blank to keep)").fill("");
    await dialog.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
    await dialog.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const key = (await dialog.locator("code").innerText()).replace(/\s/g, "");
    assert.match(key, /^[A-Z2-7]{32}$/);
    await screenshot(page, "2fa-setup-390");
    // The server checks codes against its own clock, which stays where the test set it.
    await dialog.getByLabel(`${TOTP_DIGITS}-digit code`).fill(totpCode(key, s.clock.now));
    // A session alone cannot turn it on: the password is asked for too.
    await dialog.getByLabel("Current password", { exact: true }).fill("not-the-password");
    await dialog.getByRole("button", { name: "Turn On" }).click();
    await expectToast(page, "Current password is incorrect");
    await dialog.getByLabel("Current password", { exact: true }).fill(admin.password);
    await dialog.getByRole("button", { name: "Turn On" }).click();
    await expectToast(page, "Two-factor sign-in is on");
    const codes = await dialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")
      .allInnerTexts();
    assert.equal(codes.length, RECOVERY_CODE_COUNT);
    await screenshot(page, "2fa-codes-390");
    await dialog.getByRole("button", { name: "I have saved them" }).click();
    await expectText(page, "On: signing in asks for a code from your authenticator app.");

    const fresh = await newPage(browser, 390);
    await fresh.page.goto(`${s.url}/admin/login`);
    await fresh.page.getByLabel("Email").fill(admin.email);
    await fresh.page.getByLabel("Password", { exact: true }).fill(admin.password);
    await fresh.page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(
      fresh.page,
      `Enter the ${TOTP_DIGITS}-digit code from your authenticator app`,
    );
    const codeField = fresh.page.getByLabel("Authentication code (or a recovery code)");
    await screenshot(fresh.page, "2fa-login-390");
    await codeField.fill(codes[0]);
    await fresh.page.getByRole("button", { name: "Sign In" }).click();
    await fresh.page.waitForURL(`${s.url}/admin/dashboard`);
  },
);

for (const width of [1366, 390]) {
  Deno.test(
    {
      name: `the main admin turns off a lost second factor in Manage Admins at ${width} px`,
      ...browserTest,
    },
    async () => {
      await using s = await testServer();
      const main = await signIn(s, { main: true });
      const lost = await signIn(s, { username: "Lost Phone Lee" });
      const { secret } = await apiCall<{ secret: string }>(
        s,
        lost,
        "POST",
        "/api/admin/profile/totp",
      );
      await apiCall(s, lost, "POST", "/api/admin/profile/totp/confirm", {
        code: totpCode(secret, s.clock.now),
        password: lost.password,
      });
      await using browser = await launchBrowser();
      const { page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/admins");
      const row = page.locator("tbody tr").filter({ hasText: lost.email });
      await row.getByText("Two-factor", { exact: true }).waitFor();
      await press(
        row.getByRole("button", { name: "Turn off two-factor sign-in of Lost Phone Lee" }),
      );
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/lost their authenticator app and their recovery codes/).waitFor();
      await screenshot(page, `2fa-off-confirm-${width}`);
      await press(dialog.getByRole("button", { name: "Turn Off" }));
      await expectToast(page, "Two-factor sign-in is off for Lost Phone Lee");
      await row.getByRole("button", { name: /Turn off two-factor/ }).waitFor({ state: "detached" });
      assert.equal(await row.getByText("Two-factor", { exact: true }).count(), 0);
      await screenshot(page, `2fa-off-done-${width}`);
      const signedIn = await s.app.request("/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: lost.email, password: lost.password }),
      });
      assert.equal(signedIn.status, 200, "the password alone signs in now");
    },
  );
}
