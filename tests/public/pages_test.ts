/** The public pages as served HTML: texts, limits, status codes, caching and escaping. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { REVISION_MAX_AGE_MS } from "../../kv/jobs/store.ts";
import type { Job } from "../../kv/schemas.ts";
import { cardOf, cardRoles, get, pageNumbers, scriptData, seedJobs, setViews } from "./fixtures.ts";

const LONG_TEXT = "abcdefghij".repeat(20);

Deno.test("home lists the six newest active jobs with descriptions cut at 120 characters", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    ...Array.from({ length: 8 }, (_, i) => ({ role: `Role Number ${i}`, description: LONG_TEXT })),
    { role: "Closed Dump Role", status: "dump" as const },
  ]);
  const { status, html } = await get(t, "/");
  assert.equal(status, 200);
  assert.match(html, /<title>[^<]*Find Your Dream Job/);
  assert.ok(html.includes("Find Your Dream Job"));
  for (const job of jobs.slice(2, 8)) assert.ok(html.includes(job.role), job.role);
  for (const role of ["Role Number 0", "Role Number 1", "Closed Dump Role"]) {
    assert.ok(!html.includes(role), role);
  }
  assert.ok(html.includes(`${LONG_TEXT.slice(0, 120)}...`));
  assert.ok(!html.includes(LONG_TEXT.slice(0, 121)));
  assert.match(html, /<a href="\/jobs" class="btn btn-primary btn-lg">View All Jobs<\/a>/);
  for (const text of ["Remote", "Full-time", "Software Engineer", "Data Science", "Marketing"]) {
    assert.ok(html.includes(`chip chip-button">${text}</button>`), text);
  }
  for (const text of ["How It Works", "Search &amp; Discover", "Apply with Ease", "Get Hired"]) {
    assert.ok(html.includes(text), text);
  }
  assert.match(html, /<link rel="canonical" href="http:\/\/localhost\/"\/>/);
  assert.match(html, /<meta name="description" content="[^"]+"\/>/);
  assert.match(html, /<a href="\/" class="nav-link" aria-current="page">Home<\/a>/);
  assert.equal(scriptData(html, "application/ld+json").length, 0);
});

Deno.test("the job list shows 12 a page, the counts, and a five-page window", async () => {
  await using t = await testApp();
  await seedJobs(t, Array.from({ length: 100 }, (_, i) => ({ role: `Engineer ${i}` })));

  const first = await get(t, "/jobs");
  assert.equal(first.status, 200);
  assert.ok(first.html.includes('<h1 class="page-title">Find Your Next Job</h1>'));
  assert.ok(first.html.includes("100 Jobs Found"));
  assert.ok(first.html.includes("Showing 1 - 12 of 100 results"));
  assert.ok(first.html.includes("Updated daily"));
  assert.equal(first.html.match(/<article class="job-card">/g)?.length, 12);
  assert.deepEqual(pageNumbers(first.html), [1, 2, 3, 4, 5]);
  assert.match(first.html, /<span class="page-link" aria-disabled="true">Previous<\/span>/);
  assert.match(first.html, /<a class="page-link" href="\/jobs\?page=2" rel="next">Next<\/a>/);
  assert.match(first.html, /href="\/jobs" aria-current="page" aria-label="Page 1"/);
  assert.match(first.html, /<a href="\/jobs" class="nav-link" aria-current="page">Jobs<\/a>/);

  const middle = await get(t, "/jobs?page=5");
  assert.deepEqual(pageNumbers(middle.html), [3, 4, 5, 6, 7]);
  assert.ok(middle.html.includes("Showing 49 - 60 of 100 results"));
  assert.match(middle.html, /href="\/jobs\?page=5" aria-current="page"/);
  assert.match(middle.html, /href="\/jobs\?page=4" rel="prev">Previous/);

  const last = await get(t, "/jobs?page=9");
  assert.deepEqual(pageNumbers(last.html), [5, 6, 7, 8, 9]);
  assert.ok(last.html.includes("Showing 97 - 100 of 100 results"));
  assert.equal(last.html.match(/<article class="job-card">/g)?.length, 4);
  assert.match(last.html, /<span class="page-link" aria-disabled="true">Next<\/span>/);
  // Newest first: job 99 opens page 1, job 0 closes page 9.
  assert.deepEqual(cardRoles(first.html).slice(0, 2), ["Engineer 99", "Engineer 98"]);
  assert.deepEqual(cardRoles(last.html).slice(-1), ["Engineer 0"]);
});

Deno.test("pagination appears only when there is more than one page", async () => {
  await using t = await testApp();
  await seedJobs(t, Array.from({ length: 12 }, () => ({})));
  const { html } = await get(t, "/jobs");
  assert.ok(html.includes("12 Jobs Found"));
  assert.ok(!html.includes('aria-label="Pagination"'));
});

Deno.test("each filter narrows the list and is kept in the form", async () => {
  await using t = await testApp();
  await seedJobs(t, [
    { role: "Data Scientist", location: "Pune, India", experience: "0-1", keywords: ["ml"] },
    { role: "Data Scientist", location: "Remote", experience: "3+", employmentType: "Contract" },
    { role: "Product Designer", location: "Mumbai, India", experience: "0-1" },
    {
      role: "Backend Engineer",
      location: "Pune, India",
      employmentType: "Internship",
      skills: {
        languages: ["Rust"],
        technologies: [],
        frameworks: [],
        databases: [],
        tools: [],
        others: [],
      },
    },
  ]);
  const roles = (html: string) => cardRoles(html).sort();

  const cases: [string, string[]][] = [
    ["/jobs?keywords=rust", ["Backend Engineer"]],
    ["/jobs?keywords=ml", ["Data Scientist"]],
    ["/jobs?location=pune", ["Backend Engineer", "Data Scientist"]],
    ["/jobs?role=Data+Scientist", ["Data Scientist", "Data Scientist"]],
    ["/jobs?experience=0-1", ["Data Scientist", "Product Designer"]],
    ["/jobs?employmentType=Contract", ["Data Scientist"]],
    ["/jobs?location=india&experience=0-1", ["Data Scientist", "Product Designer"]],
  ];
  for (const [path, expected] of cases) {
    const { status, html } = await get(t, path);
    assert.equal(status, 200, path);
    assert.deepEqual(roles(html), expected, path);
    assert.ok(html.includes(`${expected.length} Jobs Found`), path);
  }

  const { html } = await get(t, "/jobs?keywords=data&location=Remote&role=Data+Scientist");
  assert.match(html, /name="keywords" value="data"/);
  assert.match(html, /name="location" value="Remote"/);
  assert.match(html, /<option value="Data Scientist" selected="">Data Scientist \(1\)<\/option>/);
  for (const text of ["Role Category", "All Roles", "All Experience", "All Types", "Filters"]) {
    assert.ok(html.includes(text), text);
  }
  assert.match(html, /<a href="\/jobs" class="btn btn-ghost">Clear Filters<\/a>/);
  // The panel starts open when a filter is set, closed otherwise.
  assert.ok(html.includes('id="filter-panel" class="filter-panel"'));
  assert.ok((await get(t, "/jobs")).html.includes('class="filter-panel collapsed"'));
});

Deno.test("empty and unknown query values are dropped with a redirect", async () => {
  await using t = await testApp();
  const cases: [string, string][] = [
    ["/jobs?keywords=&location=", "/jobs"],
    ["/jobs?keywords=+react+&location=&role=&experience=&employmentType=", "/jobs?keywords=react"],
    ["/jobs?experience=ninja&page=0", "/jobs"],
    ["/jobs?page=1&utm_source=mail", "/jobs"],
    ["/jobs?page=3&keywords=go", "/jobs?keywords=go&page=3"],
  ];
  for (const [path, location] of cases) {
    const { status, headers } = await get(t, path);
    assert.equal(status, 302, path);
    assert.equal(headers.get("location"), location, path);
  }
  assert.equal((await get(t, "/jobs?keywords=go")).status, 200);
});

Deno.test("no results: the empty state with Clear All Filters", async () => {
  await using t = await testApp();
  await seedJobs(t, [{ role: "Chef" }]);
  const { html } = await get(t, "/jobs?keywords=astronaut");
  assert.ok(html.includes("0 Jobs Found"));
  assert.ok(html.includes("No jobs found"));
  assert.ok(html.includes(
    "We couldn&#x27;t find any jobs matching your criteria. Try adjusting your search or filters.",
  ));
  assert.match(html, /<a href="\/jobs" class="btn btn-primary">Clear All Filters<\/a>/);
  assert.ok(!html.includes("Showing"));
});

Deno.test("a card shows every field of the specification", async () => {
  await using t = await testApp();
  const [withLogo, plain] = await seedJobs(t, [
    {
      companyName: "Globex",
      companyLogo: "https://cdn.example/globex.png",
      role: "Platform Engineer",
      location: "Hyderabad, India",
      experience: "5+",
      employmentType: "Part-Time",
      description: LONG_TEXT,
      estPackage: "20-30 LPA",
      skills: {
        languages: ["Go", "Rust", "Python", "Java"],
        technologies: ["Kubernetes", "Docker", "Terraform", "Kafka"],
        frameworks: ["gRPC"],
        databases: [],
        tools: [],
        others: [],
      },
      datePosted: "2026-03-05T10:00:00.000Z",
    },
    {
      companyName: "initech",
      estPackage: undefined,
      skills: {
        languages: ["C"],
        technologies: [],
        frameworks: [],
        databases: [],
        tools: [],
        others: [],
      },
    },
  ]);
  const { html } = await get(t, "/jobs");
  const card = cardOf(html, "Globex");
  assert.match(
    card,
    /<span class="logo logo-48 logo-placeholder" aria-hidden="true">G<img src="https:\/\/cdn.example\/globex.png" alt="" width="48" height="48"/,
  );
  assert.ok(card.includes("Mar 5, 2026"));
  assert.ok(card.includes('<span class="badge">Part-Time</span>'));
  assert.ok(card.includes(`<a href="/jobs/${withLogo.jobId}">Platform Engineer</a>`));
  assert.ok(card.includes("Hyderabad, India"));
  assert.ok(card.includes(">5+<"));
  assert.ok(card.includes(`${LONG_TEXT.slice(0, 150)}...`));
  assert.ok(!card.includes(LONG_TEXT.slice(0, 151)));
  const chips = [...card.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]);
  assert.deepEqual(chips, ["Go", "Rust", "Python", "Kubernetes", "Docker", "Terraform"]);
  assert.ok(card.includes('<li class="more">+3 more</li>'));
  assert.ok(card.includes('<p class="package">₹20-30 LPA</p>'));
  assert.ok(card.includes("View Details"));

  const other = cardOf(html, "initech");
  assert.ok(other.includes('<span class="logo logo-48 logo-placeholder"'));
  assert.ok(other.includes(">I</span>"));
  assert.ok(!other.includes("more</li>"));
  assert.ok(!other.includes('class="package"'));
  assert.ok(plain.jobId);
});

Deno.test("the job page shows every panel, the view count and similar jobs", async () => {
  await using t = await testApp();
  const [job, same1, same2, same3, other] = await seedJobs(t, [
    {
      role: "Site Reliability Engineer",
      companyName: "Umbrella",
      description: "First line of the role.\nSecond line of the role.",
      requiredDegree: "B.E. or B.Tech",
      estPackage: "15-20 LPA",
      skills: {
        languages: ["Go"],
        technologies: ["Linux"],
        frameworks: [],
        databases: ["Redis"],
        tools: ["Terraform"],
        others: [],
      },
      datePosted: "2026-03-05T10:00:00.000Z",
    },
    { role: "Site Reliability Engineer", companyName: "Same One" },
    { role: "Site Reliability Engineer", companyName: "Same Two" },
    { role: "Site Reliability Engineer", companyName: "Same Three" },
    { role: "Site Reliability Engineer", companyName: "Same Four" },
  ]);
  await setViews(t, job, 41);

  const { status, html } = await get(t, `/jobs/${job.jobId}`);
  assert.equal(status, 200);
  assert.match(html, /<title>Site Reliability Engineer at Umbrella/);
  assert.ok(html.includes('<a href="/jobs" class="back-link">← Back to Jobs</a>'));
  assert.ok(
    html.includes('<h1 id="job-title" class="detail-title">Site Reliability Engineer</h1>'),
  );
  assert.ok(html.includes("Umbrella"));
  assert.ok(html.includes("Estimated Package"));
  assert.ok(html.includes("₹15-20 LPA"));
  assert.ok(
    html.includes('<p class="prewrap">First line of the role.\nSecond line of the role.</p>'),
  );
  assert.ok(html.includes("Required Qualifications"));
  assert.ok(html.includes("B.E. or B.Tech"));
  for (const label of ["Programming Languages", "Technologies", "Databases", "Tools"]) {
    assert.ok(html.includes(`<h3 class="skill-group-title">${label}</h3>`), label);
  }
  for (const label of ["Frameworks", "Other Skills"]) {
    assert.ok(!html.includes(`<h3 class="skill-group-title">${label}</h3>`), label);
  }
  assert.ok(html.includes(`<dt>Job ID</dt><dd>${job.jobId}</dd>`));
  assert.ok(html.includes("March 5, 2026"));
  assert.ok(html.includes("<dt>Views</dt><dd><span>41</span></dd>"));
  assert.ok(html.includes("You&#x27;ll be redirected to the company&#x27;s application page"));
  assert.ok(html.includes(">Save Job</button>"));
  assert.equal(html.match(/Apply Now<\/a>/g)?.length, 2);
  assert.ok(html.includes(
    `href="/jobs/${job.jobId}/apply" target="_blank" rel="noopener noreferrer nofollow"`,
  ));
  assert.equal(html.match(/Share Job<\/button>/g)?.length, 2);
  assert.match(html, /<meta property="og:title" content="Site Reliability Engineer at Umbrella/);
  assert.match(html, /<meta name="twitter:card" content="summary_large_image"\/>/);
  assert.match(
    html,
    new RegExp(`<link rel="canonical" href="http://localhost/jobs/${job.jobId}"/>`),
  );

  const similar = html.slice(html.indexOf("Similar Jobs"));
  const shown = [same1, same2, same3, other].filter((j) => similar.includes(j.companyName));
  assert.equal(shown.length, 3);
  assert.ok(!similar.includes(`href="/jobs/${job.jobId}"`));

  // The count is filled per response: a new count shows without any job change.
  await setViews(t, job, 42);
  assert.ok(
    (await get(t, `/jobs/${job._id}`)).html.includes("<dt>Views</dt><dd><span>42</span></dd>"),
  );
});

Deno.test("an active job page carries JobPosting JSON-LD with every field Google asks for", async () => {
  await using t = await testApp();
  const [job, remote] = await seedJobs(t, [
    {
      role: "QA Engineer",
      companyName: "Hooli",
      companyLogo: "https://cdn.example/hooli.png",
      location: "Chennai, Tamil Nadu, India",
      employmentType: "Internship",
      estPackage: "8-12 LPA",
      description: "Test things.\nBreak things.",
      datePosted: "2026-03-05T10:00:00.000Z",
    },
    { role: "Writer", location: "Remote", employmentType: "Freelance" },
  ]);
  const [posting] = scriptData(
    (await get(t, `/jobs/${job.jobId}`)).html,
    "application/ld+json",
  ) as [
    Record<string, unknown>,
  ];
  assert.equal(posting["@context"], "https://schema.org/");
  assert.equal(posting["@type"], "JobPosting");
  assert.equal(posting.title, "QA Engineer");
  assert.equal(posting.description, "<p>Test things.<br>Break things.</p>");
  assert.equal(posting.datePosted, "2026-03-05T10:00:00.000Z");
  assert.equal(posting.validThrough, "2026-03-12T10:00:00.000Z");
  assert.equal(posting.employmentType, "INTERN");
  assert.deepEqual(posting.hiringOrganization, {
    "@type": "Organization",
    name: "Hooli",
    logo: "https://cdn.example/hooli.png",
  });
  assert.deepEqual(posting.jobLocation, {
    "@type": "Place",
    address: {
      "@type": "PostalAddress",
      addressLocality: "Chennai",
      addressRegion: "Tamil Nadu",
      addressCountry: "IN",
    },
  });
  assert.deepEqual(posting.identifier, {
    "@type": "PropertyValue",
    name: "Hooli",
    value: job.jobId,
  });
  assert.deepEqual(posting.baseSalary, {
    "@type": "MonetaryAmount",
    currency: "INR",
    value: { "@type": "QuantitativeValue", minValue: 800000, maxValue: 1200000, unitText: "YEAR" },
  });

  const [remotePosting] = scriptData(
    (await get(t, `/jobs/${remote.jobId}`)).html,
    "application/ld+json",
  ) as [Record<string, unknown>];
  assert.equal(remotePosting.jobLocationType, "TELECOMMUTE");
  assert.equal(remotePosting.jobLocation, undefined);
  assert.equal(remotePosting.employmentType, "CONTRACTOR");
  assert.equal(scriptData((await get(t, "/jobs")).html, "application/ld+json").length, 0);
});

Deno.test("closed jobs answer 410, unknown ones 404, both with the Job Not Found page", async () => {
  await using t = await testApp();
  const [dump, inactive] = await seedJobs(t, [{ status: "dump" }, { status: "inactive" }]);
  for (
    const [path, status] of [
      [`/jobs/${dump.jobId}`, 410],
      [`/jobs/${inactive._id}`, 410],
      ["/jobs/JB-999999", 404],
      [`/jobs/${dump.jobId}`, 410],
    ] as const
  ) {
    const { html, ...response } = await get(t, path);
    assert.equal(response.status, status, path);
    assert.ok(html.includes("Job Not Found"), path);
    assert.ok(
      html.includes("The position you&#x27;re looking for doesn&#x27;t exist or has been filled."),
    );
    assert.match(html, /<a href="\/jobs" class="btn btn-primary">Explore Other Jobs<\/a>/);
    assert.match(html, /<meta name="robots" content="noindex, follow"\/>/);
    assert.equal(scriptData(html, "application/ld+json").length, 0, path);
  }
});

Deno.test("the apply link records the click and sends the visitor on with 303", async () => {
  await using t = await testApp();
  const [active, dump] = await seedJobs(t, [{}, { status: "dump" }]);
  const applied = await get(t, `/jobs/${active.jobId}/apply`);
  assert.equal(applied.status, 303);
  assert.equal(applied.headers.get("location"), active.hiringLink);
  assert.equal((await get(t, `/jobs/${dump.jobId}/apply`)).status, 410);
  assert.equal((await get(t, "/jobs/JB-999999/apply")).status, 404);
});

Deno.test("any other public path redirects home", async () => {
  await using t = await testApp();
  for (const path of ["/about", "/contact", "/jobs/JB-1/apply/more", "/nothing/here"]) {
    const { status, headers } = await get(t, path);
    assert.equal(status, 302, path);
    assert.equal(headers.get("location"), "/", path);
  }
});

Deno.test("a page follows its job's changes, made in another process within REVISION_MAX_AGE_MS", async () => {
  const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    await using reader = await testApp({ kvPath });
    await using writer = await testApp({ kvPath });
    const later = () => {
      reader.clock.now = new Date(reader.clock.now.getTime() + REVISION_MAX_AGE_MS);
    };
    const [job] = await seedJobs(writer, [{ role: "Old Title" }]);
    assert.ok((await get(reader, "/jobs")).html.includes("Old Title"));
    assert.ok((await get(reader, `/jobs/${job.jobId}`)).html.includes("Old Title"));

    const { _id, jobId: _, status: __, ...input } = job;
    await writer.services.jobs.update(_id, { ...input, role: "New Title" } as Job);
    // Requests within REVISION_MAX_AGE_MS of the reader's last revision read share that read.
    assert.ok((await get(reader, "/jobs")).html.includes("Old Title"));
    later();
    assert.ok((await get(reader, "/jobs")).html.includes("New Title"));
    assert.ok((await get(reader, `/jobs/${job.jobId}`)).html.includes("New Title"));

    await writer.services.jobs.setStatus(_id, "dump");
    later();
    assert.equal((await get(reader, `/jobs/${job.jobId}`)).status, 410);
    assert.ok((await get(reader, "/jobs")).html.includes("0 Jobs Found"));
  } finally {
    await Deno.remove(kvPath).catch(() => {});
  }
});

Deno.test("job text with markup is rendered as text in the page, JSON-LD, share data and feed", async () => {
  await using t = await testApp();
  const role = "<script>alert(1)</script>";
  const companyName = '"><img src=x onerror=alert(2)>';
  const [job] = await seedJobs(t, [{
    role,
    companyName,
    location: "</script><script>alert(3)</script>",
    description: "<b>bold</b> & </script><!--",
    keywords: ["xss"],
  }]);

  for (const path of ["/", "/jobs", `/jobs/${job.jobId}`]) {
    const { html } = await get(t, path);
    assert.ok(!html.includes("<script>alert"), path);
    assert.ok(!html.includes("<img src=x"), path);
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), path);
    // Every script element is one of ours: module scripts and JSON data.
    const scripts = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    for (const tag of scripts) {
      assert.match(tag, /^<script (type="module" src="\/assets\/|type="application\/(ld\+)?json")/);
    }
  }

  const { html } = await get(t, `/jobs/${job.jobId}`);
  const [posting] = scriptData(html, "application/ld+json") as [Record<string, unknown>];
  assert.equal(posting.title, role);
  assert.equal(
    posting.description,
    "<p>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;/script&gt;&lt;!--</p>",
  );
  const islandProps = scriptData(html, "application/json") as Record<string, unknown>[];
  const share = islandProps.find((props) => "job" in props) as { job: { role: string } };
  assert.equal(share.job.role, role);
  assert.ok(
    html.includes(
      '<div class="share-preview" role="region" aria-labelledby="share-dialog-preview" tabindex="0"><pre>',
    ),
  );
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt; at &quot;&gt;&lt;img src=x"));

  const feed = await get(t, "/jobs/feed.xml?keywords=xss");
  assert.ok(!feed.html.includes("<script>"));
  assert.ok(!feed.html.includes("<img"));
  assert.ok(feed.html.includes("&lt;script&gt;alert(1)&lt;/script&gt; at &quot;&gt;&lt;img src=x"));
});

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
  t.services.jobs.search = async (query) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
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

Deno.test("HEAD requests and a trailing slash on /jobs", async () => {
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
  const { status, headers } = await get(t, "/jobs/");
  assert.equal(status, 301);
  assert.equal(headers.get("location"), "/jobs");
});

Deno.test("data that fails after the shell went out ends the stream cleanly", async () => {
  await using t = await testApp();
  t.services.jobs.search = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    throw new Error("the store is unavailable");
  };
  const errors: unknown[][] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const { status, html } = await get(t, "/jobs");
    assert.equal(status, 200);
    assert.ok(html.includes("Searching..."));
    assert.ok(html.includes("</html>"));
  } finally {
    console.error = log;
  }
  assert.equal(errors.length, 1);
  assert.match(String(errors[0][0]), /GET \/jobs/);
});

Deno.test("the share preview: up to 5 skills per group, 'Competitive' without a package", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{
    role: "Analyst",
    companyName: "Vandelay",
    estPackage: undefined,
    skills: {
      languages: ["A1", "A2", "A3", "A4", "A5", "A6", "A7"],
      technologies: [],
      frameworks: ["F1"],
      databases: [],
      tools: [],
      others: [],
    },
  }]);
  const { html } = await get(t, `/jobs/${job.jobId}`);
  const preview = html.match(/<div class="share-preview"[^>]*><pre>([^<]*)<\/pre>/)![1];
  assert.ok(preview.startsWith("Analyst at Vandelay"));
  assert.ok(preview.includes("Package: Competitive"));
  assert.ok(preview.includes("Programming Languages: A1, A2, A3, A4, A5\n"));
  assert.ok(preview.includes("Frameworks: F1"));
  assert.ok(!preview.includes("Technologies:"));
  assert.ok(preview.endsWith(`Apply here: http://localhost/jobs/${job.jobId}`));
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
  await setViews(t, job, 8);
  const response = await t.app.request(`/jobs/${job.jobId}`, {
    headers: { "accept-encoding": "gzip" },
  });
  const html = await new Response(response.body!.pipeThrough(new DecompressionStream("gzip")))
    .text();
  assert.ok(html.includes("<dt>Views</dt><dd><span>8</span></dd>"));
});
