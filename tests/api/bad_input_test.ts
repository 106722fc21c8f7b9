/**
 * Malformed input to every call that takes a body or a query: always a 4xx with a message, never a
 * 5xx, and never a change to the data.
 */
import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { signInMain } from "../helpers/admins.ts";

const huge = "x".repeat(30_000);

/** Raw bodies that are wrong before any field is read. */
const brokenBodies: (string | undefined)[] = [
  undefined,
  "",
  "{",
  "not json",
  "null",
  "[]",
  "[{}]",
  '"text"',
  "42",
  "true",
  '{"__proto__": {"isAdmin": true}}',
  JSON.stringify({ a: { b: { c: { d: [[[[[]]]]] } } } }),
];

function jobVariants(): unknown[] {
  const job = sampleJob();
  return [
    { ...job, companyName: 42 },
    { ...job, role: ["Engineer"] },
    { ...job, role: huge },
    { ...job, description: "d".repeat(20_001) },
    { ...job, experience: "10+" },
    { ...job, employmentType: "Gig" },
    { ...job, hiringLink: "javascript:alert(1)" },
    { ...job, hiringLink: "data:text/html,<script>alert(1)</script>" },
    { ...job, hiringLink: "not a url" },
    { ...job, companyLogo: "javascript:alert(1)" },
    { ...job, skills: ["TypeScript"] },
    { ...job, skills: { languages: "TypeScript" } },
    { ...job, skills: { languages: [1, 2] } },
    { ...job, keywords: "one,two" },
    { ...job, keywords: Array.from({ length: 101 }, (_, i) => `k${i}`) },
    { ...job, estPackage: { min: 1 } },
    { ...job, location: null },
    // Within each field's limit, yet too big for one KV value in all: text holding a character
    // beyond U+00FF takes two bytes a character there.
    {
      ...job,
      description: "न".repeat(20_000),
      requiredDegree: "€".repeat(2_000),
      skills: { languages: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, "€")) },
      keywords: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, "₹")),
    },
  ];
}

async function expectClientError(
  t: TestApp,
  label: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  raw = false,
) {
  const response = await t.app.request(path, {
    method,
    headers,
    body: raw ? body as string | undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(
    response.status >= 400 && response.status < 500,
    `${label}: ${method} ${path} answered ${response.status} ${text.slice(0, 200)}`,
  );
  assert.equal(typeof JSON.parse(text).message, "string", `${label}: no message`);
}

async function countJobs(t: TestApp) {
  return (await t.services.jobs.statusCounts()).all;
}

Deno.test("job bodies: at least 15 malformed variants per call are refused with a message", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const created = await t.services.jobs.create(sampleJob());
  assert.ok(created.ok);
  const id = created.job._id;
  const before = await countJobs(t);
  const targets: [string, string][] = [["POST", "/api/jobs"], ["PUT", `/api/jobs/${id}`]];
  for (const [method, path] of targets) {
    for (const [i, body] of brokenBodies.entries()) {
      await expectClientError(t, `broken body ${i}`, method, path, body, main.headers, true);
    }
    for (const [i, body] of jobVariants().entries()) {
      await expectClientError(t, `job variant ${i}`, method, path, body, main.headers);
    }
    await expectClientError(t, "wrong content type", method, path, "a=b", {
      ...main.headers,
      "content-type": "application/x-www-form-urlencoded",
    }, true);
    await expectClientError(t, "too large", method, path, {
      ...sampleJob(),
      x: "y".repeat(600_000),
    }, main.headers);
  }
  for (const [i, body] of [...brokenBodies, '{"jobs": "many"}', '{"jobs": {}}'].entries()) {
    await expectClientError(t, `bulk ${i}`, "POST", "/api/jobs/bulk", body, main.headers, true);
  }
  for (
    const [i, body] of [
      { jobs: [] },
      { jobs: Array.from({ length: 501 }, () => ({})) },
      { jobs: null },
      { jobs: 5 },
      { job: [] },
    ].entries()
  ) {
    await expectClientError(t, `bulk shape ${i}`, "POST", "/api/jobs/bulk", body, main.headers);
  }
  // A bulk upload of only bad jobs answers 200 with every one listed as an error.
  const allBad = await t.app.request("/api/jobs/bulk", {
    method: "POST",
    headers: main.headers,
    body: JSON.stringify({ jobs: jobVariants() }),
  });
  assert.equal(allBad.status, 200);
  assert.equal((await allBad.json()).summary.errors, jobVariants().length);
  assert.equal(await countJobs(t), before);
  assert.deepEqual(await t.services.jobs.get(id), created.job, "the job is unchanged");
});

Deno.test("status, duplicate check and admin bodies: malformed variants are refused", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const created = await t.services.jobs.create(sampleJob());
  assert.ok(created.ok);
  const other = await t.app.request("/api/admin/register", {
    method: "POST",
    headers: main.headers,
    body: JSON.stringify({
      username: "Other",
      email: "other@example.com",
      password: "quiet-lantern-7",
    }),
  });
  const otherId = (await other.json()).admin._id;
  const objectVariants = (field: string, values: unknown[]) =>
    values.map((value) => ({ [field]: value }));
  const common = [1, "", huge, null, [], {}, ["x"], true, -1, "javascript:alert(1)"];

  const cases: [string, string, unknown[], Record<string, string>][] = [
    ["PUT", `/api/jobs/${created.job._id}/status`, [
      ...objectVariants("status", [...common, "archived", "ACTIVE", " active"]),
    ], main.headers],
    ["POST", "/api/jobs/check-duplicate", [
      ...objectVariants("hiringLink", [...common, "ftp://example.com/x", "https://"]),
      { hiringLink: "https://example.com", excludeJobId: huge },
    ], main.headers],
    ["POST", "/api/admin/login", [
      ...objectVariants("email", [...common, "a@", "@b.co", "a b@c.d"]),
      { email: "a@b.co", password: huge.repeat(2) },
      { email: "a@b.co", password: 5 },
    ], { "content-type": "application/json" }],
    ["POST", "/api/admin/create-main-admin", [
      ...objectVariants("username", common),
      { username: "A", email: "a@b.co", password: "12345", secretKey: "x" },
      { username: "A", email: "bad", password: "123456", secretKey: "x" },
      { username: "A", email: "a@b.co", password: "123456" },
    ], { "content-type": "application/json" }],
    ["PUT", "/api/admin/profile", [
      ...objectVariants("username", [1, "", huge, null, [], {}, true]),
      ...objectVariants("email", [1, "", "bad", null, [], {}, true]),
      { password: "12345", currentPassword: "first-admin-password" },
      { password: "long-enough" },
    ], main.headers],
    ["POST", "/api/admin/register", [
      ...objectVariants("username", common),
      { username: "A", email: "a@b.co", password: "12345" },
      { username: "A", email: "a@b.co", password: "123456", permissions: { canCreateJobs: "yes" } },
      { username: "A", email: "a@b.co", password: "123456", permissions: [] },
      { username: "A", email: "no-at-sign", password: "123456" },
    ], main.headers],
    ["PUT", `/api/admin/${otherId}/status`, [
      ...objectVariants("isActive", [1, 0, "", "true", "false", null, [], {}, huge]),
      {},
      { active: false },
      { isActive: [true] },
      { isActive: { value: false } },
      { isActive: "no" },
      { isActive: -1 },
    ], main.headers],
  ];
  const before = await t.services.admins.list();
  for (const [method, path, variants, headers] of cases) {
    assert.ok(variants.length + brokenBodies.length >= 15, `${path} has enough variants`);
    for (const [i, body] of brokenBodies.entries()) {
      await expectClientError(t, `broken body ${i}`, method, path, body, headers, true);
    }
    for (const [i, body] of variants.entries()) {
      await expectClientError(t, `variant ${i}`, method, path, body, headers);
    }
  }
  assert.deepEqual(
    (await t.services.admins.list()).map(({ lastLogin: _l, ...admin }) => admin),
    before.map(({ lastLogin: _l, ...admin }) => admin),
  );
  assert.equal((await t.services.jobs.get(created.job._id))?.status, "active");
  const stillSignedIn = await t.app.request("/api/admin/profile", { headers: main.headers });
  assert.equal(stillSignedIn.status, 200);
  assert.equal((await stillSignedIn.json()).username, "Main Admin");
});

Deno.test("queries: at least 15 malformed variants per list call are refused with a message", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const shared = [
    "page=0",
    "page=-1",
    "page=abc",
    "page=1.5",
    "page=1e400",
    "page=99999999999",
    "limit=0",
    "limit=101",
    "limit=abc",
    "limit=-5",
    "limit=2.5",
    "sortOrder=up",
    "sortBy=__proto__",
  ];
  const cases: [string, string[]][] = [
    ["/api/jobs", [
      ...shared,
      "experience=10%2B",
      "employmentType=Gig",
      // The search boxes take a pasted job title, up to 500 characters.
      `keywords=${"k".repeat(501)}`,
      `location=${"l".repeat(501)}`,
      `role=${"r".repeat(201)}`,
      "sortBy=views",
    ]],
    ["/api/jobs/admin/all", [
      ...shared,
      "status=archived",
      "status=ACTIVE",
      `search=${"s".repeat(201)}`,
      `company=${"c".repeat(201)}`,
      `location=${"l".repeat(201)}`,
      "sortBy=role",
    ]],
    [
      "/api/jobs/admin/dump",
      shared.slice(0, 11).concat(["page=1,2", "limit=%20", "page=0x10", "limit=1e3"]),
    ],
  ];
  for (const [path, queries] of cases) {
    assert.ok(queries.length >= 15, `${path} has enough variants`);
    for (const query of queries) {
      await expectClientError(t, query, "GET", `${path}?${query}`, undefined, main.headers, true);
    }
  }
});

Deno.test("a public filter outside its options names the options it takes", async () => {
  await using t = await testApp();
  const cases = [
    ["experience=10%2B", /^experience: must be one of 0-1, 1-2, 2-3, /],
    ["employmentType=Gig", /^employmentType: must be one of Full-Time, Part-Time, Contract, /],
  ] as const;
  for (const [query, message] of cases) {
    const response = await t.app.request(`/api/jobs?${query}`);
    assert.equal(response.status, 400, query);
    assert.match((await response.json()).message, message, query);
  }
  const unset = await t.app.request("/api/jobs?experience=&employmentType=");
  assert.equal(unset.status, 200);
});

Deno.test("analytics queries: at least 15 malformed variants per report are refused with a message", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const days = [
    "days=0",
    "days=-1",
    "days=366",
    "days=7.5",
    "days=abc",
    "days=1e2",
    "days=0x10",
    "days=%20",
    "days=99999999999",
    "days=NaN",
    "days=Infinity",
    "days=+7",
    "days=7,8",
    "days=07x",
    `days=${"9".repeat(500)}`,
  ];
  const limits = ["limit=0", "limit=101", "limit=abc", "limit=-1", "limit=1.5"];
  const cases: [string, string[]][] = [
    ["/api/analytics/dashboard", days],
    ["/api/analytics/dashboard/summary", days],
    ["/api/analytics/overview", days],
    ["/api/analytics/jobs", [...days, ...limits]],
    ["/api/analytics/companies", [...days, ...limits]],
    ["/api/analytics/trends", days],
    ["/api/analytics/export", [...days, "format=xml", "format=CSV", "format=", "format=csv,json"]],
  ];
  for (const [path, queries] of cases) {
    assert.ok(queries.length >= 15, `${path} has enough variants`);
    for (const query of queries) {
      await expectClientError(t, query, "GET", `${path}?${query}`, undefined, main.headers, true);
    }
  }
});

Deno.test("a body sent as any type but JSON is refused, however the type's parameters read", async () => {
  await using t = await testApp();
  // A page elsewhere may send these cross-origin without asking first (a CORS-safelisted type).
  const types = [
    "text/plain",
    "text/plain; x=application/json",
    "application/x-www-form-urlencoded; charset=application/json",
    "multipart/form-data; boundary=application/json",
    "application/jsonp",
  ];
  for (const type of types) {
    for (const path of ["/api/admin/password-reset", "/api/alerts", "/api/admin/login"]) {
      const response = await t.app.request(path, {
        method: "POST",
        headers: { "content-type": type, origin: "https://elsewhere.example" },
        body: JSON.stringify({ email: "someone@example.com", password: "x", frequency: "daily" }),
      });
      assert.equal(response.status, 415, `${path} as ${type}`);
      assert.equal((await response.json()).message, "Content-Type must be application/json");
    }
  }
  for (const type of ["application/json", "Application/JSON; charset=utf-8"]) {
    const response = await t.app.request("/api/admin/password-reset", {
      method: "POST",
      headers: { "content-type": type },
      body: JSON.stringify({ email: "someone@example.com" }),
    });
    assert.equal(response.status, 202, type);
  }
});
