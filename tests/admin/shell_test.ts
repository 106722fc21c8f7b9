/** The admin shell: every /admin path answers the same server page that loads the app. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { assetUrl } from "../../server/assets.ts";

Deno.test("every /admin path but the sign-in page answers the shell with the spinner, the app and the stylesheet", async () => {
  await using t = await testApp();
  for (
    const path of [
      "/admin",
      "/admin/dashboard",
      "/admin/jobs/edit/x",
      "/admin/no/such/page",
    ]
  ) {
    const response = await t.app.request(path);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get("content-type") ?? "", /text\/html/);
    assert.equal(response.headers.get("cache-control"), "no-store");
    const csp = response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self'/);
    const html = await response.text();
    assert.ok(html.startsWith("<!doctype html>"));
    assert.ok(html.includes(`<script type="module" src="${assetUrl("admin/main.js")}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${assetUrl("styles.css")}"/>`));
    assert.match(html, /<div id="admin-root"><div role="status"/);
    assert.ok(html.includes("Loading..."));
    // zod's settings load first (module scripts run in document order), then the app.
    assert.ok(
      html.includes(
        `<script type="module" src="${assetUrl("admin/zod-config.js")}"></script><script`,
      ),
    );
    // CSP allows scripts only from our origin: the shell carries no inline script.
    assert.equal(html.match(/<script/g)?.length, 2);
  }
});

Deno.test("the admin app's code is not linked from public pages", async () => {
  await using t = await testApp();
  const response = await t.app.request("/");
  const html = await response.text();
  assert.ok(!html.includes("admin/main.js"));
});

Deno.test("the app bundle is served from the shell's URL", async () => {
  await using t = await testApp();
  const response = await t.app.request(assetUrl("admin/main.js"));
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /javascript/);
  await response.body?.cancel();
});
