/**
 * One client cannot inflate the counts: repeated views and clicks, rotating user agents, embedded
 * apply links, prefetches and file requests all count at most what one visitor may.
 */
import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { CHROME_DESKTOP, from, report, SAFARI_IPHONE } from "./fixtures.ts";
import type { Dashboard, TopJob, Trends } from "../../kv/analytics/types.ts";
import { Remembered } from "../../server/counter.ts";
import { VISITORS_PER_ADDRESS } from "../../kv/constants.ts";
import { networkOf } from "../../server/visitors.ts";

/** What Chromium sends when a person follows a link or opens an address. */
const NAVIGATION = {
  "user-agent": CHROME_DESKTOP,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
  "sec-fetch-site": "none",
  "sec-fetch-user": "?1",
};
/** What the Apply button's fetch sends. */
const OWN_FETCH = {
  "user-agent": CHROME_DESKTOP,
  "sec-fetch-dest": "empty",
  "sec-fetch-mode": "cors",
  "sec-fetch-site": "same-origin",
};

async function withJob(t: TestApp) {
  const created = await t.services.jobs.create(sampleJob({ role: "Site Reliability Engineer" }));
  if (!created.ok) throw new Error("job not created");
  return created.job;
}

async function send(t: TestApp, path: string, init: RequestInit, address: string) {
  const response = await t.app.request(path, init, from(address));
  await response.body?.cancel();
  return response.status;
}

async function day(t: TestApp) {
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const { trends } = await report<Trends>(t, admin, "/api/analytics/trends?days=1");
  const { jobs } = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=1");
  return { ...trends[0], jobs: jobs.map((job) => [job.views, job.clicks]) };
}

Deno.test("1,000 page views, API views, link clicks and API clicks of a job by one client count once each", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const job = await withJob(t);
  for (let i = 0; i < 250; i++) {
    const id = i % 2 ? job._id : job.jobId;
    assert.equal(await send(t, `/jobs/${id}`, { headers: NAVIGATION }, "203.0.113.5"), 200);
    assert.equal(await send(t, `/api/jobs/${id}`, { headers: OWN_FETCH }, "203.0.113.5"), 200);
    assert.equal(
      await send(t, `/jobs/${id}/apply`, { headers: NAVIGATION }, "203.0.113.5"),
      303,
    );
    const click = { method: "POST", headers: OWN_FETCH };
    assert.equal(await send(t, `/api/jobs/${id}/click`, click, "203.0.113.5"), 200);
    // Written in several batches, as a long-running client would be.
    if (i % 100 === 0) await t.services.counter.flush();
  }
  const counted = await day(t);
  assert.deepEqual(
    [counted.websiteVisits, counted.uniqueVisitors, counted.totalJobViews, counted.totalJobClicks],
    [250, 1, 1, 1],
  );
  assert.deepEqual(counted.jobs, [[1, 1]]);
});

Deno.test("views from 50 addresses count 50, and again the next day", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const job = await withJob(t);
  for (let round = 0; round < 3; round++) {
    for (let n = 1; n <= 50; n++) {
      await send(t, `/jobs/${job._id}`, { headers: NAVIGATION }, `127.0.0.${n}`);
    }
  }
  let counted = await day(t);
  assert.deepEqual([counted.uniqueVisitors, counted.totalJobViews], [50, 50]);

  t.clock.now = new Date("2026-03-11T10:00:00Z");
  for (let n = 1; n <= 50; n++) {
    await send(t, `/jobs/${job._id}`, { headers: NAVIGATION }, `127.0.0.${n}`);
  }
  counted = await day(t);
  assert.deepEqual([counted.date, counted.uniqueVisitors, counted.totalJobViews], [
    "2026-03-11",
    50,
    50,
  ]);
});

Deno.test("behind a trusted proxy each forwarded address is a visitor; forged forwarding headers add none", async () => {
  await using t = await testApp({
    now: new Date("2026-03-10T10:00:00Z"),
    config: { TRUSTED_PROXIES: ["127.0.0.1"] },
  });
  const job = await withJob(t);
  for (let n = 1; n <= 50; n++) {
    const headers = { ...NAVIGATION, "x-forwarded-for": `198.51.100.${n}` };
    // Through the proxy, twice each; then the same header sent straight from one client.
    await send(t, `/jobs/${job._id}`, { headers }, "127.0.0.1");
    await send(t, `/jobs/${job._id}`, { headers }, "127.0.0.1");
    await send(t, `/jobs/${job._id}`, { headers }, "203.0.113.99");
  }
  const counted = await day(t);
  assert.deepEqual([counted.uniqueVisitors, counted.totalJobViews], [51, 51]);
});

Deno.test("rotating user agents from one address, or addresses of one IPv6 /64, mint a bounded number of visitors", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const job = await withJob(t);
  for (let i = 0; i < 1_000; i++) {
    const userAgent = CHROME_DESKTOP.replace("Chrome/131.0.0.0", `Chrome/131.0.${i}.0`);
    const headers = { ...NAVIGATION, "user-agent": userAgent };
    await send(t, `/jobs/${job._id}`, { headers }, "198.51.100.77");
    await send(
      t,
      `/api/jobs/${job._id}/click`,
      { method: "POST", headers: OWN_FETCH },
      "198.51.100.77",
    );
    if (i % 250 === 0) await t.services.counter.flush();
  }
  for (let i = 0; i < 100; i++) {
    await send(t, `/jobs/${job._id}`, { headers: NAVIGATION }, `2001:db8:0:1::${i.toString(16)}`);
  }
  const counted = await day(t);
  // The first 20 browsers of each network on their own, every other one as one shared visitor.
  const perNetwork = VISITORS_PER_ADDRESS + 1;
  assert.deepEqual(
    [counted.websiteVisits, counted.uniqueVisitors, counted.totalJobViews, counted.totalJobClicks],
    [1_100, 2 * perNetwork, 2 * perNetwork, 1],
  );
});

Deno.test("an address's network is itself for IPv4 and its /64 for IPv6", () => {
  assert.equal(networkOf("203.0.113.9"), "203.0.113.9");
  assert.equal(networkOf("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(networkOf("2001:db8:0:1::5"), "2001:db8:0:1::/64");
  assert.equal(networkOf("2001:0DB8:0000:0001:aaaa:bbbb:cccc:dddd"), "2001:db8:0:1::/64");
  assert.equal(networkOf("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(networkOf("::1"), "0:0:0:0::/64");
  assert.equal(networkOf("unknown"), "unknown");
});

Deno.test("the apply link counts a navigation, never an image, a frame, a prefetch or a cross-site call", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const job = await withJob(t);
  const apply = `/jobs/${job._id}/apply`;
  const ignored: Record<string, string>[] = [
    // <img src=".../apply"> on another site, in Chromium and in an old browser with no Sec-Fetch.
    {
      "user-agent": CHROME_DESKTOP,
      accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
      "sec-fetch-dest": "image",
      "sec-fetch-mode": "no-cors",
      "sec-fetch-site": "cross-site",
    },
    { "user-agent": SAFARI_IPHONE, accept: "image/webp,image/png,image/*;q=0.8,*/*;q=0.5" },
    { ...NAVIGATION, "sec-fetch-dest": "iframe" },
    { ...NAVIGATION, "sec-fetch-mode": "no-cors", "sec-fetch-dest": "script" },
    { ...NAVIGATION, "sec-purpose": "prefetch" },
    { ...NAVIGATION, "sec-purpose": "prefetch;prerender" },
    { ...NAVIGATION, purpose: "prefetch" },
  ];
  for (const [n, headers] of ignored.entries()) {
    assert.equal(await send(t, apply, { headers }, `192.0.2.${n + 1}`), 303);
  }
  // The API click from another site's script, or loaded as an image, is not ours either.
  const crossSite = { ...OWN_FETCH, "sec-fetch-site": "cross-site" };
  await send(t, `/api/jobs/${job._id}/click`, { method: "POST", headers: crossSite }, "192.0.2.50");
  const asImage = { ...OWN_FETCH, "sec-fetch-dest": "image" };
  await send(t, `/api/jobs/${job._id}`, { headers: asImage }, "192.0.2.51");
  assert.deepEqual((await day(t)).jobs, []);

  // A navigation counts, from a browser that sends Sec-Fetch headers and from one that does not.
  await send(t, apply, { headers: NAVIGATION }, "192.0.2.60");
  await send(t, apply, {
    headers: { "user-agent": SAFARI_IPHONE, accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
  }, "192.0.2.61");
  assert.deepEqual((await day(t)).jobs, [[0, 2]]);
});

Deno.test("no file, icon, feed, HEAD request or prefetch is a website visit", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const job = await withJob(t);
  const files = [
    "/favicon.ico",
    "/apple-touch-icon.png",
    "/apple-touch-icon-precomposed.png",
    "/icon.svg",
    "/site.webmanifest",
    "/manifest.json",
    "/robots.txt",
    "/sitemap.xml",
    "/jobs/feed.xml",
    "/wp-login.php",
    `/jobs/${job.jobId}.png`,
  ];
  for (const path of files) {
    // Files this site does not have are sent home like any other unknown path, uncounted.
    await send(t, path, { headers: NAVIGATION }, "203.0.113.30");
  }
  // What a browser does when an icon request is redirected to a page: still an image fetch.
  const iconFollowingRedirect = {
    "user-agent": CHROME_DESKTOP,
    accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
    "sec-fetch-dest": "image",
    "sec-fetch-mode": "no-cors",
    "sec-fetch-site": "same-origin",
  };
  await send(t, "/", { headers: iconFollowingRedirect }, "203.0.113.30");
  await send(t, "/", { method: "HEAD", headers: NAVIGATION }, "203.0.113.30");
  await send(t, "/", { headers: { ...NAVIGATION, "sec-purpose": "prefetch" } }, "203.0.113.30");
  await send(t, "/jobs", { headers: { ...NAVIGATION, "sec-fetch-dest": "empty" } }, "203.0.113.30");
  let counted = await day(t);
  assert.deepEqual([counted.websiteVisits, counted.uniqueVisitors], [0, 0]);

  await send(t, "/", { headers: NAVIGATION }, "203.0.113.30");
  counted = await day(t);
  assert.deepEqual([counted.websiteVisits, counted.uniqueVisitors], [1, 1]);
});

Deno.test("the dashboard answer carries unique visitors as numbers: its size does not grow with visitors", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const admin = await signIn(t, { main: true });
  const dashboard = async () => {
    await t.services.counter.flush();
    const response = await t.app.request("/api/analytics/dashboard?days=7", {
      headers: admin.headers,
    });
    const text = await response.text();
    return { size: text.length, body: JSON.parse(text) as Dashboard };
  };
  await send(t, "/", { headers: NAVIGATION }, "10.0.0.1");
  const one = await dashboard();
  for (let n = 2; n <= 600; n++) {
    await send(t, "/", { headers: NAVIGATION }, `10.0.${n >> 8}.${n & 255}`);
  }
  const many = await dashboard();
  assert.equal(one.body.dailyAnalytics[6].uniqueVisitors, 1);
  assert.equal(many.body.dailyAnalytics[6].uniqueVisitors, 600);
  assert.equal(many.body.totalUniqueVisitors, 600);
  // Only the digits of the counts differ ("1" and "600" twice, the visits likewise).
  assert.ok(many.size - one.size <= 8, `${one.size} bytes, then ${many.size}`);
});

Deno.test("what the counter remembers of visitors stays within its byte budget, oldest forgotten first", () => {
  const budget = 64 * 1024;
  const remembered = new Remembered(budget);
  const key = (n: number) => `2026-03-10 ${n.toString(16).padStart(32, "0")} views job-${n}`;
  for (let n = 0; n < 100_000; n++) remembered.set(key(n), "");
  let kept = 0;
  for (let n = 0; n < 100_000; n++) if (remembered.get(key(n)) !== undefined) kept++;
  // Each entry is its key (2 bytes a character) and an empty value, with 64 bytes of overhead each.
  const entryBytes = 2 * key(99_999).length + 128;
  assert.ok(kept > 0 && kept * entryBytes <= budget, `${kept} entries kept`);
  assert.equal(remembered.get(key(99_999)), "");
  assert.equal(remembered.get(key(0)), undefined);
});
