/** The public search through the API: relevance by default, `sortBy=datePosted`, bounded options. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import type { Job } from "../../kv/schemas.ts";
import { MAX_ROLE_OPTIONS } from "../../kv/search/search.ts";

async function roles(t: Awaited<ReturnType<typeof testApp>>, query: string): Promise<string[]> {
  const response = await t.app.request(`/api/jobs${query}`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body), ["jobs", "pagination"]);
  return body.jobs.map((job: Job) => job.role);
}

Deno.test("GET /api/jobs ranks a keyword search by relevance; sortBy=datePosted is newest first", async () => {
  await using t = await testApp({ now: new Date("2026-03-01T10:00:00Z") });
  await t.services.jobs.create(sampleJob({ role: "Data Analyst" }));
  t.clock.now = new Date("2026-03-01T11:00:00Z");
  await t.services.jobs.create(
    sampleJob({ role: "Office Manager", description: "Report to our data analyst." }),
  );
  assert.deepEqual(await roles(t, "?keywords=analyst"), ["Data Analyst", "Office Manager"]);
  assert.deepEqual(await roles(t, "?keywords=analyst&sortBy=relevance"), [
    "Data Analyst",
    "Office Manager",
  ]);
  assert.deepEqual(await roles(t, "?keywords=analyst&sortBy=datePosted"), [
    "Office Manager",
    "Data Analyst",
  ]);
  const bad = await t.app.request("/api/jobs?sortBy=salary");
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).message, /sortBy must be relevance, datePosted/);
});

Deno.test("GET /api/jobs says partial when no job has every word and it gives those with most", async () => {
  await using t = await testApp();
  await t.services.jobs.create(sampleJob({ role: "Python Developer", description: "Django." }));
  await t.services.jobs.create(sampleJob({ role: "Chef", description: "A busy kitchen." }));
  const answer = async (query: string) => (await t.app.request(`/api/jobs${query}`)).json();
  const partial = await answer("?keywords=python+astronaut");
  assert.equal(partial.partial, true);
  assert.deepEqual(partial.jobs.map((job: Job) => job.role), ["Python Developer"]);
  assert.equal(partial.pagination.totalJobs, 1);
  assert.deepEqual(await roles(t, "?keywords=python+django"), ["Python Developer"]);
  assert.deepEqual(await roles(t, "?keywords=astronaut"), []);
});

Deno.test("a role word alone that no job holds finds the roles that mean the same, as a partial match", async () => {
  await using t = await testApp();
  await t.services.jobs.create(sampleJob({ role: "Golang Developer", description: "Services." }));
  await t.services.jobs.create(
    sampleJob({ role: "Site Reliability Engineer", description: "On call." }),
  );
  await t.services.jobs.create(sampleJob({ role: "Chef", description: "A busy kitchen." }));
  const answer = async (keywords: string) =>
    (await t.app.request(`/api/jobs?${new URLSearchParams({ keywords })}`)).json();
  for (const keywords of ["programmer", "coders"]) {
    const found = await answer(keywords);
    assert.equal(found.partial, true, keywords);
    assert.deepEqual(found.jobs.map((job: Job) => job.role).sort(), [
      "Golang Developer",
      "Site Reliability Engineer",
    ]);
  }
  assert.deepEqual(await roles(t, "?keywords=astronaut"), []);
});

Deno.test("GET /api/jobs/filters/options lists at most the most common roles, whatever their number", async () => {
  await using t = await testApp();
  const created = await t.services.jobs.importJobs(
    Array.from({ length: MAX_ROLE_OPTIONS + 10 }, (_, i) => {
      const now = new Date().toISOString();
      return {
        ...sampleJob({ role: `Role ${String(i).padStart(2, "0")}` }),
        _id: `job-${i}`,
        status: "active" as const,
        datePosted: now,
        movedToDumpAt: null,
        createdAt: now,
        updatedAt: now,
      };
    }),
  );
  await t.services.jobs.create(sampleJob({ role: "Role 59" }));
  assert.equal(created.length, MAX_ROLE_OPTIONS + 10);
  const response = await t.app.request("/api/jobs/filters/options");
  const options = await response.json();
  assert.equal(options.roles.length, MAX_ROLE_OPTIONS);
  assert.ok(options.roles.includes("Role 59"), "the most common role is offered");
  assert.deepEqual(Object.keys(options), [
    "roles",
    "locations",
    "companies",
    "experienceOptions",
    "employmentTypes",
    "categories",
  ]);
});
