/**
 * Hiring links: one canonical spelling, stored and compared; bad or oversized links are a 400 on
 * every call that takes one, never a 500; a stored link that is not usable never breaks a page.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import type { Job, JobInput } from "../../kv/schemas.ts";

function legacy(input: JobInput, id: string, status: Job["status"]): Omit<Job, "jobId"> {
  const now = new Date().toISOString();
  return {
    ...input,
    _id: id,
    status,
    datePosted: now,
    movedToDumpAt: status === "dump" ? now : null,
    createdAt: now,
    updatedAt: now,
  };
}

Deno.test("trivially different spellings of one link are one link; the canonical one is stored", async () => {
  await using t = await testApp();
  const created = await asMain(t, "POST", "/api/jobs", {
    ...sampleJob(),
    hiringLink: "HTTPS://Careers.Acme.Example.:443/%6Aobs/42/?utm_source=feed&id=7#apply",
  });
  assert.equal(created.status, 201, created.body.message);
  const canonical = "https://careers.acme.example/jobs/42?id=7";
  assert.equal(created.body.job.hiringLink, canonical);
  const spellings = [
    canonical,
    "https://careers.acme.example/jobs/42/?id=7",
    "https://CAREERS.acme.example/jobs/42?id=7&utm_campaign=x&UTM_medium=y",
    "https://careers.acme.example./jobs/42?id=7#top",
    "https://careers.acme.example/jobs/%34%32?id=%37",
  ];
  for (const hiringLink of spellings) {
    const again = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink });
    assert.equal(again.status, 409, hiringLink);
    const check = await asMain(t, "POST", "/api/jobs/check-duplicate", { hiringLink });
    assert.equal(check.body.isDuplicate, true, hiringLink);
  }
  const plain = await asMain(t, "POST", "/api/jobs", {
    ...sampleJob(),
    hiringLink: "http://jobs.example:80/open?",
  });
  assert.equal(plain.body.job.hiringLink, "http://jobs.example/open");
  for (
    const hiringLink of [
      "https://careers.acme.example/jobs/43?id=7",
      "https://careers.acme.example/Jobs/42?id=7",
      "https://careers.acme.example/jobs/42?id=8",
      "https://careers.acme.example/jobs/42",
      "https://careers.acme.example:8443/jobs/42?id=7",
      "https://careers.acme.example/jobs/42?id=7&ref=x",
    ]
  ) {
    const other = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink });
    assert.equal(other.status, 201, hiringLink);
  }
});

Deno.test("bad and oversized links are a 400 on create, edit, bulk and duplicate check", async () => {
  await using t = await testApp();
  const existing = await asMain(t, "POST", "/api/jobs", sampleJob());
  const id = existing.body.job._id;
  const base = "https://careers.acme.example/";
  const bad = [
    "https:evil.example.com",
    "https:/evil.example.com",
    `${base}a\u0000b`,
    `${base}a\nb`,
    `${base}${" ".repeat(700)}x`,
    `${base}${"a".repeat(2_035)}`,
    `${base}${"é".repeat(400)}`,
    `${base}${'"'.repeat(1_000)}`,
    "javascript:alert(1)",
    "ftp://careers.acme.example/x",
    "https://",
  ];
  for (const hiringLink of bad) {
    const label = JSON.stringify(hiringLink.slice(0, 40));
    for (
      const [method, path] of [["POST", "/api/jobs"], ["PUT", `/api/jobs/${id}`]] as const
    ) {
      const answer = await asMain(t, method, path, { ...sampleJob(), hiringLink });
      assert.equal(answer.status, 400, `${method} ${label}: ${answer.body.message}`);
      assert.match(answer.body.message, /^hiringLink: /, label);
    }
    const bulk = await asMain(t, "POST", "/api/jobs/bulk", {
      jobs: [{ ...sampleJob(), hiringLink }],
    });
    assert.equal(bulk.body.summary.errors, 1, label);
    const check = await asMain(t, "POST", "/api/jobs/check-duplicate", { hiringLink });
    assert.equal(check.status, 400, label);
  }
  // The longest link whose key (without its 8-character scheme) fits is accepted.
  const longest = `${base}${"a".repeat(2_032 + "https://".length - base.length)}`;
  const fits = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink: longest });
  assert.equal(fits.status, 201, fits.body.message);
  const over = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), hiringLink: `${longest}b` });
  assert.equal(over.status, 400);
  assert.equal((await t.services.jobs.statusCounts()).all, 2);
});

Deno.test("links stored before the check never give a 500: apply, click and status change", async () => {
  await using t = await testApp();
  await t.services.jobs.importJobs([
    legacy(
      sampleJob({ hiringLink: "https://careers.acme.example/a\nb" }),
      "legacybroken000000000000",
      "active",
    ),
    legacy(
      sampleJob({ hiringLink: `https://careers.acme.example/${"é".repeat(400)}` }),
      "legacylong00000000000000",
      "dump",
    ),
  ]);
  const apply = await t.app.request("/jobs/legacybroken000000000000/apply");
  assert.ok(apply.status < 500, `apply answered ${apply.status}`);
  assert.equal(apply.headers.get("location"), null);
  const click = await t.app.request("/api/jobs/legacybroken000000000000/click", { method: "POST" });
  assert.ok(click.status < 500, `click answered ${click.status}`);
  const status = await asMain(t, "PUT", "/api/jobs/legacylong00000000000000/status", {
    status: "active",
  });
  assert.equal(status.status, 400);
  assert.match(status.body.message, /^hiringLink: is too long/);
});
