/** How public pages are served: sitemap and feed, streaming, security headers, HEAD, gzip. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { get, seedJobs, setViews } from "./fixtures.ts";
import { waitFor } from "../helpers/wait.ts";
import { SLOW_DATA_MS } from "../../routes/pages/render.ts";

Deno.test("sitemap, robots.txt and the RSS feed", async () => {
  await using t = await testApp();
  const [data, design, dump] = await seedJobs(t, [
    { role: "Data Analyst" },
    { role: "Designer" },
    { role: "Dumped", status: "dump" },
  ]);
  const index = await get(t, "/sitemap.xml");
  assert.equal(index.status, 200);
  assert.match(index.headers.get("content-type")!, /application\/xml/);
  assert.ok(index.html.includes(
    `<sitemap><loc>http://localhost/sitemaps/1.xml</loc><lastmod>${design.updatedAt}</lastmod></sitemap>`,
  ));
  assert.ok(!index.html.includes("sitemaps/2.xml"));
  assert.equal((await get(t, "/sitemaps/2.xml")).status, 404);
  const sitemap = await get(t, "/sitemaps/1.xml");
  assert.equal(sitemap.status, 200);
  assert.match(sitemap.headers.get("content-type")!, /application\/xml/);
  assert.ok(sitemap.html.includes("<loc>http://localhost/</loc>"));
  assert.ok(sitemap.html.includes("<loc>http://localhost/jobs</loc>"));
  assert.ok(sitemap.html.includes(
    `<url><loc>http://localhost/jobs/${data.jobId}</loc><lastmod>${data.updatedAt}</lastmod></url>`,
  ));
  assert.ok(sitemap.html.includes(`/jobs/${design.jobId}<`));
  assert.ok(!sitemap.html.includes(`/jobs/${dump.jobId}<`));

  const created = await t.services.jobs.create(sampleJob({ role: "Brand New" }));
  assert.ok(created.ok);
  assert.ok((await get(t, "/sitemaps/1.xml")).html.includes(`/jobs/${created.job.jobId}<`));

  const robots = await get(t, "/robots.txt");
  assert.ok(robots.html.includes("Disallow: /admin"));
  assert.ok(robots.html.includes("Sitemap: http://localhost/sitemap.xml"));

  const feed = await get(t, "/jobs/feed.xml?role=Designer");
  assert.match(feed.headers.get("content-type")!, /application\/rss\+xml/);
  assert.ok(feed.html.includes('<rss version="2.0"'));
  assert.ok(feed.html.includes(`<link>http://localhost/jobs/${design.jobId}</link>`));
  assert.ok(!feed.html.includes(data.jobId + "<"));
  assert.ok(!feed.html.includes("Dumped"));
  const all = await get(t, "/jobs/feed.xml");
  assert.equal(all.html.match(/<item>/g)?.length, 3);
  assert.ok((await get(t, "/jobs?role=Designer")).html.includes(
    '<link rel="alternate" type="application/rss+xml" title="CareerEdge jobs" href="/jobs/feed.xml?role=Designer"/>',
  ));
});

Deno.test("slow data streams the skeletons first; crawlers wait for the whole page", async () => {
  await using t = await testApp();
  await seedJobs(t, [{ role: "Streamed Role" }]);
  const search = t.services.jobs.search.bind(t.services.jobs);
  // The search answers when the test says so: only once the visitor has the whole shell.
  const answer = Promise.withResolvers<void>();
  t.services.jobs.search = async (query) => {
    await answer.promise;
    return search(query);
  };

  const response = await t.app.request("/jobs");
  assert.equal(response.status, 200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let shell = "";
  while (!shell.includes("</footer>")) shell += (await reader.read()).value ?? "";
  assert.ok(shell.includes("Searching..."));
  assert.ok(!shell.includes("Streamed Role"));
  // Without scripts the skeletons cannot be replaced in place, so the page reloads itself.
  assert.ok(shell.includes('<noscript><meta http-equiv="refresh" content="1"/></noscript>'));
  answer.resolve();
  let rest = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    rest += chunk.value;
  }
  assert.ok(rest.includes("Streamed Role"));
  assert.ok(rest.includes("1 Jobs Found"));
  const nonce = response.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1];
  const inline = [...rest.matchAll(/<script([^>]*)>/g)].map((m) => m[1])
    .filter((attributes) => !attributes.includes('type="application/'));
  assert.ok(inline.length > 0);
  for (const attributes of inline) assert.ok(attributes.includes(`nonce="${nonce}"`), attributes);

  // Once the data came in, the whole page was cached: the next visitor waits for nothing.
  const next = await get(t, "/jobs");
  assert.ok(next.html.includes("Streamed Role"));
  assert.ok(!next.html.includes("Searching..."));
  assert.ok(!next.html.includes("http-equiv"));

  // A slow search (longer than a visitor is kept waiting before the skeletons go out): a
  // simulated dependency, not a wait of the test's.
  t.services.jobs.search = async (query) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_DATA_MS * 3));
    return search(query);
  };
  const crawler = await get(t, "/jobs?keywords=streamed", {
    "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  });
  assert.ok(crawler.html.includes("Streamed Role"));
  assert.ok(!crawler.html.includes("Searching..."));
});

Deno.test("every answer carries a strict Content-Security-Policy and the security headers", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.create(sampleJob({ role: "Header Role" }));
  assert.ok(created.ok);
  // The catalogue is loaded first: on a busy machine a cold load can outlast the wait for data,
  // and the page would then be streamed (with a nonce) rather than whole.
  await t.services.jobs.active();
  const answers = [
    (await get(t, "/")).headers,
    (await get(t, "/", { "accept-encoding": "gzip" })).headers,
    (await get(t, `/jobs/${created.job.jobId}`)).headers,
    (await t.app.request("/api/jobs")).headers,
    (await t.app.request("/api/jobs/nope")).headers,
    (await t.app.request("/robots.txt")).headers,
    (await t.app.request("/admin/login")).headers,
  ];
  // Cached pages and API answers are clones of one Response: every one carries the headers and the
  // whole body, however often it is given.
  for (const [path, encoding] of [["/", "gzip"], ["/", "identity"], ["/api/jobs", "identity"]]) {
    const bodies = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.app.request(path, { headers: { "accept-encoding": encoding } });
      answers.push(response.headers);
      bodies.push(await response.bytes());
    }
    assert.ok(bodies[0].byteLength > 500, path);
    assert.deepEqual(bodies[1], bodies[0]);
    assert.deepEqual(bodies[2], bodies[0]);
  }
  for (const headers of answers) {
    const policy = headers.get("content-security-policy")!;
    // Whole pages run no inline script, so they allow none: only streamed pages get a nonce.
    assert.match(policy, /script-src 'self'; /);
    assert.match(policy, /object-src 'none'/);
    assert.match(policy, /base-uri 'none'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.equal(headers.get("x-content-type-options"), "nosniff");
    assert.equal(headers.get("x-frame-options"), "DENY");
    assert.equal(headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    assert.equal(headers.get("cross-origin-opener-policy"), "same-origin");
    assert.match(headers.get("strict-transport-security")!, /^max-age=\d+/);
  }
});

Deno.test("HEAD requests, and trailing slashes on a page's path", async () => {
  await using t = await testApp();
  const head = await t.app.request("/jobs", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  // The length is that of the body a GET gets, not of the empty HEAD answer.
  for (const encoding of ["identity", "gzip"]) {
    const headers = { "accept-encoding": encoding };
    const body = await (await t.app.request("/jobs", { headers })).bytes();
    const length = (await t.app.request("/jobs", { method: "HEAD", headers })).headers
      .get("content-length");
    assert.equal(length, String(body.byteLength));
  }
  const created = await t.services.jobs.create(sampleJob());
  if (!created.ok) throw new Error("job not created");
  const { jobId } = created.job;
  // A page's path with trailing slashes is the page, its query kept; an unknown one still goes
  // home, and a path that would name another host goes home too.
  for (
    const [path, location] of [
      ["/jobs/", "/jobs"],
      ["/jobs/?keywords=java&page=2", "/jobs?keywords=java&page=2"],
      [`/jobs/${jobId}/`, `/jobs/${jobId}`],
      [`/jobs/${jobId}//`, `/jobs/${jobId}`],
      ["/saved/", "/saved"],
      ["//evil.example/", "/"],
      ["/nowhere", "/"],
    ]
  ) {
    const { status, headers } = await get(t, path);
    assert.equal(headers.get("location"), location, path);
    assert.equal(status, location === "/" ? 302 : 301, path);
  }
});

Deno.test("data that fails after the shell went out ends the stream cleanly", async () => {
  await using t = await testApp();
  // The search fails when the test says so: once the shell is out.
  const failure = Promise.withResolvers<never>();
  t.services.jobs.search = () => failure.promise;
  const errors: unknown[][] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const response = await t.app.request("/jobs");
    assert.equal(response.status, 200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let html = "";
    while (!html.includes("</footer>")) html += (await reader.read()).value ?? "";
    assert.ok(html.includes("Searching..."));
    failure.reject(new Error("the store is unavailable"));
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      html += chunk.value;
    }
    assert.ok(html.includes("</html>"));
  } finally {
    console.error = log;
  }
  assert.equal(errors.length, 1);
  assert.match(String(errors[0][0]), /GET \/jobs/);
});

Deno.test("pages go out gzipped to clients that accept it, view count included", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{}]);
  await setViews(t, job, 7);
  for (const path of ["/", "/jobs", `/jobs/${job.jobId}`, "/jobs/JB-999999"]) {
    const plain = await get(t, path);
    const response = await t.app.request(path, { headers: { "accept-encoding": "gzip, br" } });
    assert.equal(response.status, plain.status, path);
    assert.equal(response.headers.get("content-encoding"), "gzip", path);
    assert.equal(response.headers.get("vary"), "accept-encoding", path);
    const html = await new Response(response.body!.pipeThrough(new DecompressionStream("gzip")))
      .text();
    assert.equal(html, plain.html, path);
  }
  // A count written elsewhere reaches the kept, gzipped page once the watch brings it.
  await setViews(t, job, 8);
  await waitFor("the new count in the gzipped page", async () => {
    const response = await t.app.request(`/jobs/${job.jobId}`, {
      headers: { "accept-encoding": "gzip" },
    });
    const html = await new Response(response.body!.pipeThrough(new DecompressionStream("gzip")))
      .text();
    return html.includes("<dt>Views</dt><dd><span>8</span></dd>");
  });
});
