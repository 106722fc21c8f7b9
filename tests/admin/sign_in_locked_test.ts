/**
 * A held-back account in the browser at 1366 and 390 px: failed sign-ins from many addresses hold
 * a new browser back, the sign-in page offers the code and a mailed link, the link from a real mail
 * confirms the browser, and the password then signs in.
 */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { json, request, signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { expectAccessible, expectHeading, expectText, newPage, press } from "./helpers.ts";
import { LOGIN_FAILURES_PER_ACCOUNT } from "../../kv/constants.ts";

for (const width of [1366, 390]) {
  Deno.test(
    {
      name: `a held-back account signs in from a browser confirmed by mail at ${width} px`,
      ...browserTest,
    },
    async () => {
      await using smtp = await testSmtp();
      await using s = await testServer({ config: { SMTP_URL: smtp.url } });
      const admin = await signIn(s);
      for (let i = 0; i <= LOGIN_FAILURES_PER_ACCOUNT; i++) {
        await request(
          s,
          "POST",
          "/api/admin/login",
          {
            email: admin.email,
            password: `guess-${i}`,
          },
          json,
          `198.18.0.${i}`,
        );
      }
      await using browser = await launchBrowser();
      const { page } = await newPage(browser, width);
      const signInWithPassword = async () => {
        await page.getByLabel("Email").fill(admin.email);
        await page.getByLabel("Password", { exact: true }).fill(admin.password);
        await page.getByRole("button", { name: "Sign In" }).click();
      };

      await page.goto(`${s.url}/admin/login`);
      await signInWithPassword();
      await expectText(
        page,
        "No authenticator app? We can e-mail you a link that confirms this browser.",
      );
      await page.getByLabel("Authentication code (or a recovery code)").waitFor();
      await expectAccessible(page);
      await screenshot(page, `locked-${width}`);
      await press(page.getByRole("button", { name: "E-mail me a link for this browser" }));
      await page.getByRole("status").filter({
        hasText: "a link that confirms this browser is on its way",
      })
        .waitFor();
      await screenshot(page, `locked-sent-${width}`);

      const [mail] = await smtp.received(1);
      const link = mail.text.match(/http:\/\/127\.0\.0\.1:\d+\/admin\/confirm-browser\?token=\S+/)
        ?.[0];
      assert.ok(link, mail.text);
      const opened = await page.goto(link);
      assert.equal(opened?.headers()["referrer-policy"], "no-referrer");
      await expectHeading(page, "Confirm this browser");
      await expectAccessible(page);
      await screenshot(page, `confirm-browser-${width}`);
      await page.getByRole("button", { name: "Confirm this browser" }).click();
      await expectText(page, "This browser is confirmed. Sign in with your password.");
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(`${s.url}/admin/login`);
      await signInWithPassword();
      await page.waitForURL(`${s.url}/admin/dashboard`);
    },
  );
}
