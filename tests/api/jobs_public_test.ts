import { ROLE_CATEGORIES } from "../../kv/job-fields.ts";
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import type { Job, JobWithAnalytics } from "../../kv/schemas.ts";
import type { Pagination } from "../../kv/jobs/paging.ts";

interface ListBody {
  jobs: Job[];
  pagination: Pagination;
}

async function list(t: Awaited<ReturnType<typeof testApp>>, query = ""): Promise<ListBody> {
  const response = await t.app.request(`/api/jobs${query}`);
  assert.equal(response.status, 200);
  return await response.json();
}

Deno.test("GET /api/jobs lists active jobs only, newest first, with pagination", async () => {
  await using t = await testApp({ now: new Date("2026-03-01T10:00:00Z") });
  const created: Job[] = [];
  for (let i = 0; i < 15; i++) {
    t.clock.now = new Date(Date.UTC(2026, 2, 1, 10, i));
    const result = await t.services.jobs.create(sampleJob({ role: `Engineer ${i}` }));
    assert.ok(result.ok);
    created.push(result.job);
  }
  await t.services.jobs.setStatus(created[0]._id, "dump");
  await t.services.jobs.setStatus(created[1]._id, "inactive");

  const first = await list(t);
  assert.equal(first.jobs.length, 12);
  assert.equal(first.jobs[0].role, "Engineer 14");
  assert.deepEqual(first.pagination, {
    currentPage: 1,
    totalJobs: 13,
    totalPages: 2,
    hasPrev: false,
    hasNext: true,
    limit: 12,
  });
  const second = await list(t, "?page=2");
  assert.deepEqual(second.jobs.map((job) => job.role), ["Engineer 2"]);
  assert.equal(second.pagination.hasPrev, true);
  assert.equal(second.pagination.hasNext, false);

  const ascending = await list(t, "?sortBy=role&sortOrder=asc&limit=3");
  assert.deepEqual(ascending.jobs.map((job) => job.role), [
    "Engineer 10",
    "Engineer 11",
    "Engineer 12",
  ]);
  assert.ok(!first.jobs.some((job) => job.status !== "active"));
});

Deno.test("GET /api/jobs filters: every keyword word, location substring, exact role and enums", async () => {
  await using t = await testApp();
  const { jobs } = t.services;
  await jobs.create(sampleJob({
    role: "Data Scientist",
    companyName: "Numbers Ltd",
    location: "Pune, India",
    experience: "3+",
    employmentType: "Contract",
    description: "Model churn with Python.",
    skills: {
      languages: ["Python"],
      technologies: [],
      frameworks: ["PyTorch"],
      databases: [],
      tools: [],
      others: [],
    },
    keywords: ["machine learning"],
  }));
  await jobs.create(sampleJob({ role: "Frontend Engineer", location: "Remote", keywords: ["ui"] }));
  await jobs.create(sampleJob({ role: "Backend Engineer", location: "Remote - India" }));

  assert.deepEqual((await list(t, "?keywords=PYTHON%20pytorch")).jobs.map((j) => j.role), [
    "Data Scientist",
  ]);
  // No job has both words: the jobs with the most of them (one each), not an empty page.
  assert.equal((await list(t, "?keywords=python%20golang")).jobs.length, 3);
  assert.deepEqual((await list(t, "?keywords=python%20rust")).jobs.map((j) => j.role), [
    "Data Scientist",
  ]);
  // A pasted title of 470 characters is a search, not a 400.
  const pasted = encodeURIComponent(`Data Scientist Python ${"and more words ".repeat(31)}`);
  const long = await t.app.request(`/api/jobs?keywords=${pasted}`);
  assert.equal(long.status, 200);
  assert.equal((await long.json()).jobs[0].role, "Data Scientist");
  assert.equal((await list(t, "?keywords=learning")).jobs.length, 1, "keywords field searched");
  assert.equal((await list(t, "?keywords=numbers")).jobs.length, 1, "company searched");
  assert.equal((await list(t, "?location=remote")).pagination.totalJobs, 2);
  assert.equal((await list(t, "?role=Frontend%20Engineer")).jobs[0].role, "Frontend Engineer");
  assert.equal((await list(t, "?role=Frontend")).jobs.length, 0, "role is an exact match");
  assert.equal((await list(t, "?experience=3%2B")).jobs[0].role, "Data Scientist");
  assert.equal((await list(t, "?employmentType=Contract")).jobs.length, 1);
  assert.equal((await list(t, "?employmentType=")).jobs.length, 3, "empty filter is no filter");
  const none = await list(t, "?keywords=nothing-matches");
  assert.deepEqual(none.pagination, {
    currentPage: 1,
    totalJobs: 0,
    totalPages: 1,
    hasPrev: false,
    hasNext: false,
    limit: 12,
  });
});

Deno.test("GET /api/jobs/filters/options: distinct sorted values of active jobs and the enums", async () => {
  await using t = await testApp();
  await t.services.jobs.create(
    sampleJob({ role: "Tester", companyName: "Zeta", location: "Delhi" }),
  );
  await t.services.jobs.create(
    sampleJob({ role: "Analyst", companyName: "alpha", location: "Agra" }),
  );
  await t.services.jobs.create(
    sampleJob({ role: "Tester", companyName: "Zeta", location: "Delhi" }),
  );
  const gone = await t.services.jobs.create(sampleJob({ role: "Gone", companyName: "Old" }));
  assert.ok(gone.ok);
  await t.services.jobs.setStatus(gone.job._id, "inactive");
  const response = await t.app.request("/api/jobs/filters/options");
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    roles: ["Analyst", "Tester"],
    locations: ["Agra", "Delhi"],
    companies: ["alpha", "Zeta"],
    experienceOptions: [
      "0-1",
      "1-2",
      "2-3",
      "3+",
      "4+",
      "5+",
      "6+",
      "intern",
      "2026 passout",
      "2025 passout",
      "2027 passout",
    ],
    employmentTypes: ["Full-Time", "Part-Time", "Contract", "Internship", "Freelance"],
    categories: [...ROLE_CATEGORIES],
  });
});

Deno.test("GET /api/jobs/{id} by _id or jobId; 410 for the public once it left active", async () => {
  await using t = await testApp();
  const result = await t.services.jobs.create(sampleJob());
  assert.ok(result.ok);
  const { job } = result;
  for (const id of [job._id, job.jobId]) {
    const response = await t.app.request(`/api/jobs/${id}`);
    assert.equal(response.status, 200);
    const body: JobWithAnalytics = await response.json();
    assert.equal(body._id, job._id);
    assert.match(body.jobId, /^JB-\d+$/);
    assert.deepEqual(body.analytics, { views: 0, clicks: 0 });
  }
  const missing = await t.app.request("/api/jobs/nope");
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { message: "Job not found" });

  await t.services.jobs.setStatus(job._id, "dump");
  const gone = await t.app.request(`/api/jobs/${job._id}`);
  assert.equal(gone.status, 410, "a job that left active is gone, not unknown");
  assert.deepEqual(await gone.json(), { message: "This job is no longer available" });
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const asAdmin = await t.app.request(`/api/jobs/${job._id}`, { headers: admin.headers });
  assert.equal(asAdmin.status, 200, "the Edit page reads jobs in any status");
  assert.equal((await asAdmin.json()).status, "dump");
});

Deno.test("POST /api/jobs/{id}/click answers the hiring link; 404 unknown, 410 not active", async () => {
  await using t = await testApp();
  const result = await t.services.jobs.create(sampleJob());
  assert.ok(result.ok);
  const response = await t.app.request(`/api/jobs/${result.job._id}/click`, { method: "POST" });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).hiringLink, result.job.hiringLink);
  assert.equal((await t.app.request("/api/jobs/unknown/click", { method: "POST" })).status, 404);
  await t.services.jobs.setStatus(result.job._id, "inactive");
  const gone = await t.app.request(`/api/jobs/${result.job._id}/click`, { method: "POST" });
  assert.equal(gone.status, 410);
  assert.ok((await gone.json()).message);
});

Deno.test("unknown /api paths answer 404 JSON", async () => {
  await using t = await testApp();
  const response = await t.app.request("/api/nothing/here");
  assert.equal(response.status, 404);
  assert.deepEqual(await response.json(), { message: "Not found" });
});
