/**
 * An address goes with its last alert, whichever way that goes (the unsubscribe link, the manage
 * page's Delete, a pending alert's 7 days running out): the manage links its mails carried then
 * show a page without it, and no entry of the database holds it. While it has alerts, its manage
 * link lists them under the address as before.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { type TestSmtp, testSmtp } from "../helpers/smtp.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { keys } from "../../kv/keys.ts";
import { newToken, tokenHash } from "../../kv/alerts.ts";
import { seedJobs } from "../public/fixtures.ts";
import { sendDigests } from "../../server/digests.ts";

const SITE = "https://jobs.example.com";
const EMAIL = "hdr@example.org";
const GONE = "No alerts any more, and the address is not kept.";

type App = Awaited<ReturnType<typeof testApp>>;

/** Asks for an alert as the job list does; the links of its confirmation mail, as paths. */
async function ask(t: App, smtp: TestSmtp, keywords: string) {
  const response = await t.app.request("/api/alerts", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, keywords, location: "Pune", frequency: "daily" }),
  }, { remoteAddr: { hostname: "203.0.113.5", port: 1, transport: "tcp" } });
  assert.equal(response.status, 202);
  const mail = (await smtp.received(smtp.mails.length + 1)).at(-1)!;
  const link = (page: string) =>
    mail.text.match(new RegExp(`${SITE}(/alerts/${page}\\?token=[\\w-]+)`))![1];
  return { confirm: link("confirm"), unsubscribe: link("unsubscribe"), manage: link("manage") };
}

async function confirmed(t: App, smtp: TestSmtp, keywords: string) {
  const links = await ask(t, smtp, keywords);
  assert.equal((await t.app.request(links.confirm, { method: "POST" })).status, 200);
  return links;
}

/** Every key and value in the database, as text. */
async function everyEntry(kv: Deno.Kv): Promise<string[]> {
  const texts: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    texts.push(
      JSON.stringify(
        [entry.key, entry.value],
        (_, value) => typeof value === "bigint" ? String(value) : value,
      ),
    );
  }
  return texts;
}

async function assertAddressGone(t: App, manage: string, { except = [] as string[] } = {}) {
  const response = await t.app.request(manage);
  assert.equal(response.status, 200);
  const page = await response.text();
  assert.ok(page.includes(GONE), "the link says the address is not kept");
  assert.ok(!page.includes(EMAIL), "the link's page shows no address");
  const holding = (await everyEntry(t.kv)).filter((text) => text.includes(EMAIL));
  assert.deepEqual(holding, except, "no entry holds the address");
}

async function assertListed(t: App, manage: string, keywords: string) {
  const page = await (await t.app.request(manage)).text();
  assert.ok(page.includes(`Alerts for ${EMAIL}.`), "the address over its alerts");
  assert.ok(page.includes(`“${keywords}”`), `the alert for ${keywords}`);
  assert.ok(!page.includes(GONE));
}

Deno.test("unsubscribed by the mail's one-click link, the address goes from its manage link and the database", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const first = await confirmed(t, smtp, "rust");
  const second = await confirmed(t, smtp, "go");
  await assertListed(t, first.manage, "rust");

  const oneClick = (path: string) =>
    t.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
  assert.equal((await oneClick(first.unsubscribe)).status, 200);
  // One alert left: both mails' manage links still show it under the address.
  await assertListed(t, first.manage, "go");
  await assertListed(t, second.manage, "go");
  assert.equal((await oneClick(second.unsubscribe)).status, 200);
  await assertAddressGone(t, first.manage);
  await assertAddressGone(t, second.manage);
});

Deno.test("deleted on the manage page, the address goes from the link and the database", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  const { manage } = await confirmed(t, smtp, "rust");
  await ask(t, smtp, "pending");
  await assertListed(t, manage, "pending");
  for (const { id } of (await t.services.alerts.alertsOf(EMAIL)).alerts) {
    const deleted = await t.app.request(manage, {
      method: "POST",
      body: new URLSearchParams({ alert: id, action: "delete" }),
    });
    assert.equal(deleted.status, 303);
  }
  await assertAddressGone(t, manage);
  // A button pressed again on the page left open changes nothing and shows no address either.
  const again = await t.app.request(manage, {
    method: "POST",
    body: new URLSearchParams({ alert: "gone", action: "delete" }),
  });
  assert.equal(again.status, 303);
  await assertAddressGone(t, manage);
});

Deno.test("a pending alert's 7 days run out: its address goes with it, also from its manage link", async () => {
  const trap: Trap = { mode: null, expireIns: [], expiries: new Map() };
  await using smtp = await testSmtp();
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    wrapKv: (kv) => trappedKv(kv, trap),
  });
  const { manage } = await ask(t, smtp, "rust");
  await assertListed(t, manage, "rust");
  // KV deletes an entry once its expireIn has passed; the 7 days pass for every entry written to
  // live at most that long.
  for (const [key, expireIn] of trap.expiries!) {
    if (expireIn !== undefined && expireIn <= 7 * DAY_MS) await t.kv.delete(JSON.parse(key));
  }
  assert.deepEqual((await t.services.alerts.alertsOf(EMAIL)).alerts, []);
  await assertAddressGone(t, manage);
});

/** A new Python job, and the next morning's digest of it: the mail and its manage link's path. */
async function digestOfNewJob(t: Awaited<ReturnType<typeof testApp>>, smtp: TestSmtp) {
  await seedJobs(t, [{
    role: "Python Developer",
    location: "Pune, India",
    datePosted: "2026-03-02T07:30:00.000Z",
  }]);
  t.clock.now = new Date("2026-03-02T08:00:00Z");
  assert.equal((await sendDigests(t.services)).sent, 1);
  const digest = (await smtp.received(2))[1];
  const manage = digest.text.match(/Manage your alerts: \S+(\/alerts\/manage\?token=[\w-]+)/)![1];
  return { digest, manage };
}

Deno.test("a digest's manage link shows the address while it has an alert, and none after its one-click unsubscribe", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: new Date("2026-03-02T07:00:00Z"),
  });
  await confirmed(t, smtp, "python");
  const { digest, manage } = await digestOfNewJob(t, smtp);
  await assertListed(t, manage, "python");
  const unsubscribe = digest.header("List-Unsubscribe")!.slice(1, -1).slice(SITE.length);
  const response = await t.app.request(unsubscribe, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  assert.equal(response.status, 200);
  await assertAddressGone(t, manage);
});

Deno.test("from before addresses had ids: a manage link naming the address works while it has alerts, then shows none; a digest gives the address its id", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({
    config: { SMTP_URL: smtp.url, SITE_URL: SITE },
    now: new Date("2026-03-02T07:00:00Z"),
  });
  const { unsubscribe } = await confirmed(t, smtp, "python");
  // The address's record and a manage link's token as they were written before.
  const address = await t.kv.get<{ alertIds: string[]; id: string }>(keys.alertAddress(EMAIL));
  await t.kv.atomic().delete(keys.alertAddressById(address.value!.id))
    .set(keys.alertAddress(EMAIL), { alertIds: address.value!.alertIds }).commit();
  const old = newToken();
  await t.kv.set(keys.alertToken(tokenHash(old)), { kind: "manage", email: EMAIL });
  const oldManage = `/alerts/manage?token=${old}`;
  await assertListed(t, oldManage, "python");

  const { manage } = await digestOfNewJob(t, smtp);
  await assertListed(t, manage, "python");
  assert.ok((await t.kv.get<{ id?: string }>(keys.alertAddress(EMAIL))).value?.id);

  await t.app.request(unsubscribe, { method: "POST" });
  const page = await (await t.app.request(oldManage)).text();
  assert.ok(page.includes(GONE) && !page.includes(EMAIL), "the old link shows no address");
  await assertAddressGone(t, manage, {
    // Only the old link's own token still names it, until its 60 days are up.
    except: [JSON.stringify([keys.alertToken(tokenHash(old)), { kind: "manage", email: EMAIL }])],
  });
});
