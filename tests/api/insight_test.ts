/** Insight: one job's days and sources, traffic sources, search terms, and their place in the export. */
import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { CHROME_DESKTOP, from, GOOGLEBOT, report, SAFARI_IPHONE } from "../analytics/fixtures.ts";
import type { JobInsight, SearchesReport, SourcesReport } from "../../kv/analytics/types.ts";
import type { Job } from "../../kv/schemas.ts";
import { DIMENSION_LIMITS, DIMENSIONS, recordSearches } from "../../kv/analytics/dimensions.ts";
import { keys } from "../../kv/keys.ts";
import { type Trap, trappedKv } from "../helpers/kv.ts";

const NOW = new Date("2026-03-10T10:00:00Z");
/** What a browser sends when a person follows a link or types an address. */
const NAVIGATE = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" };

async function createJob(
  t: TestApp,
  overrides: Parameters<typeof sampleJob>[0] = {},
): Promise<Job> {
  const created = await t.services.jobs.create(sampleJob(overrides));
  if (!created.ok) throw new Error("job not created");
  return created.job;
}

/**
 * A person at `address` opening `path`, arriving from `referer` (none: typed or an app), following
 * a redirect to the canonical address as a browser does (keeping the Referer).
 */
async function visit(
  t: TestApp,
  path: string,
  { address = "203.0.113.7", referer, userAgent = CHROME_DESKTOP }: {
    address?: string;
    referer?: string;
    userAgent?: string;
  } = {},
) {
  const headers: Record<string, string> = { ...NAVIGATE, "user-agent": userAgent };
  if (referer) headers.referer = referer;
  const response = await t.app.request(path, { headers }, from(address));
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) return response;
  await response.body?.cancel();
  return t.app.request(location, { headers }, from(address));
}

async function expectStatus(t: TestApp, path: string, headers: HeadersInit, status: number) {
  const response = await t.app.request(path, { headers });
  await response.body?.cancel();
  assert.equal(response.status, status, path);
}

Deno.test("traffic sources group referrers as Plausible does and count utm_source and utm_campaign", async () => {
  await using t = await testApp({ now: NOW });
  const visits: [string, { referer?: string; address?: string; userAgent?: string }][] = [
    ["/", { referer: "https://www.google.com/" }],
    ["/jobs", { referer: "https://www.google.co.in/search?q=private" }],
    ["/", { referer: "android-app://com.google.android.googlequicksearchbox/" }],
    ["/", { referer: "https://www.bing.com/search?q=jobs" }],
    ["/", { referer: "https://duckduckgo.com/" }],
    ["/", { referer: "https://www.linkedin.com/feed/" }],
    ["/", { referer: "https://lnkd.in/abc" }],
    ["/", { referer: "https://l.facebook.com/l.php?u=x" }],
    ["/", { referer: "https://t.co/xyz" }],
    ["/", { referer: "https://old.reddit.com/r/jobs" }],
    ["/", { referer: "https://mail.google.com/mail/u/0/" }],
    ["/", { referer: "https://news.example.org/story/42?user=ana" }],
    ["/", {}],
    ["/?utm_source=WhatsApp&utm_medium=share&utm_campaign=Spring%20Hiring", {}],
    ["/?utm_source=newsletter&utm_campaign=spring%20hiring", { referer: "https://example.net/" }],
    ["/?utm_medium=email", {}],
    // Moves within the site are not sources; bots count nothing.
    ["/jobs", { referer: "http://localhost/" }],
    ["/", { referer: "https://www.google.com/", userAgent: GOOGLEBOT }],
  ];
  for (const [path, options] of visits) await (await visit(t, path, options)).body?.cancel();
  await t.services.counter.flush();

  const admin = await signIn(t, { permissions: { canViewAnalytics: true } });
  const sources = await report<SourcesReport>(t, admin, "/api/analytics/sources?days=7");
  assert.deepEqual(sources.sources, [
    { source: "Google", visits: 3 },
    { source: "Newsletter / E-mail", visits: 3 },
    { source: "LinkedIn", visits: 2 },
    { source: "Bing", visits: 1 },
    { source: "Direct / None", visits: 1 },
    { source: "DuckDuckGo", visits: 1 },
    { source: "Facebook", visits: 1 },
    { source: "news.example.org", visits: 1 },
    { source: "Reddit", visits: 1 },
    { source: "WhatsApp", visits: 1 },
    { source: "X (Twitter)", visits: 1 },
  ]);
  assert.equal(sources.visits, 16);
  assert.deepEqual(sources.utmSources, [
    { value: "newsletter", visits: 1 },
    { value: "whatsapp", visits: 1 },
  ]);
  assert.deepEqual(sources.utmCampaigns, [{ value: "spring hiring", visits: 2 }]);
  assert.equal(sources.from, "2026-03-04");
  assert.equal(sources.to, "2026-03-10");
  // No path or query of another site is kept, in the answer or in the database.
  assert.doesNotMatch(JSON.stringify(sources), /private|user=ana|story/);
  for (const prefix of [["analytics_dim_day"], ["analytics_job_source"]]) {
    for await (const entry of t.kv.list({ prefix })) {
      assert.doesNotMatch(JSON.stringify(entry.key), /private|user=ana|story|:\/\//);
    }
  }

  const limited = await report<SourcesReport>(t, admin, "/api/analytics/sources?days=7&limit=2");
  assert.deepEqual(limited.sources, [
    { source: "Google", visits: 3 },
    { source: "Newsletter / E-mail", visits: 3 },
    { source: "(other)", visits: 10 },
  ]);
});

Deno.test("each insight report needs canViewAnalytics and a period it offers", async () => {
  await using t = await testApp({ now: NOW });
  const job = await createJob(t);
  const paths = [
    "/api/analytics/sources",
    "/api/analytics/searches",
    `/api/analytics/jobs/${job._id}`,
  ];
  const without = await signIn(t, { permissions: { canCreateJobs: true } });
  const viewer = await signIn(t, { permissions: { canViewAnalytics: true } });
  for (const path of paths) {
    await expectStatus(t, `${path}?days=7`, {}, 401);
    await expectStatus(t, `${path}?days=7`, without.headers, 403);
    await expectStatus(t, `${path}?days=7`, viewer.headers, 200);
    for (const days of ["0", "366", "abc", "7.5", "-1"]) {
      const response = await t.app.request(`${path}?days=${days}`, { headers: viewer.headers });
      assert.equal(response.status, 400, `${path}?days=${days}`);
      assert.match((await response.json()).message, /days/);
    }
  }
  await expectStatus(t, "/api/analytics/sources?limit=0", viewer.headers, 400);
  await expectStatus(t, "/api/analytics/jobs/000000000000000000000000?days=7", viewer.headers, 404);
});

Deno.test("a job's insight gives its views and clicks a day and where its views came from", async () => {
  await using t = await testApp({ now: new Date("2026-03-09T10:00:00Z") });
  const job = await createJob(t);
  const other = await createJob(t, { role: "Data Analyst" });
  const page = `/jobs/${job.jobId}`;
  await (await visit(t, page, { referer: "https://www.google.com/", address: "198.51.100.1" }))
    .body?.cancel();
  await (await visit(t, page, { address: "198.51.100.2" })).body?.cancel();
  // The same visitor again the same day counts once.
  await (await visit(t, page, { address: "198.51.100.2" })).body?.cancel();
  await (await visit(t, `/jobs/${other.jobId}`, { address: "198.51.100.3" })).body?.cancel();
  await (await visit(t, page, { userAgent: GOOGLEBOT, referer: "https://www.bing.com/" })).body
    ?.cancel();
  await t.services.counter.flush();

  t.clock.now = NOW;
  await (await visit(t, `${page}?utm_source=whatsapp&utm_medium=share`, {
    address: "198.51.100.4",
    userAgent: SAFARI_IPHONE,
  })).body?.cancel();
  const api = await t.app.request(`/api/jobs/${job._id}`, {
    headers: { "user-agent": CHROME_DESKTOP, "sec-fetch-site": "same-origin" },
  }, from("198.51.100.5"));
  await api.body?.cancel();
  const click = await t.app.request(`/api/jobs/${job._id}/click`, {
    method: "POST",
    headers: { "user-agent": CHROME_DESKTOP, "sec-fetch-site": "same-origin" },
  }, from("198.51.100.4"));
  assert.equal(click.status, 200);
  await click.body?.cancel();
  await t.services.counter.flush();

  const admin = await signIn(t, { main: true });
  const insight = await report<JobInsight>(t, admin, `/api/analytics/jobs/${job._id}?days=7`);
  assert.equal(insight.job.role, job.role);
  assert.equal(insight.daily.length, 7);
  assert.deepEqual(insight.daily.slice(-2), [
    { date: "2026-03-09", views: 2, clicks: 0 },
    { date: "2026-03-10", views: 2, clicks: 1 },
  ]);
  assert.equal(insight.views, 4);
  assert.equal(insight.clicks, 1);
  assert.equal(insight.conversionRate, 25);
  assert.deepEqual(insight.sources, [
    { source: "Direct / None", views: 1 },
    { source: "Google", views: 1 },
    { source: "This site", views: 1 },
    { source: "WhatsApp", views: 1 },
  ]);
  const oneDay = await report<JobInsight>(t, admin, `/api/analytics/jobs/${job._id}?days=1`);
  assert.deepEqual(oneDay.daily, [{ date: "2026-03-10", views: 2, clicks: 1 }]);
  assert.deepEqual(oneDay.sources.map((row) => row.source), ["This site", "WhatsApp"]);
});

/** A search by the visitor at `address`, on the /jobs page or through the public API. */
async function search(t: TestApp, keywords: string, address: string, via: "page" | "api" = "page") {
  const query = new URLSearchParams({ keywords }).toString();
  const response = via === "page"
    ? await visit(t, `/jobs?${query}`, { address })
    : await t.app.request(`/api/jobs?${query}`, {
      headers: { "user-agent": CHROME_DESKTOP, "sec-fetch-site": "same-origin" },
    }, from(address));
  await response.body?.cancel();
}

Deno.test("searches are normalised and counted once per visitor a day, with their results", async () => {
  await using t = await testApp({ now: NOW });
  await createJob(t, { role: "Python Developer" });
  await createJob(t, { role: "Senior Python Developer" });
  // One visitor, three spellings and both places: one search.
  await search(t, "  Python   Developer ", "192.0.2.1");
  await search(t, "python developer", "192.0.2.1");
  await search(t, "PYTHON\tdeveloper", "192.0.2.1", "api");
  await search(t, "python developer", "192.0.2.2", "api");
  // NFD and NFC spellings of "café" are one term.
  await search(t, "cafe\u0301 manager", "192.0.2.3");
  await search(t, "caf\u00e9 manager", "192.0.2.4");
  await search(t, "underwater basket weaving", "192.0.2.5");
  await search(t, "python developer", "192.0.2.6", "api");
  // Bots, and requests with no words, count nothing.
  const bot = await t.app.request("/jobs?keywords=python+developer", {
    headers: { ...NAVIGATE, "user-agent": GOOGLEBOT },
  }, from("192.0.2.9"));
  await bot.body?.cancel();
  await search(t, "   ", "192.0.2.7");
  await t.services.counter.flush();

  const admin = await signIn(t, { main: true });
  const report1 = await report<SearchesReport>(t, admin, "/api/analytics/searches?days=7");
  assert.deepEqual(report1.top, [
    { query: "python developer", searches: 3, results: 2 },
    { query: "café manager", searches: 2, results: 0 },
    { query: "underwater basket weaving", searches: 1, results: 0 },
  ]);
  assert.deepEqual(report1.zeroResults, [
    { query: "café manager", searches: 2 },
    { query: "underwater basket weaving", searches: 1 },
  ]);
  assert.equal(report1.searches, 6);
  assert.equal(report1.otherSearches, 0);

  // The next day the same visitor counts again.
  t.clock.now = new Date("2026-03-11T09:00:00Z");
  await search(t, "python developer", "192.0.2.1");
  await t.services.counter.flush();
  const later = await signIn(t, { main: true });
  const report2 = await report<SearchesReport>(t, later, "/api/analytics/searches?days=7");
  assert.deepEqual(report2.top[0], { query: "python developer", searches: 4, results: 2 });
  const today = await report<SearchesReport>(t, later, "/api/analytics/searches?days=1");
  assert.deepEqual(today.top, [{ query: "python developer", searches: 1, results: 2 }]);

  // Yesterday was read (and kept as one record); a batch written late for it still shows.
  await recordSearches(t.kv, "2026-03-10", [{
    visitor: "late",
    dimension: "searches",
    value: "rust",
    results: 0,
  }]);
  const report3 = await report<SearchesReport>(t, later, "/api/analytics/searches?days=7");
  assert.deepEqual(report3.zeroResults.map((row) => row.query), [
    "café manager",
    "rust",
    "underwater basket weaving",
  ]);
});

Deno.test("a search answered only by partial matches counts as one that found nothing", async () => {
  await using t = await testApp({ now: NOW });
  await createJob(t, { role: "Python Developer" });
  // No job says chef: the page offers the Python job as a partial match.
  await search(t, "python chef", "192.0.2.1");
  await search(t, "python", "192.0.2.2");
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const searches = await report<SearchesReport>(t, admin, "/api/analytics/searches?days=7");
  assert.deepEqual(searches.top, [
    { query: "python", searches: 1, results: 1 },
    { query: "python chef", searches: 1, results: 0 },
  ]);
  assert.deepEqual(searches.zeroResults, [{ query: "python chef", searches: 1 }]);
});

Deno.test("a search term keeps its first 100 characters, whole ones in any script", async () => {
  await using t = await testApp({ now: NOW });
  const devanagari = "नौकरी ".repeat(30); // 180 code points
  const emoji = "👩‍💻".repeat(60); // 180 code points, many UTF-16 surrogate pairs
  await search(t, devanagari, "192.0.2.1");
  await search(t, emoji, "192.0.2.2");
  await search(t, "x".repeat(150), "192.0.2.3");
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const { top } = await report<SearchesReport>(t, admin, "/api/analytics/searches?days=1");
  const queries = top.map((row) => row.query);
  assert.equal(queries.length, 3);
  for (const query of queries) {
    assert.ok(Array.from(query).length <= 100, query);
    assert.equal(query, query.normalize("NFC"));
    // No lone surrogate: the text survives a round trip through UTF-8.
    assert.equal(new TextDecoder().decode(new TextEncoder().encode(query)), query);
  }
  assert.ok(queries.includes("x".repeat(100)));
  // Whole characters as a reader sees them: 33 women technologists of 3 code points each, and no
  // consonant without its vowel sign (the 100th code point is र, whose ी would be the 101st).
  assert.ok(queries.includes("👩‍💻".repeat(33)));
  assert.ok(queries.includes(`${"नौकरी ".repeat(16)}नौक`));
});

Deno.test("a day keeps its first distinct search terms and counts the rest as other", async () => {
  await using t = await testApp({ now: NOW });
  const limit = DIMENSION_LIMITS.searches;
  for (let i = 0; i < limit + 5; i++) {
    await search(t, `term ${i}`, `10.0.${Math.floor(i / 200)}.${i % 200}`, "api");
    if (i % 50 === 49) await t.services.counter.flush();
  }
  // A term already admitted still counts as itself after the day is full.
  await search(t, "term 0", "10.9.9.9", "api");
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const report1 = await report<SearchesReport>(
    t,
    admin,
    "/api/analytics/searches?days=1&limit=100",
  );
  assert.equal(report1.otherSearches, 5);
  assert.equal(report1.searches, limit + 6);
  assert.equal(report1.top.length, 100);
  assert.deepEqual(report1.top[0], { query: "term 0", searches: 2, results: 0 });
  assert.ok(!report1.top.some((row) => row.query === `term ${limit}`));
  const stored = await Array.fromAsync(
    t.kv.list({ prefix: ["analytics_dim_day", "2026-03-10", "searches"] }),
  );
  const terms = new Set(stored.map((entry) => entry.key[3]));
  assert.equal(terms.size, limit + 1, "the admitted terms and (other)");
});

Deno.test("the analytics export holds the sources, the search terms and the top jobs' sources", async () => {
  await using t = await testApp({ now: NOW });
  const job = await createJob(t);
  await (await visit(t, `/jobs/${job.jobId}`, { referer: "https://www.linkedin.com/" })).body
    ?.cancel();
  await search(t, "=cmd|' /C calc'!A0", "192.0.2.1", "api");
  await search(t, "software engineer", "192.0.2.2", "api");
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });

  const json = await report<{
    sources: SourcesReport;
    searches: SearchesReport;
    jobSources: { jobId: string; sources: { source: string; views: number }[] }[];
  }>(t, admin, "/api/analytics/export?days=7&format=json");
  assert.deepEqual(json.sources.sources, [{ source: "LinkedIn", visits: 1 }]);
  assert.deepEqual(json.searches.top.map((row) => row.query), [
    "=cmd|' /c calc'!a0",
    "software engineer",
  ]);
  assert.deepEqual(json.jobSources, [{
    jobId: job.jobId,
    role: job.role,
    sources: [{ source: "LinkedIn", views: 1 }],
  }]);

  const response = await t.app.request("/api/analytics/export?days=7&format=csv", {
    headers: admin.headers,
  });
  const csv = await response.text();
  assert.match(csv, /\r\nTraffic sources\r\ndimension,value,visits\r\nsource,LinkedIn,1\r\n/);
  assert.match(csv, /\r\nSearch terms\r\nquery,searches,results\r\n/);
  // A term that a spreadsheet would run as a formula stays text.
  assert.match(csv, /\r\n'=cmd\|' \/c calc'!a0,1,0\r\n/);
  assert.match(csv, /\r\nsoftware engineer,1,1\r\n/);
  assert.match(
    csv,
    new RegExp(`\\r\\nTop jobs by source\\r\\njobId,role,source,views\\r\\n${job.jobId},`),
  );
});

Deno.test("the job list keeps a campaign's tags through its canonical redirect, and counts them", async () => {
  await using t = await testApp({ now: NOW });
  const direct = await t.app.request("/jobs?utm_source=newsletter&utm_campaign=weekly", {
    headers: { ...NAVIGATE, "user-agent": CHROME_DESKTOP },
  }, from("192.0.2.1"));
  assert.equal(direct.status, 200);
  await direct.body?.cancel();
  const moved = await t.app.request("/jobs?utm_source=LinkedIn&keywords=%20python%20&x=1", {
    headers: { ...NAVIGATE, "user-agent": CHROME_DESKTOP },
  }, from("192.0.2.2"));
  assert.equal(moved.status, 302);
  assert.equal(moved.headers.get("location"), "/jobs?keywords=python&utm_source=LinkedIn");
  await (await visit(t, "/jobs?utm_source=LinkedIn&keywords=%20python%20", {
    address: "192.0.2.2",
  })).body?.cancel();
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const sources = await report<SourcesReport>(t, admin, "/api/analytics/sources?days=1");
  assert.deepEqual(sources.sources, [
    { source: "LinkedIn", visits: 1 },
    { source: "Newsletter / E-mail", visits: 1 },
  ]);
  assert.deepEqual(sources.utmCampaigns, [{ value: "weekly", visits: 1 }]);
});

Deno.test("a day keeps its first 100 referring sites and counts the rest as other", async () => {
  await using t = await testApp({ now: NOW });
  const limit = DIMENSION_LIMITS.sources;
  for (let i = 0; i < limit + 3; i++) {
    const response = await visit(t, "/", {
      referer: `https://site-${i}.example/`,
      address: `10.1.${Math.floor(i / 200)}.${i % 200}`,
    });
    await response.body?.cancel();
  }
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const sources = await report<SourcesReport>(t, admin, "/api/analytics/sources?days=1&limit=100");
  assert.equal(sources.visits, limit + 3);
  assert.equal(sources.sources.length, 101);
  assert.deepEqual(sources.sources.at(-1), { source: "(other)", visits: 3 });
  const stored = await Array.fromAsync(
    t.kv.list({ prefix: ["analytics_dim_day", "2026-03-10", "sources"] }),
  );
  assert.equal(stored.length, limit + 1, "the admitted sites and (other)");
});

Deno.test("a flush that fails halfway counts each source once when it is retried", async () => {
  const trap: Trap = { mode: null, expireIns: [] };
  await using t = await testApp({ now: NOW, wrapKv: (kv) => trappedKv(kv, trap) });
  await (await visit(t, "/?utm_source=newsletter", { referer: "https://www.google.com/" })).body
    ?.cancel();
  // The day's totals and the sources commit; the utm_source write fails.
  trap.after = 2;
  trap.mode = "crash";
  await assert.rejects(t.services.counter.flush(), /the process died/);
  await t.services.counter.flush();
  const admin = await signIn(t, { main: true });
  const sources = await report<SourcesReport>(t, admin, "/api/analytics/sources?days=1");
  assert.deepEqual(sources.sources, [{ source: "Newsletter / E-mail", visits: 1 }]);
  assert.deepEqual(sources.utmSources, [{ value: "newsletter", visits: 1 }]);
});

Deno.test("each hour past days are packed once, a late write repacks its day, and reports read the packs", async () => {
  await using t = await testApp({ now: NOW });
  await recordSearches(t.kv, "2026-03-08", [{
    visitor: "a",
    dimension: "searches",
    value: "java",
    results: 3,
  }]);
  await recordSearches(t.kv, "2026-03-09", [
    { visitor: "a", dimension: "searches", value: "java", results: 2 },
    { visitor: "b", dimension: "searches", value: "cobol", results: 0 },
  ]);
  // Today is not over: its counts are read as they are, never packed.
  await recordSearches(t.kv, "2026-03-10", [{
    visitor: "c",
    dimension: "searches",
    value: "go",
    results: 1,
  }]);
  const pack = async (day: string) =>
    (await t.kv.get<{ values: [string, Record<string, number>][] }>(
      keys.analyticsDimPack(day, "searches"),
    )).value?.values.map(([term, fields]) => [term, fields.n]);

  // Two past days with counts, each in every dimension.
  assert.equal(await t.services.insight.packPastDays(), 2 * DIMENSIONS.length);
  assert.deepEqual(await pack("2026-03-08"), [["java", 1]]);
  assert.deepEqual((await pack("2026-03-09"))?.sort(), [["cobol", 1], ["java", 1]]);
  assert.equal(await pack("2026-03-10"), undefined);
  assert.equal(await t.services.insight.packPastDays(), 0);

  await recordSearches(t.kv, "2026-03-09", [{
    visitor: "d",
    dimension: "searches",
    value: "java",
    results: 2,
  }]);
  assert.equal(await t.services.insight.packPastDays(), DIMENSIONS.length);
  assert.deepEqual((await pack("2026-03-09"))?.sort(), [["cobol", 1], ["java", 2]]);

  const admin = await signIn(t, { main: true });
  const searches = await report<SearchesReport>(t, admin, "/api/analytics/searches?days=7");
  assert.deepEqual(searches.top, [
    { query: "java", searches: 3, results: 2 },
    { query: "cobol", searches: 1, results: 0 },
    { query: "go", searches: 1, results: 1 },
  ]);
});
