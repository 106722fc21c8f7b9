import assert from "node:assert/strict";
import type { DashboardDay } from "../../kv/analytics/types.ts";
import { testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { seedDemo, seedDemoIfEmpty } from "../../kv/seed.ts";
import { demoJobs } from "../../kv/demo/generate.ts";
import { ROLES } from "../../kv/demo/roles.ts";
import { keys } from "../../kv/keys.ts";
import {
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  type Job,
  SKILL_GROUPS,
  validateJobInput,
} from "../../kv/schemas.ts";
import { DAY_MS } from "../../kv/constants.ts";

async function allJobs(kv: Deno.Kv): Promise<Job[]> {
  const jobs: Job[] = [];
  for await (const entry of kv.list<Job>({ prefix: keys.jobs() })) jobs.push(entry.value);
  return jobs;
}

Deno.test("the demo set covers every option the screens filter and show, and every role", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T09:30:00Z") });
  await seedDemo(t.services);
  const jobs = await allJobs(t.kv);
  const active = jobs.filter((job) => job.status === "active");

  assert.ok(jobs.length >= 60, `${jobs.length} jobs`);
  assert.ok(new Set(jobs.map((job) => job.companyName)).size >= 15);
  assert.ok(new Set(jobs.map((job) => job.role)).size >= 12);
  assert.ok(active.some((job) => job.location.startsWith("Remote")));
  assert.deepEqual(
    [...new Set(active.map((job) => job.experience))].sort(),
    [...EXPERIENCE_OPTIONS].sort(),
  );
  assert.deepEqual(
    [...new Set(active.map((job) => job.employmentType))].sort(),
    [...EMPLOYMENT_TYPES].sort(),
  );
  for (const group of SKILL_GROUPS) {
    assert.ok(active.some((job) => job.skills[group].length > 0), `no ${group} skills`);
  }
  assert.ok(jobs.filter((job) => job.estPackage).length > jobs.length / 2);
  assert.ok(jobs.some((job) => job.estPackage === undefined));
  assert.equal(new Set(jobs.map((job) => job.hiringLink)).size, jobs.length);
  assert.equal(new Set(jobs.map((job) => job.jobId)).size, jobs.length);

  // Every demo job is one the API itself would accept.
  for (const job of jobs) {
    const checked = validateJobInput(job);
    assert.ok(checked.ok, `${job.jobId}: ${checked.ok || checked.message}`);
    assert.ok(job.hiringLink.startsWith("https://careers."));
    assert.ok(!job.companyLogo);
  }

  const daysInDump = jobs.filter((job) => job.status === "dump").map((job) =>
    Math.floor((t.clock.now.getTime() - Date.parse(job.movedToDumpAt!)) / DAY_MS)
  );
  for (const days of [3, 16, 27]) {
    assert.ok(daysInDump.includes(days), `no job ${days} days in dump`);
  }
  assert.ok(jobs.some((job) => job.status === "inactive"));

  // A job's perks fit its place: two office days only for a hybrid job, office lunch for none
  // of the remote ones.
  for (const job of jobs) {
    if (job.description.includes("two office days")) assert.match(job.location, /^Hybrid/);
    if (job.description.includes("in the office")) assert.doesNotMatch(job.location, /^Remote/);
  }

  // Every role is open, so each of the home page's chips finds the jobs it names.
  assert.deepEqual(
    [...new Set(active.map((job) => job.role))].sort(),
    ROLES.map((template) => template.role).sort(),
  );
  for (
    const [chip, role] of [["Software Engineer", /^Software Engineer$/], [
      "Data Science",
      /^Data Scientist$/,
    ], ["Marketing", /Marketing/]] as const
  ) {
    const answer = await t.app.request(`/api/jobs?keywords=${encodeURIComponent(chip)}`);
    const { jobs: found } = await answer.json();
    assert.match(found[0]?.role ?? "", role, chip);
  }
});

Deno.test("the demo set's status counts equal a full count and the first lifecycle run moves nothing", async () => {
  await using t = await testApp();
  await seedDemo(t.services);
  const jobs = await allJobs(t.kv);
  const count = (status: string) => jobs.filter((job) => job.status === status).length;
  assert.deepEqual(await t.services.jobs.statusCounts(), {
    all: jobs.length,
    active: count("active"),
    dump: count("dump"),
    inactive: count("inactive"),
    draft: 0,
  });
  assert.deepEqual(await t.services.jobs.processStatusChanges(), {
    movedToDump: 0,
    movedToInactive: 0,
  });
  const listed = await t.services.jobs.search({ page: 1, limit: 100 });
  assert.equal(listed.pagination.totalJobs, count("active"));
  assert.deepEqual(
    listed.jobs.map((job) => job.datePosted),
    listed.jobs.map((job) => job.datePosted).sort().reverse(),
  );
});

Deno.test("seedDemoIfEmpty seeds once, even when two starts race on an empty database", async () => {
  await using t = await testApp();
  const results = await Promise.all([seedDemoIfEmpty(t.services), seedDemoIfEmpty(t.services)]);
  assert.deepEqual(results.sort(), [false, true]);
  const seeded = (await t.services.jobs.statusCounts()).all;
  assert.ok(seeded >= 60);
  assert.equal(await seedDemoIfEmpty(t.services), false);
  assert.equal((await t.services.jobs.statusCounts()).all, seeded);
});

Deno.test("seedDemoIfEmpty leaves a database that already has jobs alone", async () => {
  await using t = await testApp();
  await t.services.jobs.importJobs(
    demoJobs(new Date()).slice(0, 1),
  );
  assert.equal(await seedDemoIfEmpty(t.services), false);
  assert.equal((await t.services.jobs.statusCounts()).all, 1);
});

Deno.test("the demo set carries 90 days of analytics that add up to the jobs' running totals", async () => {
  await using t = await testApp();
  const jobs = await seedDemo(t.services);
  const { headers } = await signIn(t, { main: true });
  const response = await t.app.request("/api/analytics/dashboard?days=90", { headers });
  assert.equal(response.status, 200);
  const dashboard = await response.json();
  assert.equal(dashboard.dailyAnalytics.length, 90);
  assert.ok(
    dashboard.dailyAnalytics.every((day: { websiteVisits: number }) => day.websiteVisits > 0),
  );
  assert.ok(dashboard.totalUniqueVisitors > 0 && dashboard.totalJobClicks > 0);
  // Jobs were open on each of the last 60 days: each has job views (the charts showed none on
  // days with jobs on the board).
  const recent: DashboardDay[] = dashboard.dailyAnalytics.slice(-60);
  assert.deepEqual(recent.filter((day) => day.jobViews.length === 0).map((day) => day.date), []);

  const totals = [...(await t.services.jobs.analyticsOf(jobs.map((job) => job._id))).values()];
  assert.ok(totals.filter((total) => total.views > 0).length > jobs.length / 2);
  assert.equal(dashboard.totalJobViews, totals.reduce((sum, total) => sum + total.views, 0));
  assert.equal(dashboard.totalJobClicks, totals.reduce((sum, total) => sum + total.clicks, 0));
});
