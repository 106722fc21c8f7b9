/** The real public pages count visits, job views and no-script apply clicks as the issue says. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { CHROME_DESKTOP, from, GOOGLEBOT, report, SAFARI_IPHONE } from "./fixtures.ts";
import type { TopJob, Trends } from "../../kv/analytics/types.ts";

Deno.test("public pages: visits, job views and apply clicks, served fresh or from the page cache", async () => {
  await using t = await testApp({ now: new Date("2026-03-10T10:00:00Z") });
  const created = await t.services.jobs.create(sampleJob({ role: "Platform Engineer" }));
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  const person = { headers: { "user-agent": SAFARI_IPHONE } };
  const visit = async (path: string, init: RequestInit = person, address = "203.0.113.20") => {
    const response = await t.app.request(path, init, from(address));
    await response.body?.cancel();
    return response.status;
  };

  assert.equal(await visit("/"), 200);
  assert.equal(await visit("/jobs"), 200);
  // The second and third reads of the detail page come from the page cache: each is a visit, and
  // the job's view counts once for this visitor; another visitor's read from the cache counts.
  for (const id of [job._id, job._id, job.jobId]) assert.equal(await visit(`/jobs/${id}`), 200);
  assert.equal(
    await visit(
      `/jobs/${job.jobId}`,
      { headers: { "user-agent": CHROME_DESKTOP } },
      "198.51.100.9",
    ),
    200,
  );
  assert.equal(await visit("/jobs/no-such-job"), 404);
  assert.equal(await visit(`/jobs/${job._id}/apply`), 303);
  // None of these count.
  assert.equal(await visit(`/jobs/${job._id}`, { headers: { "user-agent": GOOGLEBOT } }), 200);
  assert.equal(await visit(`/jobs/${job._id}`, { method: "HEAD", ...person }), 200);
  assert.equal(
    await visit(`/jobs/${job._id}`, {
      headers: { "user-agent": SAFARI_IPHONE, "sec-purpose": "prefetch" },
    }),
    200,
  );
  assert.equal(
    await visit(`/jobs/${job._id}/apply`, { headers: { "user-agent": GOOGLEBOT } }),
    303,
  );
  await t.services.counter.flush();

  const admin = await signIn(t, { main: true });
  const { trends } = await report<Trends>(t, admin, "/api/analytics/trends?days=1");
  assert.deepEqual(trends[0], {
    date: "2026-03-10",
    websiteVisits: 7,
    uniqueVisitors: 2,
    totalJobViews: 2,
    totalJobClicks: 1,
    deviceInfo: { desktop: 1, mobile: 6, tablet: 0 },
    browserInfo: { chrome: 1, firefox: 0, safari: 6, edge: 0, others: 0 },
  });
  const { jobs } = await report<{ jobs: TopJob[] }>(t, admin, "/api/analytics/jobs?days=1");
  assert.deepEqual(jobs.map((row) => [row.jobId, row.views, row.clicks]), [[job.jobId, 2, 1]]);
});
