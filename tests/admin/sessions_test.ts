/**
 * A session that ends while the portal is open, in this tab or another, and the console on every
 * screen: no screen may fail on the way to the sign-in page, and none may log a React error.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  createJob,
  expectHeading,
  newPage,
  openAs,
  storedToken,
  TOKEN_STORAGE_KEY,
} from "./helpers.ts";

/** Every error the page logs or throws, from now on. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function expectSignInPage(page: Page, url: string) {
  await page.waitForURL(`${url}/admin/login`);
  await page.getByRole("button", { name: "Sign In" }).waitFor();
  assert.equal(await page.getByText("Something went wrong!").count(), 0);
}

Deno.test({ name: "a session ending in any tab", ...browserTest }, async (t) => {
  await using s = await testServer();
  await createJob(s, await signIn(s, { main: true }), sampleJob());
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: signing out in tab B sends tab A to the sign-in page`, async () => {
      // Logout ends the session on the server too, so each step signs in afresh.
      const main = await signIn(s, { main: true });
      const { context, page: tabA } = await newPage(browser, width);
      const errors = errorsOf(tabA);
      await openAs(tabA, s, main, "/admin/jobs");
      const tabB = await context.newPage();
      await tabB.goto(`${s.url}/admin/dashboard`);
      await expectHeading(tabB, "Welcome back, Main Admin!");
      if (width < 768) await tabB.getByRole("button", { name: "Open menu" }).click();
      await tabB.getByRole("button", { name: "Logout" }).click();
      await expectSignInPage(tabB, s.url);
      // Tab A follows without being touched.
      await expectSignInPage(tabA, s.url);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  await t.step("a token removed from storage: the next click lands on sign-in", async () => {
    const main = await signIn(s, { main: true });
    const { context, page } = await newPage(browser);
    const errors = errorsOf(page);
    await openAs(page, s, main, "/admin/dashboard");
    await page.evaluate((key) => localStorage.removeItem(key), TOKEN_STORAGE_KEY);
    await page.getByRole("link", { name: "Manage Jobs" }).click();
    await expectSignInPage(page, s.url);
    // The refused call is logged by the browser as a failed resource; React logs nothing.
    assert.deepEqual(errors.filter((error) => !/401/.test(error)), []);
    await context.close();
  });

  await t.step("a token the server no longer knows: the next call lands on sign-in", async () => {
    const { context, page } = await newPage(browser);
    const account = await signIn(s, { permissions: { canCreateJobs: true } });
    await openAs(page, s, account, "/admin/dashboard");
    const response = await s.app.request("/api/admin/logout", {
      method: "POST",
      headers: account.headers,
    });
    await response.body?.cancel();
    await page.getByRole("link", { name: "Manage Jobs" }).click();
    await expectSignInPage(page, s.url);
    assert.equal(await storedToken(page), null);
    await context.close();
  });
});

Deno.test({ name: "no screen logs an error", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob());
  await using browser = await launchBrowser();
  const screens = [
    ["/admin/dashboard", "Welcome back, Main Admin!"],
    ["/admin/jobs", "Manage Jobs"],
    ["/admin/jobs/create", "Create Job"],
    [`/admin/jobs/edit/${job._id}`, "Edit Job"],
    ["/admin/jobs/dump", "Dump Jobs"],
    ["/admin/admins", "Manage Admins"],
    ["/admin/activity", "Activity Log"],
    ["/admin/analytics", "Analytics"],
  ];
  for (const width of [1366, 390]) {
    await t.step(`${width} px: every screen, loaded afresh`, async () => {
      const { context, page } = await newPage(browser, width);
      const errors = errorsOf(page);
      await openAs(page, s, main, "/admin/dashboard");
      for (const [path, heading] of screens) {
        await page.goto(`${s.url}${path}`);
        await expectHeading(page, heading);
        await page.locator("[data-skeleton]").first().waitFor({ state: "detached" });
      }
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
