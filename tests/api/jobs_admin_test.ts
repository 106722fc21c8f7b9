import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { type SignedInAdmin, signIn } from "../helpers/admins.ts";
import type { Job, JobWithAnalytics } from "../../kv/schemas.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";

async function call(
  t: TestApp,
  who: SignedInAdmin,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await t.app.request(path, {
    method,
    headers: who.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("POST /api/jobs creates an active job with a readable id; names missing fields", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const created = await call(t, admin, "POST", "/api/jobs", {
    ...sampleJob({ employmentType: undefined }),
    skills: { languages: [" Go ", "Go", "", "Rust"] },
    keywords: ["a", " a ", "b"],
    unknownField: "dropped",
  });
  assert.equal(created.status, 201);
  assert.equal(created.body.message, "Job created successfully!");
  const job: Job = created.body.job;
  assert.match(job.jobId, /^JB-\d{4,}$/);
  assert.equal(job.status, "active");
  assert.equal(job.employmentType, "Full-Time", "employment type defaults to Full-Time");
  assert.deepEqual(job.skills.languages, ["Go", "Rust"]);
  assert.deepEqual(job.skills.tools, []);
  assert.deepEqual(job.keywords, ["a", "b"]);
  assert.equal("unknownField" in job, false);

  const missing = await call(t, admin, "POST", "/api/jobs", {
    ...sampleJob(),
    role: "  ",
    location: undefined,
  });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.message, "Please fill in: role, location");

  const badEnum = await call(
    t,
    admin,
    "POST",
    "/api/jobs",
    sampleJob({
      experience: "10+" as never,
    }),
  );
  assert.equal(badEnum.status, 400);
  assert.match(badEnum.body.message, /^experience: must be one of 0-1, 1-2/);

  const script = await call(t, admin, "POST", "/api/jobs", {
    ...sampleJob(),
    hiringLink: "javascript:alert(1)",
  });
  assert.equal(script.status, 400);
  assert.match(script.body.message, /hiringLink/);
});

Deno.test("a duplicate hiring link among active jobs is refused with the existing job", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const first = await call(
    t,
    admin,
    "POST",
    "/api/jobs",
    sampleJob({
      hiringLink: "https://Careers.Example.com/jobs/42/",
    }),
  );
  assert.equal(first.status, 201);
  const again = await call(
    t,
    admin,
    "POST",
    "/api/jobs",
    sampleJob({
      hiringLink: "HTTPS://careers.example.com/jobs/42#apply",
    }),
  );
  assert.equal(again.status, 409);
  assert.equal(again.body.existingJob._id, first.body.job._id);
  assert.match(again.body.message, /already used by "Software Engineer" at Acme Corp/);

  const check = await call(t, admin, "POST", "/api/jobs/check-duplicate", {
    hiringLink: "https://careers.example.com/jobs/42",
  });
  assert.deepEqual([check.status, check.body.isDuplicate], [200, true]);
  assert.equal(check.body.existingJob.jobId, first.body.job.jobId);
  const excluded = await call(t, admin, "POST", "/api/jobs/check-duplicate", {
    hiringLink: "https://careers.example.com/jobs/42",
    excludeJobId: first.body.job._id,
  });
  assert.deepEqual(excluded.body, { isDuplicate: false, existingJob: null });

  // Once the holder leaves active, the link is free again; bringing it back then conflicts.
  await call(t, admin, "PUT", `/api/jobs/${first.body.job._id}/status`, { status: "inactive" });
  const reuse = await call(
    t,
    admin,
    "POST",
    "/api/jobs",
    sampleJob({
      hiringLink: "https://careers.example.com/jobs/42",
    }),
  );
  assert.equal(reuse.status, 201);
  const revive = await call(t, admin, "PUT", `/api/jobs/${first.body.job._id}/status`, {
    status: "active",
  });
  assert.equal(revive.status, 409);
  assert.equal(revive.body.existingJob._id, reuse.body.job._id);
});

Deno.test("50 concurrent creates with one hiring link: exactly one succeeds, 49 get 409", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const body = sampleJob({ hiringLink: "https://race.example.com/apply" });
  const results = await Promise.all(
    Array.from({ length: 50 }, () => call(t, admin, "POST", "/api/jobs", body)),
  );
  const statuses = results.map((result) => result.status).sort();
  assert.equal(statuses.filter((status) => status === 201).length, 1);
  assert.equal(statuses.filter((status) => status === 409).length, 49);
  assert.deepEqual(await t.services.jobs.statusCounts(), {
    all: 1,
    active: 1,
    dump: 0,
    inactive: 0,
    draft: 0,
  });
});

Deno.test("PUT /api/jobs/{id} updates fields; 404 unknown; 409 when taking another job's link", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const a = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const b = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const updated = await call(t, admin, "PUT", `/api/jobs/${a.body.job.jobId}`, {
    ...sampleJob({ hiringLink: a.body.job.hiringLink }),
    role: "Staff Engineer",
  });
  assert.equal(updated.status, 200);
  assert.equal(updated.body.message, "Job updated successfully!");
  assert.equal(updated.body.job.role, "Staff Engineer");
  assert.equal(updated.body.job.jobId, a.body.job.jobId);
  assert.equal(updated.body.job.datePosted, a.body.job.datePosted);

  const clash = await call(t, admin, "PUT", `/api/jobs/${a.body.job._id}`, {
    ...sampleJob(),
    hiringLink: b.body.job.hiringLink,
  });
  assert.equal(clash.status, 409);
  assert.deepEqual(
    [clash.body.existingJob.role, clash.body.existingJob.companyName],
    ["Software Engineer", "Acme Corp"],
  );
  const unknown = await call(t, admin, "PUT", "/api/jobs/missing", sampleJob());
  assert.equal(unknown.status, 404);
});

Deno.test("POST /api/jobs/bulk validates each job alone and reports created, duplicates and errors", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const existing = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const repeated = sampleJob();
  const result = await call(t, admin, "POST", "/api/jobs/bulk", {
    jobs: [
      sampleJob(),
      { ...sampleJob(), hiringLink: existing.body.job.hiringLink },
      { ...sampleJob(), role: "" },
      repeated,
      repeated,
      "not a job",
      { ...sampleJob(), employmentType: "Gig" },
    ],
  });
  assert.equal(result.status, 201);
  assert.deepEqual(result.body.summary, { created: 2, duplicates: 2, errors: 3 });
  assert.deepEqual(result.body.duplicates.map((d: { index: number }) => d.index), [1, 4]);
  // Each row not created is named by what it holds of a role and a company.
  assert.deepEqual(result.body.errors, [
    { index: 2, companyName: "Acme Corp", message: "Please fill in: role" },
    { index: 5, message: "Job must be a JSON object" },
    {
      index: 6,
      role: "Software Engineer",
      companyName: "Acme Corp",
      message:
        "employmentType: must be one of Full-Time, Part-Time, Contract, Internship, Freelance",
    },
  ]);
  assert.equal((await t.services.jobs.statusCounts()).active, 3);

  const notArray = await call(t, admin, "POST", "/api/jobs/bulk", { jobs: {} });
  assert.deepEqual(notArray, {
    status: 400,
    body: { message: 'JSON must contain a "jobs" array' },
  });
});

Deno.test("status changes: dump stamps movedToDumpAt, active renews datePosted, counts follow", async () => {
  await using t = await testApp({ now: new Date("2026-05-01T00:00:00Z") });
  const permissions = { canCreateJobs: true, canDeleteJobs: true };
  let admin = await signIn(t, { permissions });
  const created = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const id = created.body.job._id;
  t.clock.now = new Date("2026-05-03T00:00:00Z");
  // Sessions last 8 hours, so each jump of the clock needs a fresh sign-in.
  admin = await signIn(t, { permissions });
  const dumped = await call(t, admin, "PUT", `/api/jobs/${id}/status`, { status: "dump" });
  assert.equal(dumped.body.message, "Job moved to dump");
  assert.equal(dumped.body.job.movedToDumpAt, "2026-05-03T00:00:00.000Z");
  t.clock.now = new Date("2026-05-04T00:00:00Z");
  admin = await signIn(t, { permissions });
  const revived = await call(t, admin, "PUT", `/api/jobs/${id}/status`, { status: "active" });
  assert.equal(revived.body.job.datePosted, "2026-05-04T00:00:00.000Z");
  const bad = await call(t, admin, "PUT", `/api/jobs/${id}/status`, { status: "archived" });
  assert.equal(bad.status, 400);

  const list = await call(t, admin, "GET", "/api/jobs/admin/all?status=all");
  assert.deepEqual(list.body.statusCounts, {
    all: 1,
    active: 1,
    dump: 0,
    inactive: 0,
    draft: 0,
  });
  const deleted = await call(t, admin, "DELETE", `/api/jobs/${id}`);
  assert.deepEqual(deleted, { status: 200, body: { message: "Job deleted successfully" } });
  assert.equal((await call(t, admin, "DELETE", `/api/jobs/${id}`)).status, 404);
  const after = await call(t, admin, "GET", "/api/jobs/admin/all?status=all");
  assert.deepEqual(after.body.statusCounts, {
    all: 0,
    active: 0,
    dump: 0,
    inactive: 0,
    draft: 0,
  });
  assert.equal((await t.app.request(`/api/jobs/${id}`)).status, 404);
});

Deno.test(`the lifecycle: ${DAYS_ACTIVE_BEFORE_DUMP} days active to dump, ${DAYS_IN_DUMP_BEFORE_INACTIVE} days in dump to inactive, each once`, async () => {
  const active = DAYS_ACTIVE_BEFORE_DUMP * DAY_MS;
  const inDump = DAYS_IN_DUMP_BEFORE_INACTIVE * DAY_MS;
  const start = new Date("2026-01-01T12:00:00Z");
  await using t = await testApp({ now: start });
  // Sessions last 8 hours, so each jump of the clock needs a fresh sign-in.
  const at = async (ms: number) => {
    t.clock.now = new Date(start.getTime() + ms);
    return await signIn(t, { permissions: { canCreateJobs: true } });
  };
  let admin = await at(0);
  const old = await call(t, admin, "POST", "/api/jobs", sampleJob({ role: "Old" }));
  admin = await at(active / 2);
  await call(t, admin, "POST", "/api/jobs", sampleJob({ role: "Young" }));

  admin = await at(active - 1000);
  let run = await call(t, admin, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(run.body.result, { movedToDump: 0, movedToInactive: 0 });

  admin = await at(active);
  run = await call(t, admin, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(run.body, {
    message: "Processed: 1 to dump, 0 to inactive",
    result: { movedToDump: 1, movedToInactive: 0 },
  });
  run = await call(t, admin, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(run.body.result, { movedToDump: 0, movedToInactive: 0 }, "idempotent");

  const dump = await call(t, admin, "GET", "/api/jobs/admin/dump");
  assert.deepEqual(dump.body.jobs.map((job: Job) => job.role), ["Old"]);
  assert.equal(dump.body.jobs[0].movedToDumpAt, t.clock.now.toISOString());
  assert.equal((await t.app.request(`/api/jobs/${old.body.job._id}`)).status, 410);

  admin = await at(active + inDump);
  run = await call(t, admin, "POST", "/api/jobs/admin/process-status-changes");
  assert.deepEqual(run.body.result, { movedToDump: 1, movedToInactive: 1 });
  const counts = (await call(t, admin, "GET", "/api/jobs/admin/all?status=all")).body.statusCounts;
  assert.deepEqual(counts, { all: 2, active: 0, dump: 1, inactive: 1, draft: 0 });
});

Deno.test("admin lists: tabs, server-side search/company/location filters, pages, analytics", async () => {
  await using t = await testApp({ now: new Date("2026-02-01T00:00:00Z") });
  const companies = ["Acme", "Globex", "Initech"];
  for (let i = 0; i < 12; i++) {
    t.clock.now = new Date(Date.UTC(2026, 1, 1, i));
    await t.services.jobs.create(sampleJob({
      role: i % 2 ? "Designer" : "Developer",
      companyName: companies[i % 3],
      location: i < 6 ? "Mumbai" : "Chennai",
    }));
  }
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const first = await call(t, admin, "GET", "/api/jobs/admin/all");
  assert.equal(first.body.jobs.length, 10);
  assert.deepEqual(first.body.pagination, {
    currentPage: 1,
    totalJobs: 12,
    totalPages: 2,
    hasPrev: false,
    hasNext: true,
    limit: 10,
  });
  assert.deepEqual(first.body.jobs[0].analytics, { views: 0, clicks: 0 });
  const second = await call(t, admin, "GET", "/api/jobs/admin/all?page=2");
  assert.equal(second.body.jobs.length, 2);

  const filtered = await call(
    t,
    admin,
    "GET",
    "/api/jobs/admin/all?search=designer&company=glob&location=chen",
  );
  assert.deepEqual(
    filtered.body.jobs.map((job: Job) => [job.role, job.companyName, job.location]),
    [["Designer", "Globex", "Chennai"]],
  );
  assert.equal(filtered.body.pagination.totalJobs, 1);
  assert.equal(filtered.body.statusCounts.active, 12, "tab counts ignore the filters");

  const oldestFirst = await call(t, admin, "GET", "/api/jobs/admin/all?sortOrder=asc&limit=1");
  assert.equal(oldestFirst.body.jobs[0].datePosted, "2026-02-01T00:00:00.000Z");
  const dumpTab = await call(t, admin, "GET", "/api/jobs/admin/all?status=dump");
  assert.deepEqual(dumpTab.body.jobs, []);
});

Deno.test("admin lists show each job's views and clicks as soon as they are counted", async () => {
  await using t = await testApp({ now: new Date("2026-08-01T09:00:00Z") });
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  const first = await t.services.jobs.create(sampleJob({ role: "First" }));
  // A later posting time, so the list's order is fixed.
  t.clock.now = new Date("2026-08-01T09:01:00Z");
  const second = await t.services.jobs.create(sampleJob({ role: "Second" }));
  assert.ok(first.ok && second.ok);
  const totals = async () => {
    const list = await call(t, admin, "GET", "/api/jobs/admin/all?sortOrder=asc");
    return list.body.jobs.map((job: JobWithAnalytics) => [job.role, job.analytics]);
  };
  assert.deepEqual(await totals(), [
    ["First", { views: 0, clicks: 0 }],
    ["Second", { views: 0, clicks: 0 }],
  ]);
  const visitor = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" };
  await t.app.request(`/api/jobs/${second.job._id}`, { headers: visitor });
  await t.app.request(`/api/jobs/${second.job._id}/click`, { method: "POST", headers: visitor });
  await t.services.counter.flush();
  assert.deepEqual(await totals(), [
    ["First", { views: 0, clicks: 0 }],
    ["Second", { views: 1, clicks: 1 }],
  ]);
});

Deno.test("the admin lists show a change made in another process at once", async () => {
  const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    await using reader = await testApp({ kvPath });
    await using writer = await testApp({ kvPath });
    const admin = await signIn(reader, { permissions: { canCreateJobs: true } });
    const roles = async (path: string) =>
      (await call(reader, admin, "GET", path)).body.jobs.map((job: Job) => job.role);
    const created = await writer.services.jobs.create(sampleJob({ role: "Before" }));
    assert.ok(created.ok);
    assert.deepEqual(await roles("/api/jobs/admin/all"), ["Before"]);
    assert.deepEqual(await roles("/api/jobs/admin/dump"), []);
    // The public site may share a revision read for a few milliseconds: the reader's clock stands
    // still, so only a fresh read can show these changes.
    await writer.services.jobs.update(created.job._id, sampleJob({ role: "After" }));
    assert.deepEqual(await roles("/api/jobs/admin/all"), ["After"]);
    await writer.services.jobs.setStatus(created.job._id, "dump");
    assert.deepEqual(await roles("/api/jobs/admin/all"), []);
    assert.deepEqual(await roles("/api/jobs/admin/dump"), ["After"]);
  } finally {
    await Deno.remove(kvPath).catch(() => {});
  }
});

Deno.test("Manage Jobs search reads every job once, then follows changes from any process", async () => {
  const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    await using reader = await testApp({ kvPath, now: new Date("2026-02-01T00:00:00Z") });
    await using writer = await testApp({ kvPath, now: new Date("2026-02-01T01:00:00Z") });
    const admin = await signIn(reader, { permissions: { canCreateJobs: true } });
    const designer = await writer.services.jobs.create(sampleJob({ role: "Designer" }));
    writer.clock.now = new Date("2026-02-01T02:00:00Z");
    const closed = await writer.services.jobs.create(sampleJob({ role: "Closed Designer" }));
    assert.ok(designer.ok && closed.ok);
    await writer.services.jobs.setStatus(closed.job._id, "inactive");
    // Whole lists (by prefix) are counted; catching up reads only a range of the change log.
    let listed = 0;
    const list = reader.kv.list.bind(reader.kv);
    reader.kv.list = ((...args: Parameters<Deno.Kv["list"]>) => {
      if ("prefix" in args[0]) listed++;
      return list(...args);
    }) as Deno.Kv["list"];
    const roles = async (query: string) =>
      (await call(reader, admin, "GET", `/api/jobs/admin/all?${query}`)).body.jobs
        .map((job: Job) => job.role);
    assert.deepEqual(await roles("status=all&search=designer"), ["Closed Designer", "Designer"]);
    assert.deepEqual(await roles("status=inactive&search=desig"), ["Closed Designer"]);
    assert.deepEqual(await roles(`search=${designer.job.jobId}`), ["Designer"]);
    const afterFirst = listed;
    assert.deepEqual(await roles("status=all&search=dezigner"), ["Closed Designer", "Designer"]);
    await writer.services.jobs.update(designer.job._id, sampleJob({ role: "Product Writer" }));
    assert.deepEqual(await roles("status=all&search=writer"), ["Product Writer"]);
    await writer.services.jobs.setStatus(designer.job._id, "dump");
    assert.deepEqual(await roles("status=dump&search=writer&sortBy=movedToDumpAt"), [
      "Product Writer",
    ]);
    assert.deepEqual(await roles("status=active&search=writer"), []);
    assert.equal(listed, afterFirst, "later searches read only the changes, never every job");
  } finally {
    await Deno.remove(kvPath).catch(() => {});
  }
});

Deno.test("Manage Jobs search finds a role by each word as written, phrases the public search binds included", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { permissions: { canCreateJobs: true } });
  for (
    const role of ["Sales Development Representative", "Lead Generation Executive", "Developer"]
  ) {
    assert.ok((await t.services.jobs.create(sampleJob({ role }))).ok);
  }
  const roles = async (search: string) =>
    (await call(t, admin, "GET", `/api/jobs/admin/all?search=${encodeURIComponent(search)}`)).body
      .jobs.map((job: Job) => job.role).sort();
  assert.deepEqual(await roles("sales development"), ["Sales Development Representative"]);
  assert.deepEqual(await roles("development"), ["Developer", "Sales Development Representative"]);
  assert.deepEqual(await roles("lead"), ["Lead Generation Executive"]);
  assert.deepEqual(await roles("lead generation"), ["Lead Generation Executive"]);
});
