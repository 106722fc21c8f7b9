/** Drafts and duplicates: never public, no link claim until published, copies of any job. */
import assert from "node:assert/strict";
import { sampleJob, type TestApp, testApp } from "../helpers/server.ts";
import { type SignedInAdmin, signIn } from "../helpers/admins.ts";
import type { Job } from "../../kv/schemas.ts";
import { TEXT_LIMITS } from "../../kv/job-fields.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { dumpDatabase, restoreDatabase } from "../../kv/backup.ts";

async function call(t: TestApp, who: SignedInAdmin, method: string, path: string, body?: unknown) {
  const response = await t.app.request(path, {
    method,
    headers: who.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const recruiter = (t: TestApp) => signIn(t, { permissions: { canCreateJobs: true } });

async function saveDraft(t: TestApp, who: SignedInAdmin, fields: Record<string, unknown>) {
  const saved = await call(t, who, "POST", "/api/jobs", { ...fields, status: "draft" });
  assert.equal(saved.status, 201, saved.body.message);
  assert.equal(saved.body.job.status, "draft");
  return saved.body.job as Job;
}

Deno.test("a draft may be incomplete: only its role is needed, and what is given must be valid", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const draft = await saveDraft(t, admin, { role: "Platform Engineer" });
  assert.equal(draft.companyName, "");
  assert.equal(draft.hiringLink, "");
  assert.match(draft.jobId, /^JB-\d+$/);

  const noRole = await call(t, admin, "POST", "/api/jobs", { status: "draft", companyName: "X" });
  assert.equal(noRole.status, 400);
  assert.equal(noRole.body.message, "Please fill in: role");
  const badLink = await call(t, admin, "POST", "/api/jobs", {
    status: "draft",
    role: "Engineer",
    hiringLink: "javascript:alert(1)",
  });
  assert.equal(badLink.status, 400);
  assert.match(badLink.body.message, /^hiringLink:/);
  const badStatus = await call(t, admin, "POST", "/api/jobs", { ...sampleJob(), status: "dump" });
  assert.equal(badStatus.status, 400);
  assert.equal(badStatus.body.message, "status: must be active or draft");
  // Without a status, or with active, the job is checked fully and posted.
  const incomplete = await call(t, admin, "POST", "/api/jobs", { role: "Engineer" });
  assert.equal(incomplete.status, 400);
  assert.match(incomplete.body.message, /^Please fill in: companyName/);

  // Editing a draft keeps it a draft and may still leave fields blank; an active job's may not.
  const edited = await call(t, admin, "PUT", `/api/jobs/${draft._id}`, {
    role: "Platform Engineer",
    companyName: "Globex",
  });
  assert.equal(edited.status, 200, edited.body.message);
  assert.equal(edited.body.job.status, "draft");
  assert.equal(edited.body.job.companyName, "Globex");
  const active = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const blanked = await call(t, admin, "PUT", `/api/jobs/${active.body.job._id}`, {
    role: "Engineer",
  });
  assert.equal(blanked.status, 400);
  assert.match(blanked.body.message, /^Please fill in: companyName/);
  assert.equal((await t.services.jobs.get(active.body.job._id))?.role, "Software Engineer");
});

Deno.test("a draft is not public anywhere: page, API, lists, search, sitemap, feed, similar jobs", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const published = await call(t, admin, "POST", "/api/jobs", sampleJob({ role: "Zebra Keeper" }));
  assert.equal(published.status, 201);
  const draft = await saveDraft(t, admin, sampleJob({ role: "Zebra Keeper Draft" }));
  const visitor = (path: string) => t.app.request(path);

  for (const id of [draft._id, draft.jobId]) {
    assert.equal((await visitor(`/api/jobs/${id}`)).status, 404, `/api/jobs/${id}`);
    assert.equal((await visitor(`/jobs/${id}`)).status, 404, `/jobs/${id}`);
  }
  assert.equal((await visitor(`/jobs/${draft.jobId}/apply`)).status, 404);
  assert.equal((await visitor(`/jobs/${draft.jobId}/share.png`)).status, 404);
  const click = await t.app.request(`/api/jobs/${draft._id}/click`, { method: "POST" });
  assert.equal(click.status, 404);
  const saved = await (await visitor(`/api/saved-jobs?ids=${draft._id}`)).json();
  assert.deepEqual(saved.jobs, []);

  const texts = await Promise.all(
    [
      "/api/jobs",
      "/api/jobs?keywords=zebra",
      "/jobs",
      "/jobs?keywords=zebra",
      "/",
      "/sitemaps/1.xml",
      "/jobs/feed.xml",
      `/jobs/${published.body.job.jobId}`,
    ].map(async (path) => {
      const response = await visitor(path);
      assert.equal(response.status, 200, path);
      return [path, await response.text()] as const;
    }),
  );
  for (const [path, text] of texts) {
    assert.ok(!text.includes("Zebra Keeper Draft"), `${path} shows the draft`);
    assert.ok(!text.includes(draft.jobId), `${path} names the draft`);
  }
  // The published job is there, so the lists above were real.
  assert.ok(texts[1][1].includes("Zebra Keeper"));
  // The catalogue, which the snapshot for cold starts is made of, holds only the published job.
  const catalog = await t.services.jobs.active();
  assert.ok(catalog.byId.has(published.body.job._id));
  assert.ok(!catalog.byId.has(draft._id));
  const options = await (await visitor("/api/jobs/filters/options")).json();
  assert.ok(!JSON.stringify(options).includes("Draft"));

  // The admin reads it, and finds it under its own tab, counted.
  const read = await call(t, admin, "GET", `/api/jobs/${draft._id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.status, "draft");
  const list = await call(t, admin, "GET", "/api/jobs/admin/all?status=draft");
  assert.deepEqual(list.body.jobs.map((job: Job) => job._id), [draft._id]);
  assert.equal(list.body.statusCounts.draft, 1);
  assert.equal(list.body.statusCounts.active, 1);
  assert.equal(list.body.statusCounts.all, 2);
  const searched = await call(t, admin, "GET", "/api/jobs/admin/all?status=draft&search=zebra");
  assert.deepEqual(searched.body.jobs.map((job: Job) => job._id), [draft._id]);
  const active = await call(t, admin, "GET", "/api/jobs/admin/all?status=active&search=zebra");
  assert.deepEqual(active.body.jobs.map((job: Job) => job._id), [published.body.job._id]);
});

Deno.test("drafts claim no link: two drafts and an active job may share one", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const job = sampleJob();
  assert.equal((await call(t, admin, "POST", "/api/jobs", job)).status, 201);
  await saveDraft(t, admin, job);
  await saveDraft(t, admin, job);
  const counts = (await call(t, admin, "GET", "/api/jobs/admin/all")).body.statusCounts;
  assert.deepEqual(counts, { all: 3, active: 1, dump: 0, inactive: 0, draft: 2 });
});

Deno.test("publishing checks the draft fully and claims its link as a create does", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const draft = await saveDraft(t, admin, { role: "Data Engineer", companyName: "Initech" });
  const publish = (id: string) =>
    call(t, admin, "PUT", `/api/jobs/${id}/status`, { status: "active" });

  const incomplete = await publish(draft._id);
  assert.equal(incomplete.status, 400);
  assert.equal(
    incomplete.body.message,
    "Please fill in: Location, Experience, Job Description, Required Degree, Hiring Link",
  );
  const toDump = await call(t, admin, "PUT", `/api/jobs/${draft._id}/status`, { status: "dump" });
  assert.equal(toDump.status, 400);
  assert.match(toDump.body.message, /A draft can only be published/);
  const toDraft = await call(t, admin, "PUT", `/api/jobs/${draft._id}/status`, { status: "draft" });
  assert.equal(toDraft.status, 400);

  const body = sampleJob({ role: "Data Engineer" });
  const holder = await call(t, admin, "POST", "/api/jobs", body);
  assert.equal(holder.status, 201);
  const completed = await call(t, admin, "PUT", `/api/jobs/${draft._id}`, body);
  assert.equal(completed.status, 200, completed.body.message);
  const taken = await publish(draft._id);
  assert.equal(taken.status, 409);
  assert.equal(taken.body.existingJob._id, holder.body.job._id);
  assert.match(taken.body.message, /^Duplicate hiring link!/);
  assert.equal((await t.services.jobs.get(draft._id))?.status, "draft");

  await call(t, admin, "PUT", `/api/jobs/${holder.body.job._id}/status`, { status: "inactive" });
  const done = await publish(draft._id);
  assert.equal(done.status, 200, done.body.message);
  assert.equal(done.body.job.status, "active");
  // Now it holds the link: neither a create nor a reopen of the closed job may take it.
  const again = await call(t, admin, "POST", "/api/jobs", { ...body });
  assert.equal(again.status, 409);
  assert.equal(again.body.existingJob._id, draft._id);
  assert.equal((await publish(holder.body.job._id)).status, 409);
  // And it is public now.
  assert.equal((await t.app.request(`/jobs/${draft.jobId}`)).status, 200);
  const main = await signIn(t, { main: true });
  const history = await call(t, main, "GET", `/api/admin/activity?jobId=${draft.jobId}`);
  assert.deepEqual(
    history.body.records.map((record: { action: string }) => record.action),
    ["job.status", "job.update", "job.create"],
  );
});

Deno.test("a draft's expiry date is checked when it is published, and the lifecycle leaves drafts alone", async () => {
  const start = new Date("2026-06-01T06:00:00Z");
  await using t = await testApp({ now: start });
  const admin = await recruiter(t);
  const draft = await saveDraft(t, admin, sampleJob({ expiresAt: "2026-06-03" }));
  t.clock.now = new Date(start.getTime() + 40 * DAY_MS);
  const result = await t.services.jobs.processStatusChanges();
  assert.deepEqual(result, { movedToDump: 0, movedToInactive: 0 });
  assert.equal((await t.services.jobs.get(draft._id))?.status, "draft");
  const later = await recruiter(t);
  const late = await call(t, later, "PUT", `/api/jobs/${draft._id}/status`, { status: "active" });
  assert.equal(late.status, 400);
  assert.match(late.body.message, /expiry date has passed/);
});

Deno.test("POST /api/jobs/{id}/duplicate makes a draft copy of a job in any status", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const jobOf = async (status: "active" | "dump" | "inactive" | "draft") => {
    const body = sampleJob({ role: `${status} role`, expiresAt: undefined });
    if (status === "draft") return await saveDraft(t, admin, body);
    const created = await call(t, admin, "POST", "/api/jobs", body);
    if (status !== "active") {
      await call(t, admin, "PUT", `/api/jobs/${created.body.job._id}/status`, { status });
    }
    return created.body.job as Job;
  };
  const main = await signIn(t, { main: true });
  for (const status of ["active", "dump", "inactive", "draft"] as const) {
    const original = await jobOf(status);
    const copied = await call(t, admin, "POST", `/api/jobs/${original.jobId}/duplicate`);
    assert.equal(copied.status, 201, `${status}: ${copied.body.message}`);
    const copy: Job = copied.body.job;
    assert.equal(copy.status, "draft");
    assert.equal(copy.role, `${status} role (copy)`);
    assert.notEqual(copy._id, original._id);
    assert.notEqual(copy.jobId, original.jobId);
    assert.equal(copy.hiringLink, original.hiringLink);
    assert.deepEqual(copy.skills, original.skills);
    assert.equal(copy.description, original.description);
    assert.equal((await t.services.jobs.get(original._id))?.status, status, "original untouched");
    const history = await call(t, main, "GET", `/api/admin/activity?jobId=${copy.jobId}`);
    assert.equal(history.body.records[0].action, "job.duplicate");
    assert.equal(history.body.records[0].change.from, original.jobId);
  }
  // The active original keeps its claim; the copy took none (publishing it meets the original).
  const active = (await call(t, admin, "GET", "/api/jobs/admin/all?status=active")).body.jobs[0];
  const copy = (await call(t, admin, "POST", `/api/jobs/${active._id}/duplicate`)).body.job;
  const publish = await call(t, admin, "PUT", `/api/jobs/${copy._id}/status`, { status: "active" });
  assert.equal(publish.status, 409);
  assert.equal(publish.body.existingJob._id, active._id);

  const missing = await call(t, admin, "POST", "/api/jobs/JB-999999/duplicate");
  assert.equal(missing.status, 404);
});

Deno.test("a copy's role stays within the role's limit, and a copy of a copy is not marked twice", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const long = "R".repeat(TEXT_LIMITS.role);
  const created = await call(t, admin, "POST", "/api/jobs", sampleJob({ role: long }));
  const copy = (await call(t, admin, "POST", `/api/jobs/${created.body.job._id}/duplicate`)).body
    .job as Job;
  assert.equal(copy.role.length, TEXT_LIMITS.role);
  assert.ok(copy.role.endsWith("R (copy)"));
  const second = await call(t, admin, "POST", `/api/jobs/${copy._id}/duplicate`);
  assert.equal(second.body.job.role, copy.role);
  // The copy is a draft that can be saved again as it is.
  const saved = await call(t, admin, "PUT", `/api/jobs/${copy._id}`, copy);
  assert.equal(saved.status, 200, saved.body.message);
});

Deno.test("saving a draft, duplicating and publishing need canCreateJobs", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const active = await call(t, admin, "POST", "/api/jobs", sampleJob());
  const draft = await saveDraft(t, admin, { role: "Analyst" });
  const viewer = await signIn(t, { permissions: { canViewAnalytics: true, canDeleteJobs: true } });
  const tries = [
    await call(t, viewer, "POST", "/api/jobs", { role: "Analyst", status: "draft" }),
    await call(t, viewer, "POST", `/api/jobs/${active.body.job._id}/duplicate`),
    await call(t, viewer, "PUT", `/api/jobs/${draft._id}/status`, { status: "active" }),
    await call(t, viewer, "PUT", `/api/jobs/${draft._id}`, { role: "Analyst II" }),
    await call(t, viewer, "GET", "/api/jobs/admin/all?status=draft"),
  ];
  assert.deepEqual(tries.map((answer) => answer.status), [403, 403, 403, 403, 403]);
  const noToken = await t.app.request(`/api/jobs/${active.body.job._id}/duplicate`, {
    method: "POST",
  });
  assert.equal(noToken.status, 401);
  // Deleting a draft needs canDeleteJobs, as any job.
  assert.equal((await call(t, admin, "DELETE", `/api/jobs/${draft._id}`)).status, 403);
  assert.equal((await call(t, viewer, "DELETE", `/api/jobs/${draft._id}`)).status, 200);
  const counts = (await call(t, admin, "GET", "/api/jobs/admin/all")).body.statusCounts;
  assert.equal(counts.draft, 0);
});

Deno.test("db:dump then db:restore gives drafts back as drafts, still unclaimed and counted", async () => {
  await using source = await testApp();
  const admin = await recruiter(source);
  const body = sampleJob();
  const draft = await saveDraft(source, admin, { ...body, role: "Restored Draft" });
  assert.equal((await call(source, admin, "POST", "/api/jobs", body)).status, 201);
  let text = "";
  await dumpDatabase(
    source.kv,
    new WritableStream({ write: (part) => void (text += new TextDecoder().decode(part)) }),
  );

  await using target = await testApp();
  await restoreDatabase(target.kv, ReadableStream.from([new TextEncoder().encode(text)]), {
    activityRetentionDays: 365,
  });
  const restored = await target.services.jobs.get(draft._id);
  assert.deepEqual(restored, draft);
  const main = await signIn(target, { main: true });
  const list = await call(target, main, "GET", "/api/jobs/admin/all?status=draft");
  assert.deepEqual(list.body.jobs.map((job: Job) => job.role), ["Restored Draft"]);
  assert.equal(list.body.statusCounts.draft, 1);
  assert.equal((await target.app.request(`/jobs/${draft.jobId}`)).status, 404);
  // Its link is still the active job's: publishing the restored draft meets it.
  const publish = await call(target, main, "PUT", `/api/jobs/${draft._id}/status`, {
    status: "active",
  });
  assert.equal(publish.status, 409);
});

Deno.test("only an admin who manages jobs reads a draft or a closed job; the others read as visitors", async () => {
  await using t = await testApp();
  const admin = await recruiter(t);
  const draft = await saveDraft(t, admin, { role: "Unannounced Role" });
  const closed = (await call(t, admin, "POST", "/api/jobs", sampleJob())).body.job as Job;
  await call(t, admin, "PUT", `/api/jobs/${closed._id}/status`, { status: "inactive" });
  const open = (await call(
    t,
    admin,
    "POST",
    "/api/jobs",
    sampleJob({
      hiringLink: "https://example.com/careers/open",
    }),
  )).body.job as Job;

  for (const permissions of [{}, { canViewAnalytics: true, canDeleteJobs: true }]) {
    const other = await signIn(t, { permissions });
    assert.equal((await call(t, other, "GET", `/api/jobs/${draft._id}`)).status, 404);
    assert.equal((await call(t, other, "GET", `/api/jobs/${closed._id}`)).status, 410);
    assert.equal((await call(t, other, "GET", `/api/jobs/${open._id}`)).status, 200);
  }
  assert.equal((await call(t, admin, "GET", `/api/jobs/${draft._id}`)).status, 200);
  assert.equal((await call(t, admin, "GET", `/api/jobs/${closed._id}`)).status, 200);
});
