/**
 * The one answer cache: bounded in bytes, equal questions share one answer, and what is asked again
 * survives a crawl of the long tail.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { AskCounts, BoundedCache, CACHE_BUDGETS } from "../../kv/bounded-cache.ts";
import { AnalyticsReports } from "../../kv/analytics/reports.ts";
import { verdicts } from "../../server/visitors.ts";
import { QueryReadings } from "../../server/cache.ts";
import { Hono } from "hono";
import { gunzipSync } from "node:zlib";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import { plainAnswers } from "../../routes/pages/cache.ts";
import { loadConfig } from "../../server/config.ts";
import { sampleJob, testApp } from "../helpers/server.ts";

Deno.test("a bounded cache holds at most its budget, whatever is put in", () => {
  const cache = new BoundedCache<string>(100_000);
  for (let i = 0; i < 5_000; i++) {
    cache.set(`key ${i}`, 1, "x".repeat(i % 3000), i % 3000);
    assert.ok(cache.bytes <= 100_000, `${cache.bytes} bytes after ${i + 1} entries`);
  }
  // One value larger than an eighth of the budget is not kept: it would flush everything else.
  cache.set("huge", 1, "y", 20_000);
  assert.equal(cache.get("huge", 1), undefined);
});

Deno.test("what is asked again survives a walk over many entries asked once", () => {
  const cache = new BoundedCache<number>(1_000_000);
  const hot = ["home", "search react", "search python"];
  for (const key of hot) {
    cache.set(key, 7, 1, 20_000);
    assert.equal(cache.get(key, 7), 1);
  }
  for (let i = 0; i < 10_000; i++) cache.set(`job ${i}`, 7, 1, 20_000);
  for (const key of hot) assert.equal(cache.get(key, 7), 1, `${key} was pushed out`);
  assert.equal(cache.get("job 0", 7), undefined);
  assert.equal(cache.get("job 9999", 7), 1);
});

Deno.test("an entry asked for now and then keeps its place while many others are asked twice", () => {
  // About 48 entries fit, 38 of them protected; each round protects one more.
  const cache = new BoundedCache<number>(1_000_000);
  cache.set("home", 1, 1, 20_000);
  assert.equal(cache.get("home", 1), 1);
  for (let i = 0; i < 2_000; i++) {
    cache.set(`job ${i}`, 1, 1, 20_000);
    assert.equal(cache.get(`job ${i}`, 1), 1);
    if (i % 12 === 0) assert.equal(cache.get("home", 1), 1, `home was pushed out by job ${i}`);
  }
  assert.equal(cache.get("job 0", 1), undefined);
});

Deno.test("an entry made for another version is a miss, and its replacement stays protected", () => {
  const cache = new BoundedCache<string>(1_000_000);
  cache.set("home", 1, "old", 10_000);
  assert.equal(cache.get("home", 1), "old");
  assert.equal(cache.get("home", 2), undefined);
  cache.set("home", 2, "new", 10_000);
  for (let i = 0; i < 1_000; i++) cache.set(`job ${i}`, 2, "page", 10_000);
  assert.equal(cache.get("home", 2), "new");
  assert.equal(cache.get("home", 1), undefined);
});

Deno.test("every spelling of one public search shares one answer", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) {
    await t.services.jobs.create(sampleJob({ role: i % 2 ? "React Developer" : "Data Analyst" }));
  }
  const spellings = [
    "?keywords=react%20developer&limit=100",
    "?limit=100&keywords=react+developer",
    "?keywords=%20%20React%20%20%20DEVELOPER%20&limit=100",
    "?keywords=react%09developer&limit=100&page=1&sortBy=relevance&sortOrder=desc",
    "?location=&keywords=REACT+developer&limit=100&employmentType=",
  ];
  const first = await t.app.request(`/api/jobs${spellings[0]}`);
  const expected = await first.text();
  assert.equal(JSON.parse(expected).pagination.totalJobs, 15);
  const held = t.services.cache.bytes;
  for (let round = 0; round < 100; round++) {
    for (const spelling of spellings) {
      const response = await t.app.request(`/api/jobs${spelling}`);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), expected);
    }
  }
  assert.equal(t.services.cache.bytes, held, "a spelling of the same search was kept again");
});

Deno.test("a query string is read once, a bad one fails every time, and a flood of them stays within budget", async () => {
  let reads = 0;
  const readings = new QueryReadings((c) => {
    reads++;
    const { n } = c.req.query();
    if (!/^\d+$/.test(n ?? "")) throw new Error("n must be digits");
    return { n: Number(n) };
  }, 20_000);
  const app = new Hono().get("/", (c) => c.json(readings.of(c)));
  app.onError((error, c) => c.text(error.message, 400));
  for (let round = 0; round < 3; round++) {
    const response = await app.request("/?n=7");
    assert.deepEqual(await response.json(), { n: 7 });
    const bad = await app.request("/?n=seven");
    assert.equal(bad.status, 400);
    assert.equal(await bad.text(), "n must be digits");
  }
  assert.equal(reads, 1 + 3, "the good query was read again, or the bad one was kept");
  for (let i = 0; i < 2_000; i++) {
    const response = await app.request(`/?n=${i}&padding=${"é".repeat(200)}`);
    assert.deepEqual(await response.json(), { n: i });
  }
  assert.ok(readings.bytes > 0 && readings.bytes <= 20_000, `${readings.bytes} bytes`);
});

Deno.test("ask counts: a key's count is never below its asks, and every count halves each window", () => {
  // 5,000 keys in 1,024 counters: many share some counters, and none is counted short.
  const counts = new AskCounts(1024);
  for (let i = 0; i < 5_000; i++) {
    for (let ask = 0; ask <= i % 7; ask++) counts.count(`/jobs/JB-${i}`, 1_000_000);
  }
  for (let i = 0; i < 5_000; i++) {
    const estimate = counts.estimate(`/jobs/JB-${i}`);
    assert.ok(estimate >= i % 7 + 1, `JB-${i} asked ${i % 7 + 1} times, counted ${estimate}`);
  }
  const windowed = new AskCounts(1024);
  for (let ask = 0; ask < 9; ask++) windowed.count("/jobs?keywords=react", 10);
  assert.equal(windowed.estimate("/jobs?keywords=react"), 9);
  windowed.count("/", 10);
  assert.equal(windowed.estimate("/jobs?keywords=react"), 4, "the tenth ask halved the counts");
  assert.equal(windowed.estimate("/"), 0);
  assert.throws(() => new AskCounts(1000), RangeError);
});

Deno.test("with admission, entries asked twice an hour cannot push out entries asked every minute", () => {
  // About 48 entries of 20 KB fit; 30 searches are asked once a round, 20 job pages twice each.
  const cache = new BoundedCache<number>(1_000_000, { admission: true });
  const ask = (key: string) => cache.get(key, 1);
  let misses = 0;
  for (let round = 0; round < 100; round++) {
    for (let search = 0; search < 30; search++) {
      const key = `search ${search}`;
      if (ask(key) !== undefined) continue;
      if (round > 2) misses++;
      if (round > 0) cache.set(key, 1, search, 20_000);
    }
    for (let job = round * 20; job < (round + 1) * 20; job++) {
      ask(`job ${job}`);
      ask(`job ${job}`);
      cache.set(`job ${job}`, 1, job, 20_000);
    }
    assert.ok(cache.bytes <= 1_000_000);
  }
  assert.equal(misses, 0, "a search asked every round was pushed out by job pages asked twice");
  // A job page asked more often than what it would push out is kept.
  for (let ask = 0; ask < 40; ask++) cache.get("job popular", 1);
  cache.set("job popular", 1, 7, 20_000);
  assert.equal(cache.get("job popular", 1), 7);
  // A held key, made again for a new version, is replaced where it stands without a contest.
  cache.set("search 0", 2, 10, 20_000);
  assert.equal(cache.get("search 0", 2), 10);
});

Deno.test("a page is kept from its second ask and served from the cache after", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.create(sampleJob({ role: "Kept Role" }));
  assert.ok(created.ok);
  // What a job page not kept is made from: its job, views and Similar Jobs, read afresh.
  const pageRead = t.services.jobs.pageRead.bind(t.services.jobs);
  let made = 0;
  t.services.jobs.pageRead = (...args) => (made++, pageRead(...args));
  const held: number[] = [];
  for (let ask = 0; ask < 4; ask++) {
    const response = await t.app.request(`/jobs/${created.job.jobId}`);
    assert.ok((await response.text()).includes("Kept Role"));
    held.push(t.services.cache.bytes);
  }
  assert.equal(made, 2, "the page was made again once kept");
  assert.equal(held[0], 0, "a page asked for once was kept");
  assert.ok(held[1] > 0);
  assert.deepEqual(held.slice(2), [held[1], held[1]]);
});

Deno.test("a search's second ask is given its first answer, neither searched nor rendered again", async () => {
  await using t = await testApp();
  await t.services.jobs.create(sampleJob({ role: "First Answer Developer" }));
  const search = t.services.jobs.search.bind(t.services.jobs);
  let searched = 0;
  t.services.jobs.search = (query) => (searched++, search(query));
  const ask = async (path: string, encoding = "gzip, deflate, br") => {
    const response = await t.app.request(path, { headers: { "accept-encoding": encoding } });
    assert.equal(response.status, 200);
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
  const path = "/jobs?keywords=developer";
  const first = await ask(path);
  assert.equal(first.response.headers.get("content-encoding"), "gzip");
  assert.equal(searched, 1);
  const second = await ask(path);
  assert.equal(searched, 1, "the second ask was searched again");
  assert.deepEqual(second.bytes, first.bytes);
  assert.equal(second.response.headers.get("content-encoding"), "gzip");
  assert.ok(second.response.headers.get("content-security-policy"));
  // Kept from then on, for a client that takes it plain too.
  const plain = await ask(path, "identity");
  assert.equal(searched, 1);
  assert.equal(plain.response.headers.get("content-encoding"), null);
  const html = new TextDecoder().decode(plain.bytes);
  assert.equal(html, new TextDecoder().decode(gunzipSync(first.bytes)));
  assert.ok(html.includes("First Answer Developer"));

  // A first answer is for the jobs as they were: after a change the next ask is made anew.
  const other = "/jobs?keywords=engineer";
  await ask(other);
  await t.services.jobs.create(sampleJob({ role: "Second Engineer" }));
  const after = await ask(other);
  assert.equal(searched, 3);
  assert.ok(new TextDecoder().decode(gunzipSync(after.bytes)).includes("Second Engineer"));
});

Deno.test("a kept search costs the cache its gzipped answer alone; a kept job page keeps its HTML", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.create(sampleJob({ role: "Compact Developer" }));
  assert.ok(created.ok);
  const ask = async (path: string, encoding: string) => {
    const response = await t.app.request(path, { headers: { "accept-encoding": encoding } });
    assert.equal(response.status, 200);
    return new Uint8Array(await response.arrayBuffer());
  };
  // Asked twice by a client that takes no gzip, a search is kept from its HTML at the second ask.
  const path = "/jobs?keywords=developer";
  const plainBefore = plainAnswers.bytes;
  const html = await ask(path, "identity");
  assert.deepEqual(await ask(path, "identity"), html);
  const kept = t.services.cache.bytes;
  assert.ok(kept > 0, "the search was not kept");
  // A page kept with its HTML beside its gzipped answer cost 1.5 times the HTML.
  assert.ok(kept < html.length, `a kept search costs ${kept} bytes, its HTML ${html.length}`);
  // Kept, it is given gzipped and unzipped alike; the unzipped answer is made once, and kept
  // within a budget of its own, not in the answer cache.
  assert.deepEqual(new Uint8Array(gunzipSync(await ask(path, "gzip"))), html);
  const plainKept = plainAnswers.bytes - plainBefore;
  assert.ok(plainKept >= html.length, `${plainKept} bytes kept unzipped`);
  assert.deepEqual(await ask(path, "identity"), html);
  assert.equal(plainAnswers.bytes - plainBefore, plainKept, "the page was unzipped again");
  assert.ok(plainAnswers.bytes <= CACHE_BUDGETS.plainAnswers);
  assert.equal(t.services.cache.bytes, kept);
  assert.ok(new TextDecoder().decode(html).includes("Compact Developer"));

  // A job page's view count changes: it keeps its HTML to write the count into.
  const jobPath = `/jobs/${created.job.jobId}`;
  const jobHtml = await ask(jobPath, "gzip, deflate, br");
  await ask(jobPath, "gzip, deflate, br");
  assert.ok(t.services.cache.bytes - kept > gunzipSync(jobHtml).length);
});

Deno.test("a changed job is never served from the cache", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.create(sampleJob({ role: "React Developer" }));
  assert.ok(created.ok);
  const search = async () =>
    (await (await t.app.request("/api/jobs?keywords=react")).json()).pagination.totalJobs;
  assert.equal(await search(), 1);
  await t.services.jobs.create(sampleJob({ role: "React Lead" }));
  assert.equal(await search(), 2);
  await t.services.jobs.setStatus(created.job._id, "dump");
  assert.equal(await search(), 1);
});

/** `count` generated active jobs, posted a minute apart back from now, as the job list gives them. */
async function activeJobs(t: Awaited<ReturnType<typeof testApp>>, count: number, seed: number) {
  const random = seededRandom(seed);
  const now = Date.now();
  await t.services.jobs.importJobs(
    Array.from({ length: count }, (_, i) =>
      generateJob(random, i + 1, {
        status: "active",
        datePosted: new Date(now - i * 60_000),
        movedToDumpAt: null,
      })),
  );
  return (await t.services.jobs.search({ page: 1, limit: count })).jobs;
}

Deno.test("a crawler walking every job page does not push out the home page and a popular search", async () => {
  await using t = await testApp({ config: { CACHE_MB: 1 } });
  const jobs = await activeJobs(t, 250, 15);
  const hot = ["/", "/jobs?keywords=developer"];
  for (const path of [...hot, ...hot]) {
    const response = await t.app.request(path);
    assert.equal(response.status, 200);
    // Read whole: a page slow enough to stream is kept once its data is in.
    await response.arrayBuffer();
  }

  const kept = t.services.cache.bytes;
  let crawled = 0;
  for (const job of jobs) {
    const response = await t.app.request(`/jobs/${job.jobId}`);
    assert.equal(response.status, 200);
    crawled += (await response.arrayBuffer()).byteLength;
  }
  assert.ok(
    crawled > 2 * 1024 * 1024,
    `the crawl read ${crawled} bytes, too few to fill the budget`,
  );
  assert.ok(t.services.cache.bytes <= 1024 * 1024);
  // A page asked for once is not kept: the crawl leaves the cache as it found it.
  assert.equal(t.services.cache.bytes, kept);

  // Served from the cache: the job list is not searched again.
  const search = t.services.jobs.search.bind(t.services.jobs);
  let searched = 0;
  t.services.jobs.search = (query) => {
    searched++;
    return search(query);
  };
  for (const path of hot) assert.equal((await t.app.request(path)).status, 200);
  assert.equal(searched, 0, "a hot page was rendered again after the crawl");
});

Deno.test("job pages each asked twice do not push out a search kept at its second ask", async () => {
  await using t = await testApp({ config: { CACHE_MB: 1 } });
  const jobs = await activeJobs(t, 100, 16);
  const ask = async (path: string) => {
    const response = await t.app.request(path);
    assert.equal(response.status, 200);
    return (await response.arrayBuffer()).byteLength;
  };
  const search = "/jobs?keywords=developer";
  await ask(search);
  await ask(search);
  assert.ok(t.services.cache.bytes > 0, "the search was not kept at its second ask");

  // A job page asked twice is worth keeping, but not in place of a page asked as often.
  let walked = 0;
  for (const job of jobs) {
    walked += await ask(`/jobs/${job.jobId}`);
    walked += await ask(`/jobs/${job.jobId}`);
  }
  assert.ok(walked > 2 * 1024 * 1024, `the walk read ${walked} bytes, too few to fill the budget`);
  assert.ok(t.services.cache.bytes <= 1024 * 1024);

  const searched = t.services.jobs.search.bind(t.services.jobs);
  let searches = 0;
  t.services.jobs.search = (query) => {
    searches++;
    return searched(query);
  };
  await ask(search);
  assert.equal(searches, 0, "the kept search was pushed out and searched again");
});

Deno.test("a kept search, and the API's and the feed's answers, hold until one of their jobs leaves a Date posted window", async () => {
  const start = new Date("2026-11-20T12:00:30Z");
  await using t = await testApp({ now: start });
  const random = seededRandom(17);
  const posted = (minutesAgo: number) => new Date(start.getTime() - minutesAgo * 60_000);
  const placement = (minutesAgo: number) => ({
    status: "active" as const,
    datePosted: posted(minutesAgo),
    movedToDumpAt: null,
  });
  await t.services.jobs.importJobs([
    // In the Last 24 hours for 4 hours more.
    { ...generateJob(random, 1, placement(20 * 60)), role: "Alphascribe Analyst" },
    // Leaves the Last 24 hours in two minutes: another search's job.
    { ...generateJob(random, 2, placement(24 * 60 - 2)), role: "Betaweaver Engineer" },
  ]);
  const searched = t.services.jobs.search.bind(t.services.jobs);
  let searches = 0;
  t.services.jobs.search = (query) => {
    searches++;
    return searched(query);
  };
  const listed = t.services.jobs.list.bind(t.services.jobs);
  let lists = 0;
  t.services.jobs.list = (query) => {
    lists++;
    return listed(query);
  };
  const ask = async (path = "/jobs?keywords=alphascribe") => {
    const response = await t.app.request(path);
    assert.equal(response.status, 200);
    return await response.text();
  };
  // The feed and the API list the jobs posted within a day.
  const lastDay = ["/jobs/feed.xml?postedWithin=1", "/api/jobs?postedWithin=1"];
  await ask();
  const kept = await ask();
  assert.ok(kept.includes("Last 24 hours (1)"), "the job is not counted in the Last 24 hours");
  assert.equal(searches, 2);
  for (const path of lastDay) {
    const answer = await ask(path);
    assert.ok(/Alphascribe/.test(answer) && /Betaweaver/.test(answer), `${path}: ${answer}`);
    assert.equal(await ask(path), answer);
  }
  const api = "/api/jobs?keywords=alphascribe";
  const apiAnswer = await ask(api);
  assert.equal(lists, 3);
  // Asked once: its answer is kept for a second ask in the minute it holds for.
  const other = "/jobs?keywords=betaweaver";
  assert.ok((await ask(other)).includes("Last 24 hours (1)"));
  assert.equal(searches, 3);

  // Minutes later the other job has left the window: this page still holds, and is not made again.
  t.clock.now = new Date(start.getTime() + 10 * 60_000);
  assert.equal(await ask(), kept);
  assert.equal(searches, 3, "a page whose jobs all stayed in their windows was made again");
  // The last day's feed and API answer held that job: they are made again, without it.
  for (const path of lastDay) {
    const answer = await ask(path);
    assert.ok(/Alphascribe/.test(answer) && !/Betaweaver/.test(answer), `${path}: ${answer}`);
  }
  assert.equal(await ask(api), apiAnswer);
  assert.equal(lists, 5, "an API answer whose jobs all stayed in their windows was made again");
  // The first answer of a search whose job has left its window is not given at the second ask.
  const otherLater = await ask(other);
  assert.equal(searches, 4);
  assert.ok(!otherLater.includes("Last 24 hours (1)") && otherLater.includes("Last 3 days (1)"));

  // Its own job leaves the Last 24 hours: the page is made again, with the counts of the moment.
  t.clock.now = new Date(start.getTime() + (4 * 60 + 1) * 60_000);
  const later = await ask();
  assert.equal(searches, 5);
  assert.ok(
    !later.includes("Last 24 hours (1)"),
    "the page still counts the job in its old window",
  );
  assert.ok(later.includes("Last 3 days (1)"));
  assert.ok(later.includes("Alphascribe Analyst"));
});

Deno.test("CACHE_MB sets the answer cache's budget in whole megabytes", () => {
  assert.equal(loadConfig({ CACHE_MB: "32" }).CACHE_MB, 32);
  assert.throws(() => loadConfig({ CACHE_MB: "0" }), /CACHE_MB must be 1 to 65536/);
  assert.throws(() => loadConfig({ CACHE_MB: "lots" }), /CACHE_MB must be a number/);
});

Deno.test("a flood of distinct signed tokens keeps the verified-token cache within its budget", async () => {
  await using t = await testApp();
  const secret = new TextEncoder().encode(t.services.config.JWT_SECRET!);
  for (let i = 0; i < 3_000; i++) {
    const token = await new SignJWT({ role: "admin", padding: "p".repeat(500) })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(`admin-${i}`)
      .setJti(crypto.randomUUID())
      .setIssuer("careeredge")
      .setExpirationTime("1h")
      .sign(secret);
    // No session stands behind any of them: signed, but never signed in.
    assert.equal(await t.services.auth.verify(token), null);
  }
  const { verified } = t.services.auth;
  assert.ok(verified.bytes <= CACHE_BUDGETS.verifiedTokens, `${verified.bytes} bytes`);
  assert.ok(verified.size < 3_000);
});

Deno.test("a flood of long made-up user agents keeps the verdict cache within its budget", async () => {
  await using t = await testApp();
  for (let i = 0; i < 1_500; i++) {
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) Firefox/${i}.0 ${"z".repeat(2_000)}`;
    const response = await t.app.request("/", { headers: { "user-agent": userAgent } });
    await response.body?.cancel();
  }
  // 1,500 agents of 2 KB (two bytes a character, twice each) is several times the budget.
  assert.ok(verdicts.bytes > 0);
  assert.ok(verdicts.bytes <= CACHE_BUDGETS.userAgentVerdicts, `${verdicts.bytes} bytes`);
});

Deno.test("a flood of analytics report periods keeps the report answers within their budget", async () => {
  await using t = await testApp();
  const reports = new AnalyticsReports(t.kv, "UTC");
  for (let days = 1; days <= 365; days++) await reports.daily(days);
  assert.ok(reports.answers.bytes <= CACHE_BUDGETS.reportAnswers, `${reports.answers.bytes}`);
  assert.ok(reports.answers.size > 0);
});
