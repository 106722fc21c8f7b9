/** Counting rules: visits, unique visitors per day, job views and clicks, and what never counts. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import {
  CHROME_DESKTOP,
  EDGE_DESKTOP,
  FIREFOX_ANDROID_TABLET,
  from,
  GOOGLEBOT,
  HEADLESS_CHROME,
  pageProbe,
  report,
  SAFARI_IPHONE,
} from "./fixtures.ts";
import type { Trends } from "../../kv/analytics/types.ts";
import { keys } from "../../kv/keys.ts";
import { waitFor } from "../helpers/wait.ts";

Deno.test("one visitor opening 20 pages is 20 visits and 1 unique visitor, and counts again the next day", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const pages = pageProbe(t);
  for (let i = 0; i < 20; i++) {
    const path = i % 2 ? "/jobs" : "/";
    await pages.request(path, { headers: { "user-agent": CHROME_DESKTOP } }, from("203.0.113.7"));
  }
  await t.services.counter.flush();
  // Same address, another browser: another visitor. Another address, same browser: another one.
  await pages.request("/", { headers: { "user-agent": SAFARI_IPHONE } }, from("203.0.113.7"));
  await pages.request("/", { headers: { "user-agent": CHROME_DESKTOP } }, from("198.51.100.2"));
  await t.services.counter.flush();

  t.clock.now = new Date("2026-03-11T08:00:00Z");
  for (let i = 0; i < 3; i++) {
    await pages.request("/", { headers: { "user-agent": CHROME_DESKTOP } }, from("203.0.113.7"));
  }
  await t.services.counter.flush();

  const admin = await signIn(t, { permissions: { canViewAnalytics: true } });
  const { trends } = await report<Trends>(t, admin, "/api/analytics/trends?days=2");
  assert.deepEqual(trends.map((day) => [day.date, day.websiteVisits, day.uniqueVisitors]), [
    ["2026-03-10", 22, 3],
    ["2026-03-11", 3, 1],
  ]);
  assert.deepEqual(trends[0].deviceInfo, { desktop: 21, mobile: 1, tablet: 0 });
  assert.deepEqual(trends[0].browserInfo, {
    chrome: 21,
    firefox: 0,
    safari: 1,
    edge: 0,
    others: 0,
  });
});

Deno.test("a visitor seen again after a flush is still one unique visitor", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const admin = await signIn(t, { main: true });
  const pages = pageProbe(t);
  for (let i = 0; i < 3; i++) {
    await pages.request("/", { headers: { "user-agent": EDGE_DESKTOP } }, from("192.0.2.1"));
    await t.services.counter.flush();
  }
  const overview = await report(t, admin, "/api/analytics/overview?days=1");
  assert.deepEqual(overview, {
    totalVisits: 3,
    totalUniqueVisitors: 1,
    totalJobViews: 0,
    totalJobClicks: 0,
  });
});

Deno.test("bots, headless browsers, prefetches and HEAD requests count nothing", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const admin = await signIn(t, { main: true });
  const created = await t.services.jobs.create(sampleJob());
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  const pages = pageProbe(t);
  const ignored: [string, RequestInit][] = [
    ["/", { headers: { "user-agent": GOOGLEBOT } }],
    ["/", { headers: { "user-agent": HEADLESS_CHROME } }],
    ["/", { headers: {} }],
    ["/", { headers: { "user-agent": CHROME_DESKTOP, "sec-purpose": "prefetch" } }],
    ["/", { headers: { "user-agent": CHROME_DESKTOP, "sec-purpose": "prefetch;prerender" } }],
    ["/", { headers: { "user-agent": CHROME_DESKTOP, purpose: "prefetch" } }],
    ["/", { method: "HEAD", headers: { "user-agent": CHROME_DESKTOP } }],
    [`/jobs/${job._id}`, { headers: { "user-agent": GOOGLEBOT } }],
    [`/jobs/${job._id}`, { method: "HEAD", headers: { "user-agent": CHROME_DESKTOP } }],
  ];
  for (const [path, init] of ignored) await pages.request(path, init, from("203.0.113.9"));
  const api: [string, RequestInit][] = [
    [`/api/jobs/${job._id}`, { headers: { "user-agent": GOOGLEBOT } }],
    [`/api/jobs/${job._id}`, { method: "HEAD", headers: { "user-agent": CHROME_DESKTOP } }],
    [`/api/jobs/${job._id}`, {
      headers: { "user-agent": CHROME_DESKTOP, "sec-purpose": "prefetch" },
    }],
    [`/api/jobs/${job._id}/click`, { method: "POST", headers: { "user-agent": GOOGLEBOT } }],
    [`/api/jobs/${job._id}/click`, { method: "POST", headers: { "user-agent": HEADLESS_CHROME } }],
  ];
  for (const [path, init] of api) await t.app.request(path, init, from("203.0.113.9"));
  await t.services.counter.flush();
  assert.deepEqual(await report(t, admin, "/api/analytics/overview?days=1"), {
    totalVisits: 0,
    totalUniqueVisitors: 0,
    totalJobViews: 0,
    totalJobClicks: 0,
  });

  // The same requests from a person do count, so the zeros above are not an accident.
  await pages.request(`/jobs/${job._id}`, {
    headers: { "user-agent": FIREFOX_ANDROID_TABLET },
  }, from("203.0.113.9"));
  await t.app.request(`/api/jobs/${job._id}/click`, {
    method: "POST",
    headers: { "user-agent": FIREFOX_ANDROID_TABLET },
  }, from("203.0.113.9"));
  await t.services.counter.flush();
  const { trends } = await report<Trends>(t, admin, "/api/analytics/trends?days=1");
  assert.deepEqual(trends[0], {
    date: "2026-03-10",
    websiteVisits: 1,
    uniqueVisitors: 1,
    totalJobViews: 1,
    totalJobClicks: 1,
    deviceInfo: { desktop: 0, mobile: 0, tablet: 1 },
    browserInfo: { chrome: 0, firefox: 1, safari: 0, edge: 0, others: 0 },
  });
});

Deno.test("public job views and clicks count once per visitor on the job, per day and in the totals; an admin's read does not", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const admin = await signIn(t, { main: true });
  const created = await t.services.jobs.create(sampleJob({ role: "Data Engineer" }));
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  const person = { headers: { "user-agent": SAFARI_IPHONE } };
  // The Manage Jobs list answer is kept while no total changes, and follows them when they do.
  const listed = async () => {
    const response = await t.app.request("/api/jobs/admin/all", { headers: admin.headers });
    return (await response.json()).jobs.map((item: { analytics: unknown }) => item.analytics);
  };
  assert.deepEqual(await listed(), [{ views: 0, clicks: 0 }]);
  for (const id of [job._id, job.jobId, job._id]) {
    assert.deepEqual((await t.app.request(`/api/jobs/${id}`, person)).status, 200);
  }
  for (let i = 0; i < 2; i++) {
    const response = await t.app.request(`/api/jobs/${job.jobId}/click`, {
      method: "POST",
      ...person,
    });
    assert.deepEqual(response.status, 200);
  }
  const adminRead = await t.app.request(`/api/jobs/${job._id}`, {
    headers: { ...admin.headers, "user-agent": CHROME_DESKTOP },
  });
  assert.deepEqual(adminRead.status, 200);
  // Another person's view and click count too: each visitor once a day per job.
  const other = { headers: { "user-agent": CHROME_DESKTOP } };
  assert.deepEqual(
    (await t.app.request(`/api/jobs/${job._id}`, other, from("192.0.2.4"))).status,
    200,
  );
  const click = await t.app.request(`/api/jobs/${job._id}/click`, {
    method: "POST",
    ...other,
  }, from("192.0.2.4"));
  assert.deepEqual(click.status, 200);
  await t.services.counter.flush();

  const seen = await (await t.app.request(`/api/jobs/${job._id}`, { headers: admin.headers }))
    .json();
  assert.deepEqual(seen.analytics, { views: 2, clicks: 2 });
  assert.deepEqual(await listed(), [{ views: 2, clicks: 2 }]);
  const { jobs } = await report<{ jobs: unknown[] }>(t, admin, "/api/analytics/jobs?days=1");
  assert.deepEqual(jobs, [{
    _id: job._id,
    jobId: job.jobId,
    role: "Data Engineer",
    companyName: job.companyName,
    views: 2,
    clicks: 2,
    conversionRate: 100,
  }]);
  const perDay = await t.kv.get<Deno.KvU64>(keys.analyticsJobDay("2026-03-10", job._id, "views"));
  assert.deepEqual(perDay.value?.value, 2n);
  assert.deepEqual(await report(t, admin, "/api/analytics/overview?days=1"), {
    totalVisits: 0,
    totalUniqueVisitors: 0,
    totalJobViews: 2,
    totalJobClicks: 2,
  });
});

Deno.test("a deleted job keeps its name in the top jobs", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const admin = await signIn(t, { main: true });
  const created = await t.services.jobs.create(
    sampleJob({ role: "Gone Role", companyName: "Gone" }),
  );
  if (!created.ok) throw new Error("job not created");
  await t.app.request(`/api/jobs/${created.job._id}`, {
    headers: { "user-agent": CHROME_DESKTOP },
  });
  await t.services.counter.flush();
  await t.services.jobs.delete(created.job._id);
  const { jobs } = await report<{ jobs: { role: string; views: number }[] }>(
    t,
    admin,
    "/api/analytics/jobs?days=7",
  );
  assert.deepEqual(jobs.map((row) => [row.role, row.views]), [["Gone Role", 1]]);
  const { companies } = await report<{ companies: unknown[] }>(
    t,
    admin,
    "/api/analytics/companies?days=7",
  );
  assert.deepEqual(companies, [{ company: "Gone", views: 1, clicks: 0, conversionRate: 0 }]);
});

Deno.test("days are calendar days in TIMEZONE", async () => {
  // 20:00 UTC on 10 March is 01:30 on 11 March in India.
  await using t = await testApp({
    now: new Date("2026-03-10T20:00:00Z"),
    config: { TIMEZONE: "Asia/Kolkata" },
  });
  const admin = await signIn(t, { main: true });
  await pageProbe(t).request("/", { headers: { "user-agent": CHROME_DESKTOP } });
  await t.services.counter.flush();
  const { trends } = await report<Trends>(t, admin, "/api/analytics/trends?days=2");
  assert.deepEqual(trends.map((day) => [day.date, day.websiteVisits]), [
    ["2026-03-10", 0],
    ["2026-03-11", 1],
  ]);
});

Deno.test("counts are written within a second without an explicit flush", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  await pageProbe(t).request("/", { headers: { "user-agent": CHROME_DESKTOP } });
  const key = keys.analyticsDayTotal("2026-03-10", "visits");
  assert.deepEqual((await t.kv.get(key)).value, null);
  const written = await waitFor(
    "the day's visits in KV",
    async () => (await t.kv.get<Deno.KvU64>(key)).value ?? undefined,
  );
  assert.deepEqual(written.value, 1n);
});

Deno.test("no address or user agent is stored, only one marker per visitor", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  await pageProbe(t).request(
    "/",
    { headers: { "user-agent": CHROME_DESKTOP } },
    from("203.0.113.77"),
  );
  await t.services.counter.flush();
  for await (const entry of t.kv.list({ prefix: [] })) {
    const text = JSON.stringify(entry.key) +
      JSON.stringify(entry.value, (_, value) => typeof value === "bigint" ? String(value) : value);
    assert.deepEqual(text.includes("203.0.113.77"), false, `address stored in ${entry.key}`);
    assert.deepEqual(text.includes("Chrome/131"), false, `user agent stored in ${entry.key}`);
  }
  const markers = await Array.fromAsync(
    t.kv.list({ prefix: keys.analyticsVisitors("2026-03-10") }),
  );
  assert.deepEqual(markers.length, 1);
});
