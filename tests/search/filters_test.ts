/**
 * The filters job seekers expect, through the API and the /jobs page: pay (filter and sort), work
 * mode, role category, company and date posted, each validated, each with its counts.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import type { Job } from "../../kv/schemas.ts";
import { describeSearch } from "../../routes/alerts/mail.tsx";
import { plainList } from "../../kv/jobs/catalogue.ts";

type App = Awaited<ReturnType<typeof testApp>>;

async function api(t: App, query: string) {
  const response = await t.app.request(`/api/jobs${query}`);
  const body = await response.json();
  return { status: response.status, body, roles: (body.jobs ?? []).map((job: Job) => job.role) };
}

/** Jobs posted a day apart, newest last: 30, 10, 5, 2 days and 1 hour before the test's now. */
async function seed(t: App) {
  const now = t.clock.now.getTime();
  const day = 86_400_000;
  const at = (ago: number) => (t.clock.now = new Date(now - ago));
  at(30 * day - 3_600_000);
  await t.services.jobs.create(
    sampleJob({ role: "Data Scientist", companyName: "Acme Corp", estPackage: "20-25 LPA" }),
  );
  at(10 * day);
  await t.services.jobs.create(
    sampleJob({
      role: "Support Intern",
      companyName: "Beta Labs",
      estPackage: "₹15,000 per month",
      location: "Remote (India)",
      employmentType: "Internship",
    }),
  );
  at(5 * day);
  await t.services.jobs.create(
    sampleJob({
      role: "Tutor",
      companyName: "acme corp",
      estPackage: "₹500 per hour",
      location: "Hybrid - Pune",
    }),
  );
  at(2 * day);
  await t.services.jobs.create(
    sampleJob({ role: "Frontend Developer", companyName: "Gamma", estPackage: "Competitive" }),
  );
  at(3_600_000);
  await t.services.jobs.create(
    sampleJob({ role: "Backend Engineer", companyName: "Gamma", estPackage: "8-12 LPA" }),
  );
  t.clock.now = new Date(now);
}

Deno.test("payMin keeps the jobs whose yearly top reaches it; sortBy=pay is highest first, or lowest with sortOrder=asc", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  // Yearly tops: 25 L; 1.8 L (15,000 × 12); 10.4 L (500 × 2,080); none; 12 L.
  assert.deepEqual((await api(t, "?payMin=1000000&sortBy=pay")).roles, [
    "Data Scientist",
    "Backend Engineer",
    "Tutor",
  ]);
  assert.deepEqual((await api(t, "?payMin=1040000")).body.pagination.totalJobs, 3);
  assert.deepEqual((await api(t, "?payMin=1040001")).body.pagination.totalJobs, 2);
  // Jobs without pay come last in the pay order, newest first among equals.
  assert.deepEqual((await api(t, "?sortBy=pay")).roles, [
    "Data Scientist",
    "Backend Engineer",
    "Tutor",
    "Support Intern",
    "Frontend Developer",
  ]);
  // Lowest first when asked, and still without pay last: no pay is no lowest pay.
  assert.deepEqual((await api(t, "?sortBy=pay&sortOrder=asc")).roles, [
    "Support Intern",
    "Tutor",
    "Backend Engineer",
    "Data Scientist",
    "Frontend Developer",
  ]);
  assert.deepEqual((await api(t, "?sortBy=pay&sortOrder=asc&limit=2&page=2")).roles, [
    "Backend Engineer",
    "Data Scientist",
  ]);
  const job = (await api(t, "?keywords=tutor")).body.jobs[0];
  assert.deepEqual(job.pay, { min: 500, max: 500, period: "hour", currency: "INR" });
  assert.equal(job.estPackage, "₹500 per hour", "the package text stays as written");
});

Deno.test("a pay phrase in the keyword box is the Salary filter, and the page says so: 10 lpa, ctc 11 lakhs, 20-25 LPA", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  // Yearly tops: 25 L; 1.8 L; 10.4 L; none; 12 L.
  const roles = async (keywords: string, more = "") =>
    (await api(t, `?keywords=${encodeURIComponent(keywords)}&sortBy=pay${more}`)).roles;
  assert.deepEqual(await roles("10 lpa"), ["Data Scientist", "Backend Engineer", "Tutor"]);
  assert.deepEqual(await roles("ctc 11 lakhs"), ["Data Scientist", "Backend Engineer"]);
  assert.deepEqual(await roles("engineer 11.5 lacs"), ["Backend Engineer"]);
  assert.deepEqual(await roles("20-25 LPA"), ["Data Scientist"]);
  // `10+ lpa` is pay, not ten years of experience.
  assert.deepEqual(await roles("10+ lpa"), ["Data Scientist", "Backend Engineer", "Tutor"]);
  // The higher of the box's phrase and the Salary filter holds.
  assert.deepEqual(await roles("10 lpa", "&payMin=1500000"), ["Data Scientist"]);
  assert.deepEqual(await roles("15 lpa", "&payMin=300000"), ["Data Scientist"]);
  // A month's pay asks twelve of it a year; `high salary` asks nothing the words can find.
  assert.deepEqual(await roles("salary 90000 per month"), ["Data Scientist", "Backend Engineer"]);
  assert.deepEqual(await roles("₹1,10,000/month"), ["Data Scientist"]);
  assert.deepEqual(await roles("80-95k pm"), ["Data Scientist", "Backend Engineer", "Tutor"]);
  assert.deepEqual(await roles("scientist high salary"), ["Data Scientist"]);
  // Lakhs as `L`, rupees in Indian figures, crores; a figure marked as pay is a year's from a lakh
  // up and a month's below it; a bare figure is no pay.
  for (const keywords of ["10L", "10 l", "₹10,00,000", "rs 1000000 ctc"]) {
    assert.deepEqual(await roles(keywords), ["Data Scientist", "Backend Engineer", "Tutor"]);
  }
  assert.deepEqual(await roles("1 crore"), []);
  assert.deepEqual(await roles("salary 15000"), await roles("1.8 lpa"));
  assert.deepEqual(await roles("15k salary"), await roles("1.8 lpa"));
  assert.equal((await roles("1.8 lpa")).length, 4);
  // The page says so: otherwise only well-paid jobs are listed under a Salary filter of Any.
  const page = async (search: string) => await (await t.app.request(`/jobs?${search}`)).text();
  const said = "Pay 10 LPA and up: the pay in your search works as the Salary filter.";
  assert.ok((await page("keywords=10+lpa")).includes(said));
  assert.ok(!(await page("keywords=engineer")).includes("the pay in your search"));
  assert.ok(!(await page("keywords=10+lpa&payMin=1500000")).includes("the pay in your search"));
  // Beside the phrase, a Salary option below it gives what the phrase gives: not offered, and
  // counting the jobs found when chosen.
  const salaries = async (search: string) =>
    [...((await page(search)).match(/<select[^>]*name="payMin"[^>]*>(.*?)<\/select>/)?.[1] ?? "")
      .matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]);
  assert.deepEqual((await salaries("keywords=10+lpa")).slice(1), [
    "10 LPA and up (3)",
    "15 LPA and up (1)",
    "25 LPA and up (1)",
  ]);
  assert.deepEqual((await salaries("keywords=20+lpa&payMin=600000")).slice(1), [
    "6 LPA and up (1)",
    "25 LPA and up (1)",
  ]);
});

Deno.test("a pay phrase asks the same in any word order, a lakh a month is 12 LPA, a range its low end; the page says the figure", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  // Yearly tops: 25 L; 1.8 L; 10.4 L; none; 12 L.
  const roles = async (keywords: string) =>
    (await api(t, `?keywords=${encodeURIComponent(keywords)}&sortBy=pay`)).roles;
  const note = async (keywords: string) =>
    (await (await t.app.request(`/jobs?${new URLSearchParams({ keywords })}`)).text())
      .match(/Pay ([^<]*): the pay in your search works as the Salary filter\./)?.[1];
  const cases: [string[], string, string[]][] = [
    [["1 lakh per month", "1L per month", "developer 1 lakh per month"], "12 LPA and up", [
      "Data Scientist",
      "Backend Engineer",
    ]],
    [["1.5 lakh per month"], "18 LPA and up", ["Data Scientist"]],
    [["2 lakhs monthly"], "24 LPA and up", ["Data Scientist"]],
    [
      ["salary above 50k", "above 50k salary", "salary 50k+", "min 50k", "50,000 per month"],
      "6 LPA and up",
      ["Data Scientist", "Backend Engineer", "Tutor"],
    ],
    [["salary above 15000", "15k salary"], "1.8 LPA and up", [
      "Data Scientist",
      "Backend Engineer",
      "Tutor",
      "Support Intern",
    ]],
    [["8 lpa to 12 lpa", "8-12 lpa", "8 to 12 lpa"], "8 LPA and up", [
      "Data Scientist",
      "Backend Engineer",
      "Tutor",
    ]],
    [["15 lpa to 20 lpa"], "15 LPA and up", ["Data Scientist"]],
  ];
  for (const [phrasings, said, found] of cases) {
    for (const keywords of phrasings) {
      // "developer" is a word too: the one job whose role says it.
      const expected = keywords.startsWith("developer") ? [] : found;
      assert.deepEqual(await roles(keywords), expected, keywords);
      assert.equal(await note(keywords), said, keywords);
    }
  }
});

Deno.test("the rupee in words or after the figure, and L.P.A., mark pay as ₹ and LPA do", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const roles = async (keywords: string) =>
    (await api(t, `?keywords=${encodeURIComponent(keywords)}&sortBy=pay`)).roles;
  const cases: [string, string][] = [
    ["25000 rupees per month", "₹25000 per month"],
    ["salary 25000 rupees", "salary ₹25000"],
    ["rupees 25000 stipend", "₹25000 stipend"],
    ["500 rs per hr", "₹500 per hr"],
    ["15000/-", "₹15000"],
    ["10 lakh inr", "10 lakh"],
    ["15 L.P.A.", "15 LPA"],
    ["engineer 8 l.p.a", "engineer 8 LPA"],
  ];
  for (const [typed, same] of cases) {
    const expected = await roles(same);
    assert.ok(expected.length > 0, same);
    assert.deepEqual(await roles(typed), expected, typed);
  }
});

Deno.test("a sum in another currency filters nothing and is no words to find: the rest is searched", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const answer = async (keywords: string) => {
    const { body, roles } = await api(t, `?keywords=${encodeURIComponent(keywords)}`);
    return { roles, partial: body.partial };
  };
  const html = async (keywords: string) =>
    await (await t.app.request(`/jobs?${new URLSearchParams({ keywords })}`)).text();
  const tutor = await answer("tutor");
  assert.ok(tutor.roles.length > 0);
  for (
    const typed of ["tutor $50/hr", "$40,000 a year tutor", "tutor €30 per hour", "£25k tutor"]
  ) {
    assert.deepEqual(await answer(typed), tutor, typed);
    assert.doesNotMatch(await html(typed), /the pay in your search works as the Salary filter/);
  }
});

Deno.test("a bare figure no job has is offered as pay on the empty page", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const { html } = await page(t, "/jobs?keywords=50000");
  assert.match(html, /0 Jobs Found/);
  // A month's pay, as `salary 50000` says: 6 LPA and up.
  assert.match(html, /<a href="\/jobs\?keywords=salary\+50000">3 jobs for “salary 50000”<\/a>/);
  // A figure no pay can be is offered nothing.
  assert.doesNotMatch((await page(t, "/jobs?keywords=42")).html, /salary 42/);
});

Deno.test("workMode, category, company and postedWithin filter the API", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  assert.deepEqual((await api(t, "?workMode=Remote")).roles, ["Support Intern"]);
  assert.deepEqual((await api(t, "?workMode=Hybrid")).roles, ["Tutor"]);
  assert.equal((await api(t, "?workMode=On-site")).body.pagination.totalJobs, 3);
  // An option written in any case or spacing is that option, as the page reads it.
  assert.deepEqual((await api(t, "?workMode=remote")).roles, ["Support Intern"]);
  assert.equal((await api(t, "?workMode=onsite")).body.pagination.totalJobs, 3);
  assert.equal((await api(t, "?workMode=on%20site")).body.pagination.totalJobs, 3);
  assert.deepEqual((await api(t, "?category=Data%20%26%20AI")).roles, ["Data Scientist"]);
  assert.deepEqual((await api(t, "?category=Education")).roles, ["Tutor"]);
  assert.deepEqual((await api(t, "?category=Customer%20Support")).roles, ["Support Intern"]);
  // A company in any case, its jobs in any case.
  assert.deepEqual((await api(t, "?company=ACME%20CORP")).roles, ["Tutor", "Data Scientist"]);
  assert.deepEqual((await api(t, "?company=Acme")).roles, []);
  assert.deepEqual((await api(t, "?postedWithin=1")).roles, ["Backend Engineer"]);
  assert.deepEqual((await api(t, "?postedWithin=3")).roles, [
    "Backend Engineer",
    "Frontend Developer",
  ]);
  assert.equal((await api(t, "?postedWithin=7")).body.pagination.totalJobs, 3);
  assert.equal((await api(t, "?postedWithin=14")).body.pagination.totalJobs, 4);
  assert.equal((await api(t, "?postedWithin=30")).body.pagination.totalJobs, 5);
  // Together: every filter at once.
  assert.deepEqual(
    (await api(
      t,
      "?workMode=On-site&category=Engineering&company=gamma&payMin=300000&postedWithin=7&sortBy=pay",
    )).roles,
    ["Backend Engineer"],
  );
});

Deno.test("a company's accent matches however it is encoded, or typed without it", async () => {
  await using t = await testApp();
  await t.services.jobs.create(sampleJob({ role: "Barista", companyName: "Café Kyoto" }));
  const decomposed = encodeURIComponent("CAFE\u0301 kyoto");
  assert.deepEqual((await api(t, `?company=${decomposed}`)).roles, ["Barista"]);
  for (const typed of ["CAFE KYOTO", "cafe  kyoto"]) {
    assert.deepEqual((await api(t, `?${new URLSearchParams({ company: typed })}`)).roles, [
      "Barista",
    ]);
  }
  // The page shows the company's own name.
  const page = await t.app.request(`/jobs?company=cafe+kyoto`, { redirect: "manual" });
  assert.equal(page.status, 302);
  assert.equal(page.headers.get("location"), `/jobs?company=Caf%C3%A9+Kyoto`);
});

Deno.test("a bad value of a new filter is a 400 naming it", async () => {
  await using t = await testApp();
  for (
    const [query, field] of [
      ["?payMin=ten", "payMin"],
      ["?payMin=-5", "payMin"],
      ["?payMin=1e6", "payMin"],
      ["?postedWithin=5", "postedWithin"],
      ["?postedWithin=week", "postedWithin"],
      ["?workMode=Mars", "workMode"],
      ["?postedWithin=-1", "postedWithin"],
      ["?category=Astronaut", "category"],
      ["?sortBy=salary", "sortBy"],
      [`?company=${"x".repeat(201)}`, "company"],
    ]
  ) {
    const { status, body } = await api(t, query);
    assert.equal(status, 400, query);
    // Named once: before the message, or by the message itself (`sortBy must be ...`).
    assert.match(body.message, new RegExp(`^${field}(: | must )`), query);
  }
});

Deno.test("the filter options add the role categories", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const options = await (await t.app.request("/api/jobs/filters/options")).json();
  assert.ok(options.categories.includes("Engineering"));
  assert.ok(options.categories.includes("Data & AI"));
  assert.ok(options.categories.includes("Customer Support"));
  // "Acme Corp" and "acme corp" are one company, as the company filter matches them.
  assert.deepEqual(options.companies, ["Acme Corp", "Beta Labs", "Gamma"]);
});

const options = (html: string, name: string) =>
  [...(html.match(new RegExp(`<select[^>]*name="${name}"[^>]*>(.*?)</select>`))?.[1] ?? "")
    .matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]);

async function page(t: App, path: string) {
  const response = await t.app.request(path);
  return {
    status: response.status,
    location: response.headers.get("location"),
    html: await response.text(),
  };
}

Deno.test("/jobs offers Salary, Work Mode, Role Category, Date Posted and Company with counts", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const { html } = await page(t, "/jobs");
  assert.deepEqual(options(html, "payMin"), [
    "Any Salary",
    "3 LPA and up (3)",
    "6 LPA and up (3)",
    "10 LPA and up (3)",
    "15 LPA and up (1)",
    "25 LPA and up (1)",
  ]);
  assert.deepEqual(options(html, "workMode"), [
    "All Work Modes",
    "On-site (3)",
    "Hybrid (1)",
    "Remote (1)",
  ]);
  assert.deepEqual(options(html, "postedWithin"), [
    "Any time",
    "Last 24 hours (1)",
    "Last 3 days (2)",
    "Last 7 days (3)",
    "Last 14 days (4)",
    "Last 30 days (5)",
  ]);
  assert.deepEqual(options(html, "company"), [
    "All Companies",
    "Acme Corp (2)",
    "Beta Labs (1)",
    "Gamma (2)",
  ]);
  assert.deepEqual(options(html, "category"), [
    "All Roles",
    "Engineering (2)",
    "Data &amp; AI (1)",
    "Customer Support (1)",
    "Education (1)",
  ]);
  assert.deepEqual(options(html, "sortBy").at(-1), "Salary (high to low)");
  // With a salary band chosen, the other dropdowns count within it; its own counts stay.
  const paid = await page(t, "/jobs?payMin=1000000");
  assert.deepEqual(options(paid.html, "workMode"), ["All Work Modes", "On-site (2)", "Hybrid (1)"]);
  assert.deepEqual(options(paid.html, "payMin").slice(1, 3), [
    "3 LPA and up (3)",
    "6 LPA and up (3)",
  ]);
  assert.match(paid.html, /<option value="1000000" selected="">10 LPA and up \(3\)<\/option>/);
  assert.match(paid.html, /<meta name="robots" content="noindex/);
  for (const sorted of ["/jobs?sortBy=pay", "/jobs?sortBy=datePosted"]) {
    assert.match((await page(t, sorted)).html, /<meta name="robots" content="noindex/, sorted);
  }
  assert.doesNotMatch(html, /<meta name="robots" content="noindex/);
});

Deno.test("an old link's exact role still filters, and shows its dropdown to clear it", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  assert.deepEqual(options((await page(t, "/jobs")).html, "role"), []);
  const { html } = await page(t, "/jobs?role=Tutor");
  assert.deepEqual(options(html, "role"), [
    "All Roles",
    "Backend Engineer (1)",
    "Data Scientist (1)",
    "Frontend Developer (1)",
    "Support Intern (1)",
    "Tutor (1)",
  ]);
  assert.equal((await api(t, "?role=Tutor")).body.pagination.totalJobs, 1);
  assert.match(html, /<a href="\/jobs\/JB-\d+">Tutor<\/a>/);
  assert.deepEqual((await api(t, "?role=Tutor")).roles, ["Tutor"]);
});

Deno.test("/jobs drops a bad value of a new filter and keeps one canonical URL", async () => {
  await using t = await testApp();
  for (
    const [asked, canonical] of [
      ["/jobs?payMin=ten", "/jobs"],
      ["/jobs?payMin=-5", "/jobs"],
      ["/jobs?payMin=1e6", "/jobs"],
      ["/jobs?payMin=100000001", "/jobs"],
      ["/jobs?payMin=0450000", "/jobs?payMin=450000"],
      ["/jobs?postedWithin=5", "/jobs"],
      ["/jobs?workMode=Mars&sortBy=salary", "/jobs"],
      [
        "/jobs?sortBy=pay&postedWithin=7&payMin=600000",
        "/jobs?payMin=600000&postedWithin=7&sortBy=pay",
      ],
      ["/jobs?company=+Acme+Corp+&payMin=", "/jobs?company=Acme+Corp"],
    ]
  ) {
    const { status, location } = await page(t, asked);
    assert.equal(status, 302, asked);
    assert.equal(location, canonical, asked);
  }
});

Deno.test("a salary no band names, as an alert's link asks it, is kept by the page and the feed", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const { status, html } = await page(t, "/jobs?payMin=1040000");
  assert.equal(status, 200);
  assert.match(html, /3 Jobs Found/);
  assert.match(html, /<option value="1040000" selected="">10.4 LPA and up \(3\)<\/option>/);
  assert.deepEqual(options(html, "payMin"), [
    "Any Salary",
    "3 LPA and up (3)",
    "6 LPA and up (3)",
    "10 LPA and up (3)",
    "10.4 LPA and up (3)",
    "15 LPA and up (1)",
    "25 LPA and up (1)",
  ]);
  const feed = await (await t.app.request("/jobs/feed.xml?payMin=1040001")).text();
  assert.deepEqual([...feed.matchAll(/<item>/g)].length, 2);
});

Deno.test("payMin=0 keeps the jobs with pay, as any pay filter does, in the API, the page, the feed and an alert", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  // Every job but the Frontend Developer's ("Competitive") states a pay.
  const paid = ["Data Scientist", "Backend Engineer", "Tutor", "Support Intern"];
  assert.deepEqual((await api(t, "?payMin=0&sortBy=pay")).roles, paid);
  assert.equal((await api(t, "?payMin=0")).body.pagination.totalJobs, 4);
  // Nor is it a plain list, which a process still loading its catalogue reads from KV unfiltered.
  assert.equal(plainList({ page: 1, limit: 12, payMin: 0 }), false);
  assert.equal((await api(t, "?payMin=")).body.pagination.totalJobs, 5, "empty is no filter");
  const { status, location } = await page(t, "/jobs?payMin=00");
  assert.equal(status, 302);
  assert.equal(location, "/jobs?payMin=0");
  const list = await page(t, "/jobs?payMin=0");
  assert.equal(list.status, 200);
  assert.match(list.html, /4 Jobs Found/);
  assert.match(list.html, /<option value="0" selected="">Pay stated \(4\)<\/option>/);
  // With nothing found, the looser search offers the same without it.
  const frontend = await page(t, "/jobs?keywords=frontend&payMin=0");
  assert.match(frontend.html, /<a href="\/jobs\?keywords=frontend">1 job at any salary<\/a>/);
  const recent = await page(t, "/jobs?keywords=scientist&payMin=0&postedWithin=7");
  assert.match(
    recent.html,
    /href="\/jobs\?keywords=scientist&amp;payMin=0">1 job posted at any time</,
  );
  const feed = await (await t.app.request("/jobs/feed.xml?payMin=0")).text();
  assert.equal([...feed.matchAll(/<item>/g)].length, 4);
  assert.ok(!feed.includes("Frontend Developer"));
  // An alert keeps it, and says it.
  const asked = await t.app.request("/api/alerts", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "seeker@example.com", payMin: 0, frequency: "daily" }),
  }, { remoteAddr: { hostname: "203.0.113.7", port: 1, transport: "tcp" } });
  assert.equal(asked.status, 202);
  const [alert] = (await t.services.alerts.alertsOf("seeker@example.com")).alerts;
  assert.deepEqual(alert.query, { payMin: "0" });
  assert.equal(describeSearch(alert.query), "Pay stated");
});

Deno.test("a company's page, however the company is written, is the page of its name", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  for (const asked of ["ACME+CORP", "acme+corp", "+Acme+corp"]) {
    const { status, location } = await page(t, `/jobs?company=${asked}&workMode=On-site`);
    assert.equal(status, 302, asked);
    assert.equal(location, "/jobs?workMode=On-site&company=Acme+Corp", asked);
  }
  const { html } = await page(t, "/jobs?workMode=On-site&company=Acme+Corp");
  assert.match(html, /<h1[^>]*>Jobs at Acme Corp<\/h1>/);
  assert.match(html, /<option value="Acme Corp" selected="">Acme Corp \(1\)<\/option>/);
  // A company with no jobs keeps the name as asked.
  assert.equal((await page(t, "/jobs?company=Zeta")).status, 200);
});

Deno.test("a company's page is headed by its name; cards and job pages link to it", async () => {
  await using t = await testApp();
  await t.services.jobs.create(sampleJob({ companyName: "Tata & Sons" }));
  const { html } = await page(t, "/jobs?company=Tata+%26+Sons");
  assert.match(html, /<h1[^>]*>Jobs at Tata &amp; Sons<\/h1>/);
  assert.match(html, /<a [^>]*href="\/jobs\?company=Tata\+%26\+Sons"[^>]*>Tata &amp; Sons<\/a>/);
  const job = (await api(t, "")).body.jobs[0];
  const jobPage = await page(t, `/jobs/${job.jobId}`);
  assert.match(
    jobPage.html,
    /<a [^>]*href="\/jobs\?company=Tata\+%26\+Sons"[^>]*>Tata &amp; Sons<\/a>/,
  );
});

Deno.test("the RSS feed takes the same filters", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  await seed(t);
  const feed = await (await t.app.request("/jobs/feed.xml?payMin=1000000&workMode=On-site")).text();
  const titles = [...feed.matchAll(/<item><title>([^<]+)<\/title>/g)].map((m) => m[1]);
  assert.deepEqual(titles, ["Backend Engineer at Gamma", "Data Scientist at Acme Corp"]);
});

Deno.test("Last 24 hours holds no job posted over 24 hours before, whatever the minute of the hour", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T12:30:00Z") });
  const now = t.clock.now.getTime();
  for (
    const [role, ago] of [["Old Enough", 24 * 3_600_000 + 15 * 60_000], [
      "Recent",
      23 * 3_600_000 + 45 * 60_000,
    ]] as const
  ) {
    t.clock.now = new Date(now - ago);
    await t.services.jobs.create(sampleJob({ role }));
  }
  t.clock.now = new Date(now);
  assert.deepEqual((await api(t, "?postedWithin=1")).roles, ["Recent"]);
  const page = await (await t.app.request("/jobs?postedWithin=1")).text();
  assert.ok(page.includes("Recent") && !page.includes("Old Enough"));
});
