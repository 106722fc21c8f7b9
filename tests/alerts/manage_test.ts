/**
 * The "manage alerts" link of a mail: it lists the address's alerts (and no one else's) to pause,
 * resume or delete; the address goes with its last alert.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { keys } from "../../kv/keys.ts";

const SITE = "https://jobs.example.com";

Deno.test("manage alerts: pause, resume, delete; only the link's address", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const { alerts } = t.services;
  const first = await alerts.request({
    email: "m@example.com",
    query: { keywords: "rust" },
    frequency: "daily",
  });
  await alerts.confirm(first!.confirm);
  await alerts.request({ email: "m@example.com", query: { location: "Goa" }, frequency: "weekly" });
  const stranger = await alerts.request({
    email: "x@example.com",
    query: {},
    frequency: "daily",
  });
  const manage = `/alerts/manage?token=${first!.links.manage}`;

  const page = await (await t.app.request(manage)).text();
  assert.match(page, /Alerts for m@example\.com\./);
  assert.match(page, /“rust”/);
  assert.match(page, /Daily · On/);
  assert.match(page, /in Goa/);
  assert.match(page, /Weekly · Waiting for you to confirm it/);
  assert.ok(!page.includes("x@example.com"));

  const act = (alert: string, action: string) =>
    t.app.request(manage, { method: "POST", body: new URLSearchParams({ alert, action }) });
  const paused = await act(first!.alert.id, "pause");
  assert.equal(paused.status, 303);
  assert.equal(paused.headers.get("location"), manage);
  assert.equal((await alerts.get(first!.alert.id))!.status, "paused");
  assert.equal((await alerts.totals([alerts.day()])).confirmed, 0);
  assert.match(await (await t.app.request(manage)).text(), /Daily · Paused/);
  await act(first!.alert.id, "resume");
  assert.equal((await alerts.get(first!.alert.id))!.status, "active");
  assert.equal((await alerts.totals([alerts.day()])).confirmed, 1);

  // Another address's alert cannot be reached through this link.
  await act(stranger!.alert.id, "delete");
  assert.ok(await alerts.get(stranger!.alert.id));

  for (const alert of (await alerts.alertsOf("m@example.com")).alerts) {
    await act(alert.id, "delete");
  }
  assert.equal((await t.kv.get(keys.alertAddress("m@example.com"))).value, null);
  assert.equal((await t.kv.get(keys.alertConfirmations("m@example.com"))).value, null);
  assert.match(await (await t.app.request(manage)).text(), /No alerts any more/);
  assert.equal((await t.app.request("/alerts/manage?token=nonsense")).status, 404);
});
