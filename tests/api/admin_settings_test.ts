/**
 * The admin portal reads the product's figures from its page at run time: the shell carries
 * `ADMIN_SETTINGS` as JSON in a meta element that parses back to the same figures, and the sign-in
 * page, which has no use for them, does not.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { ADMIN_SETTINGS } from "../../kv/constants.ts";
import { ADMIN_SETTINGS_META } from "../../client/admin/settings.ts";

const settingsOf = (html: string) => {
  const found = html.match(new RegExp(`<meta name="${ADMIN_SETTINGS_META}" content="([^"]*)"`));
  return found ? JSON.parse(found[1].replaceAll("&quot;", '"')) : undefined;
};

Deno.test("the admin shell carries the admin settings; the sign-in page does not", async () => {
  await using t = await testApp();
  const shell = await t.app.request("/admin/jobs/dump");
  assert.equal(shell.status, 200);
  assert.deepEqual(settingsOf(await shell.text()), ADMIN_SETTINGS);
  const login = await t.app.request("/admin/login");
  assert.equal(login.status, 200);
  assert.equal(settingsOf(await login.text()), undefined);
});
