/** The home page and the job list as served HTML: texts, limits, filters, paging, the cards. */
import assert from "node:assert/strict";
import type { Job } from "../../kv/schemas.ts";
import { testApp } from "../helpers/server.ts";
import { cardOf, cardRoles, get, pageNumbers, scriptData, seedJobs } from "./fixtures.ts";

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
  assert.match(html, /<a href="\/jobs"[^>]*>View All Jobs<\/a>/);
  for (const text of ["Remote", "Full-time", "Software Engineer", "Data Science", "Marketing"]) {
    assert.match(html, new RegExp(`<button type="button"[^>]*>${text}</button>`), text);
  }
  for (const text of ["How It Works", "Search &amp; Discover", "Apply with Ease", "Get Hired"]) {
    assert.ok(html.includes(text), text);
  }
  assert.match(html, /<link rel="canonical" href="http:\/\/localhost\/"\/>/);
  assert.match(html, /<meta name="description" content="[^"]+"\/>/);
  assert.match(html, /<a href="\/"[^>]* aria-current="page">Home<\/a>/);
  assert.equal(scriptData(html, "application/ld+json").length, 0);
});

Deno.test("the job list shows 12 a page, the counts, and a five-page window", async () => {
  await using t = await testApp();
  await seedJobs(t, Array.from({ length: 100 }, (_, i) => ({ role: `Engineer ${i}` })));

  const first = await get(t, "/jobs");
  assert.equal(first.status, 200);
  assert.match(first.html, /<h1[^>]*>Find Your Next Job<\/h1>/);
  assert.ok(first.html.includes("100 Jobs Found"));
  assert.ok(first.html.includes("Showing 1 - 12 of 100 results"));
  assert.ok(first.html.includes("Updated daily"));
  assert.equal(first.html.match(/<article[\s>]/g)?.length, 12);
  assert.deepEqual(pageNumbers(first.html), [1, 2, 3, 4, 5]);
  // Previous is not a link on the first page, and says it is unavailable.
  assert.match(first.html, /<span[^>]* aria-disabled="true">Previous<\/span>/);
  assert.doesNotMatch(first.html, /<a [^>]*>Previous<\/a>/);
  assert.match(first.html, /<a [^>]*href="\/jobs\?page=2" rel="next">Next<\/a>/);
  assert.match(first.html, /href="\/jobs" aria-current="page" aria-label="Page 1"/);
  assert.match(first.html, /<a href="\/jobs"[^>]* aria-current="page">Jobs<\/a>/);

  const middle = await get(t, "/jobs?page=5");
  assert.deepEqual(pageNumbers(middle.html), [3, 4, 5, 6, 7]);
  assert.ok(middle.html.includes("Showing 49 - 60 of 100 results"));
  assert.match(middle.html, /href="\/jobs\?page=5" aria-current="page"/);
  assert.match(middle.html, /href="\/jobs\?page=4" rel="prev">Previous/);

  const last = await get(t, "/jobs?page=9");
  assert.deepEqual(pageNumbers(last.html), [5, 6, 7, 8, 9]);
  assert.ok(last.html.includes("Showing 97 - 100 of 100 results"));
  assert.equal(last.html.match(/<article[\s>]/g)?.length, 4);
  assert.match(last.html, /<span[^>]* aria-disabled="true">Next<\/span>/);
  assert.doesNotMatch(last.html, /<a [^>]*>Next<\/a>/);
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
  assert.match(html, /<a href="\/jobs"[^>]*>Clear Filters<\/a>/);
  // The panel starts open when a filter is set, closed otherwise: the Filters button says so.
  const filtersButton = /<button [^>]*aria-expanded="(true|false)" aria-controls="filter-panel"/;
  assert.equal(html.match(filtersButton)?.[1], "true");
  assert.equal((await get(t, "/jobs")).html.match(filtersButton)?.[1], "false");
});

Deno.test("empty and unknown query values are dropped with a redirect, campaign tags kept", async () => {
  await using t = await testApp();
  const cases: [string, string][] = [
    ["/jobs?keywords=&location=", "/jobs"],
    ["/jobs?keywords=+react+&location=&role=&experience=&employmentType=", "/jobs?keywords=react"],
    ["/jobs?experience=ninja&page=0", "/jobs"],
    // A campaign's tags stay for the traffic counter; the rest of the query is made canonical.
    ["/jobs?page=1&utm_source=mail", "/jobs?utm_source=mail"],
    ["/jobs?page=3&keywords=go", "/jobs?keywords=go&page=3"],
    // An option written another way (a hand-typed or shared link) is read as the option it names.
    ["/jobs?workMode=remote", "/jobs?workMode=Remote"],
    [
      "/jobs?workMode=on+site&employmentType=full+time",
      "/jobs?workMode=On-site&employmentType=Full-Time",
    ],
    [
      "/jobs?category=data+%26+ai&experience=INTERN",
      "/jobs?category=Data+%26+AI&experience=intern",
    ],
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
  assert.match(html, /<a href="\/jobs"[^>]*>Clear All Filters<\/a>/);
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
    // A decorative logo over the company's letter, both hidden from screen readers (the company's
    // name is beside them).
    /<span[^>]* aria-hidden="true">G<img src="https:\/\/cdn.example\/globex.png" alt="" width="48" height="48"/,
  );
  assert.ok(card.includes("Mar 5, 2026"));
  assert.match(card, />Part-Time<\/span>/);
  assert.ok(card.includes(`<a href="/jobs/${withLogo.jobId}">Platform Engineer</a>`));
  assert.ok(card.includes("Hyderabad, India"));
  assert.ok(card.includes(">5+<"));
  assert.ok(card.includes(`${LONG_TEXT.slice(0, 150)}...`));
  assert.ok(!card.includes(LONG_TEXT.slice(0, 151)));
  const chips = [...card.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]);
  assert.deepEqual(chips, ["Go", "Rust", "Python", "Kubernetes", "Docker", "Terraform"]);
  assert.match(card, /<li[^>]*>\+3 more<\/li>/);
  assert.match(card, /<p[^>]*>₹20-30 LPA<\/p>/);
  assert.ok(card.includes("View Details"));

  const other = cardOf(html, "initech");
  assert.match(other, /<span[^>]* aria-hidden="true">I<\/span>/);
  assert.ok(!other.includes("<img"), "no logo, only the letter");
  assert.ok(!other.includes("more</li>"));
  assert.ok(!other.includes("LPA"), "no package");
  assert.ok(plain.jobId);
});

Deno.test("a list's cards show each job as it is now, after any edit", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Card Role", companyName: "Old Company" }]);
  // Asked three times, so the pages and their cards are kept.
  for (let i = 0; i < 3; i++) {
    assert.ok(cardOf((await get(t, "/jobs")).html, "Card Role").includes("Old Company"));
    assert.ok(cardOf((await get(t, "/")).html, "Card Role").includes("Old Company"));
  }
  const { _id, jobId: _, status: __, ...input } = job;
  await t.services.jobs.update(_id, { ...input, companyName: "New Company" } as Job);
  for (const path of ["/jobs", "/", "/jobs?keywords=card"]) {
    const card = cardOf((await get(t, path)).html, "Card Role");
    assert.ok(card.includes("New Company"), path);
    assert.ok(!card.includes("Old Company"), path);
  }
});

Deno.test("a search longer than 500 characters is cut before the word that does not fit, never inside a character", async () => {
  await using t = await testApp();
  // The page sends the visitor to the search it reads, and shows it in the box.
  const boxOf = async (keywords: string) => {
    const asked = await get(t, `/jobs?${new URLSearchParams({ keywords })}`);
    assert.equal(asked.status, 302);
    const location = asked.headers.get("location")!;
    const cut = new URLSearchParams(location.slice(location.indexOf("?"))).get("keywords")!;
    const { html } = await get(t, location);
    assert.ok(html.includes(`value="${cut}"`), "the search box shows the search");
    assert.ok(!html.includes("\uFFFD") && !/[\uD800-\uDBFF]$/.test(cut), "no half of a character");
    return cut;
  };
  const sentence = "Looking for a senior java developer with spring boot experience ".repeat(9);
  const cut = await boxOf(sentence);
  assert.ok(cut.length <= 500 && cut.length > 450, `${cut.length} characters`);
  assert.ok(sentence.startsWith(`${cut} `), "whole words only");
  // Characters are counted as the API counts them: an emoji is one, and is kept or dropped whole.
  assert.equal(await boxOf(`${"a".repeat(499)}😀b`), `${"a".repeat(499)}😀`);
  assert.equal(await boxOf("😀".repeat(501)), "😀".repeat(500));
  assert.equal(await boxOf(`${"🍳 ".repeat(150)}${"🍳".repeat(201)}`), "🍳 ".repeat(150).trim());
  // What the API takes whole, the page takes whole.
  for (
    const keywords of [
      "😀".repeat(500),
      `${"a".repeat(499)}😀`,
      `${"🍳 ".repeat(150)}${"🍳".repeat(150)}`,
    ]
  ) {
    const query = new URLSearchParams({ keywords });
    assert.equal((await get(t, `/api/jobs?${query}`)).status, 200);
    assert.equal((await get(t, `/jobs?${query}`)).status, 200, "the page cut what the API takes");
  }
});
