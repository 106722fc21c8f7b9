/**
 * Pay, work mode and role category through the admin API: derived from the job's text when not
 * given, the admin's value when given, validated, in bulk uploads and in the activity log.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";

/** A job body as the admin form sends it: the fields decided by the text are not sent. */
function body(overrides: Record<string, unknown> = {}) {
  const { pay: _pay, workMode: _mode, category: _category, ...job } = sampleJob();
  return { ...job, ...overrides };
}

Deno.test("a new job's pay, work mode and category come from its text unless the admin sets them", async () => {
  await using t = await testApp();
  const derived = await asMain(
    t,
    "POST",
    "/api/jobs",
    body({
      location: "WFH",
      role: "Machine Learning Engineer",
      estPackage: "18-25 LPA",
    }),
  );
  assert.equal(derived.status, 201);
  assert.equal(derived.body.job.workMode, "Remote");
  assert.equal(derived.body.job.category, "Data & AI");
  assert.deepEqual(derived.body.job.pay, {
    min: 1800000,
    max: 2500000,
    period: "year",
    currency: "INR",
  });

  const set = await asMain(
    t,
    "POST",
    "/api/jobs",
    body({
      location: "Remote",
      workMode: "Hybrid",
      category: "Product",
      estPackage: "Best in industry",
      payOverride: { min: 1500000, max: null, period: "year" },
    }),
  );
  assert.equal(set.status, 201);
  assert.equal(set.body.job.workMode, "Hybrid");
  assert.equal(set.body.job.category, "Product");
  assert.deepEqual(set.body.job.pay, { min: 1500000, max: null, period: "year", currency: "INR" });
  assert.equal(set.body.job.estPackage, "Best in industry");

  // A pay sent by the client is not taken: only the package or the admin's own pay decide it.
  const sneaky = await asMain(
    t,
    "POST",
    "/api/jobs",
    body({
      estPackage: "Competitive",
      pay: { min: 1, max: 2, period: "year", currency: "INR" },
    }),
  );
  assert.equal(sneaky.body.job.pay, null);
});

Deno.test("a bad work mode, category or pay is a 400 naming the field", async () => {
  await using t = await testApp();
  for (
    const [overrides, message] of [
      [{ workMode: "Mars" }, /^workMode: must be one of On-site, Hybrid, Remote$/],
      [{ category: "Astronauts" }, /^category: must be one of Engineering, /],
      [{ payOverride: { min: 10, max: 5, period: "year" } }, /^payOverride: the minimum/],
      [{ payOverride: { min: null, max: null, period: "year" } }, /^payOverride: needs a/],
      [{ payOverride: { min: 5, max: 10, period: "week" } }, /^payOverride\.period: /],
      [{ payOverride: { min: 5.5, max: 10, period: "year" } }, /^payOverride\.min: /],
    ] as const
  ) {
    const answer = await asMain(t, "POST", "/api/jobs", body(overrides));
    assert.equal(answer.status, 400, JSON.stringify(overrides));
    assert.match(answer.body.message, message);
  }
});

Deno.test("an edit re-reads the pay and work mode; the activity log records the work mode change", async () => {
  await using t = await testApp();
  const created = await asMain(
    t,
    "POST",
    "/api/jobs",
    body({
      payOverride: {
        min: 100000,
        max: 200000,
        period: "year",
      },
    }),
  );
  const id = created.body.job._id;
  const edited = await asMain(t, "PUT", `/api/jobs/${id}`, {
    ...body({ hiringLink: created.body.job.hiringLink }),
    estPackage: "₹40,000 per month",
    workMode: "Remote",
  });
  assert.equal(edited.status, 200);
  assert.equal(edited.body.job.workMode, "Remote");
  assert.deepEqual(edited.body.job.pay, {
    min: 40000,
    max: 40000,
    period: "month",
    currency: "INR",
  }, "the admin's pay is cleared when the edit leaves it out");
  const { records } = await t.services.activity.list({ page: 1, limit: 5, action: "job.update" });
  const change = records[0].change as {
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  };
  assert.equal(change.before.workMode, "On-site");
  assert.equal(change.after.workMode, "Remote");
});

Deno.test("a bulk upload takes work mode and derives it when left out", async () => {
  await using t = await testApp();
  const answer = await asMain(t, "POST", "/api/jobs/bulk", {
    jobs: [
      body({ workMode: "Hybrid" }),
      body({ location: "Work from home" }),
      body({ workMode: "Mars" }),
    ],
  });
  assert.equal(answer.status, 201);
  assert.deepEqual(answer.body.summary, { created: 2, duplicates: 0, errors: 1 });
  assert.match(JSON.stringify(answer.body.errors), /workMode: must be one of/);
  const listed = await (await t.app.request("/api/jobs?sortBy=datePosted")).json();
  assert.deepEqual(listed.jobs.map((job: { workMode: string }) => job.workMode).sort(), [
    "Hybrid",
    "Remote",
  ]);
});
