/** Manage Admins in Chromium: main admin only; the table, create, activate/deactivate, delete. */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  ACCOUNT_KINDS,
  apiCall,
  closeByEscape,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  flagsOf,
  newPage,
  openAs,
  press,
} from "./helpers.ts";
import type { Admin } from "../../kv/schemas.ts";
import { NO_PERMISSIONS } from "../../kv/permissions.ts";

Deno.test({ name: "Manage Admins", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const { admin: dormant } = await apiCall<{ admin: Admin }>(
    s,
    main,
    "POST",
    "/api/admin/register",
    {
      username: "Dormant Dora",
      email: "dora@careeredge.test",
      password: "dormant-password",
      permissions: { canCreateJobs: false, canDeleteJobs: false, canViewAnalytics: true },
    },
  );
  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const row = (text: string) => page.locator("tbody tr").filter({ hasText: text });

  await t.step("every account but the main admin is denied", async () => {
    for (const kind of ACCOUNT_KINDS) {
      if (kind.main) continue;
      const account = await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, "/admin/admins");
      await expectHeading(page, "Access Denied");
      await expectText(page, "Only main admin can manage admin accounts");
      assert.equal(await page.getByRole("button", { name: "Add Admin" }).count(), 0);
      assert.equal(await page.getByRole("table").count(), 0);
    }
  });

  await t.step("the table: roles, permission badges, last login or Never, status", async () => {
    await openAs(page, s, main, "/admin/admins");
    await expectHeading(page, "Manage Admins");
    for (const column of ["Admin", "Role", "Permissions", "Last Login", "Status", "Actions"]) {
      await page.getByRole("columnheader", { name: column, exact: true }).waitFor();
    }
    const mainRow = row(main.email);
    await mainRow.getByText("All", { exact: true }).waitFor();
    await mainRow.getByText("Active", { exact: true }).waitFor();
    assert.equal(await mainRow.getByText("Never").count(), 0);
    assert.equal(await mainRow.getByRole("button").count(), 0, "a main admin has no actions");
    const dormantRow = row("dora@careeredge.test");
    await dormantRow.getByText("Never", { exact: true }).waitFor();
    assert.deepEqual(await dormantRow.getByRole("listitem").allInnerTexts(), ["Analytics"]);
    await dormantRow.getByRole("button", { name: "Deactivate Dormant Dora" }).waitFor();
    await dormantRow.getByRole("button", { name: "Delete Dormant Dora" }).waitFor();
    await expectAccessible(page);
  });

  await t.step("Create New Admin: checks, default permissions, the new row", async () => {
    await press(page.getByRole("button", { name: "Add Admin" }));
    const dialog = page.getByRole("dialog", { name: "Create New Admin" });
    await dialog.waitFor();
    const boxes = {
      "Create Jobs": true,
      "Delete Jobs": true,
      "View Analytics": true,
      "Manage Admins": false,
    };
    for (const [label, checked] of Object.entries(boxes)) {
      assert.equal(await dialog.getByLabel(label).isChecked(), checked, label);
    }
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Create Admin" }).click();
    await dialog.getByText("Username is required").waitFor();
    await dialog.getByText("Email is required").waitFor();
    await dialog.getByText("Password is required").waitFor();
    await dialog.getByLabel("Username").fill("Nina New");
    await dialog.getByLabel("Email").fill("nina@");
    await dialog.getByLabel("Password").fill("12345");
    await dialog.getByRole("button", { name: "Create Admin" }).click();
    await dialog.getByText("Please enter a valid email").waitFor();
    await dialog.getByText("Password must be at least 6 characters").waitFor();
    await dialog.getByLabel("Email").fill("nina@careeredge.test");
    await dialog.getByLabel("Password").fill("quiet-lantern-7");
    await dialog.getByLabel("Delete Jobs").uncheck();
    await dialog.getByRole("button", { name: "Create Admin" }).click();
    await expectToast(page, "Admin created successfully");
    await dialog.waitFor({ state: "hidden" });
    const created = row("nina@careeredge.test");
    await created.getByText("Never", { exact: true }).waitFor();
    assert.deepEqual(await created.getByRole("listitem").allInnerTexts(), ["Jobs", "Analytics"]);
    const { admins } = await apiCall<{ admins: Admin[] }>(s, main, "GET", "/api/admin/all");
    const nina = admins.find((admin) => admin.email === "nina@careeredge.test")!;
    assert.deepEqual(nina.permissions, {
      ...NO_PERMISSIONS,
      canCreateJobs: true,
      canViewAnalytics: true,
    });
  });

  await t.step("a taken e-mail shows the server's message; Escape closes the form", async () => {
    await press(page.getByRole("button", { name: "Add Admin" }));
    const dialog = page.getByRole("dialog", { name: "Create New Admin" });
    await dialog.getByLabel("Username").fill("Copy Cat");
    await dialog.getByLabel("Email").fill("nina@careeredge.test");
    await dialog.getByLabel("Password").fill("copycat-password");
    await dialog.getByRole("button", { name: "Create Admin" }).click();
    await expectToast(page, "An admin with this email already exists");
    await closeByEscape(page);
  });

  await t.step("deactivate and activate again", async () => {
    const dormantRow = row("dora@careeredge.test");
    await dormantRow.getByRole("button", { name: "Deactivate Dormant Dora" }).click();
    await expectToast(page, "Admin deactivated successfully");
    await dormantRow.getByText("Inactive", { exact: true }).waitFor();
    const login = await s.app.request("/api/admin/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "dora@careeredge.test", password: "dormant-password" }),
    });
    assert.equal(login.status, 401, "answered as a wrong password: nobody learns they guessed it");
    await login.body?.cancel();
    await dormantRow.getByRole("button", { name: "Activate Dormant Dora" }).click();
    await expectToast(page, "Admin activated successfully");
    await dormantRow.getByText("Active", { exact: true }).waitFor();
  });

  await t.step("delete asks with the admin's name first", async () => {
    await row("dora@careeredge.test").getByRole("button", { name: "Delete Dormant Dora" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Admin" });
    await dialog.getByText(
      'Are you sure you want to delete admin "Dormant Dora"? This action cannot be undone.',
      { exact: true },
    ).waitFor();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Admin deleted successfully");
    await row("dora@careeredge.test").waitFor({ state: "detached" });
    const { admins } = await apiCall<{ admins: Admin[] }>(s, main, "GET", "/api/admin/all");
    assert.ok(!admins.some((admin) => admin._id === dormant._id));
  });
});
