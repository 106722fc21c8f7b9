/** POST /api/jobs/bulk with `content-type: text/csv`: a header of field names, a job a row. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import type { TestApp } from "../helpers/server.ts";
import { JOB_CSV_COLUMNS } from "../../kv/jobs/csv.ts";

async function upload(t: TestApp, token: string, csv: string) {
  const response = await t.app.request("/api/jobs/bulk", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv; charset=utf-8" },
    body: csv,
  });
  return { status: response.status, body: await response.json() };
}

const HEADER =
  "companyName,role,location,experience,description,requiredDegree,hiringLink,languages,keywords";

Deno.test("a CSV upload creates its rows, with quoted cells and ;-separated lists", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const taken = await t.services.jobs.create(sampleJob());
  assert.ok(taken.ok);
  const csv = [
    // A byte-order mark, as spreadsheets write it, is not part of the first column's name.
    `\uFEFF${HEADER}`,
    `"Acme, Inc.",Backend Engineer,Pune,2-3,"Build the API.\nSay ""hi"", then ship.",B.Tech,https://acme.example/jobs/1,TypeScript; Go ;,cloud;api`,
    `Globex,,Chennai,0-1,Something,Any,https://globex.example/jobs/2,,`,
    `Initech,Designer,Remote,3+,Design,Any,${taken.job.hiringLink},,`,
    "",
  ].join("\r\n");
  const { status, body } = await upload(t, editor.token, csv);
  assert.equal(status, 201);
  assert.deepEqual(body.summary, { created: 1, duplicates: 1, errors: 1 });
  assert.equal(body.errors[0].index, 1);
  assert.equal(body.errors[0].message, "Please fill in: role");
  assert.equal(body.duplicates[0].index, 2);

  const created = await t.services.jobs.get(body.created[0]._id);
  assert.ok(created);
  assert.equal(created.companyName, "Acme, Inc.");
  assert.equal(created.description, 'Build the API.\nSay "hi", then ship.');
  assert.deepEqual(created.skills.languages, ["TypeScript", "Go"]);
  assert.deepEqual(created.skills.tools, []);
  assert.deepEqual(created.keywords, ["cloud", "api"]);
  assert.equal(created.employmentType, "Full-Time", "an empty or absent cell takes the default");
});

Deno.test("a CSV upload: every column of the template is read; bad files are a 400 saying why", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const job = sampleJob({ hiringLink: "https://template.example/jobs/1" });
  const row = JOB_CSV_COLUMNS.map((column) => {
    const value = column in job.skills
      ? job.skills[column as keyof typeof job.skills].join(";")
      : (job as unknown as Record<string, unknown>)[column];
    const text = Array.isArray(value) ? value.join(";") : String(value ?? "");
    return `"${text.replaceAll('"', '""')}"`;
  });
  const full = await upload(t, editor.token, `${JOB_CSV_COLUMNS.join(",")}\n${row.join(",")}\n`);
  assert.equal(full.status, 201, full.body.message);
  const stored = await t.services.jobs.get(full.body.created[0]._id);
  assert.deepEqual(stored?.skills, job.skills);

  const bad: [string, RegExp][] = [
    ["", /header row/],
    [`${HEADER},salary\nA,B,C,2-3,D,E,https://x.example/1,,,1`, /Unknown column "salary"/],
    [`role,role\nA,B`, /Column "role" appears twice/],
    [`${HEADER}\n"Acme,Engineer`, /^Invalid CSV format/],
    [HEADER, /at least one job/],
  ];
  for (const [csv, message] of bad) {
    const answer = await upload(t, editor.token, csv);
    assert.equal(answer.status, 400, csv);
    assert.match(answer.body.message, message);
  }

  const reader = await signIn(t, { permissions: { canViewAnalytics: true } });
  const refused = await upload(t, reader.token, `${HEADER}\n`);
  assert.equal(refused.status, 403);
});
