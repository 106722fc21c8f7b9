/** POST /api/jobs/bulk with `content-type: text/csv`: a header of field names, a job a row. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import type { TestApp } from "../helpers/server.ts";
import { JOB_CSV_COLUMNS } from "../../kv/jobs/csv.ts";
import { parse } from "csv-parse/sync";

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
  // A row not created is named as the file has it (the admin's page has only the CSV's text).
  assert.equal(body.errors[0].companyName, "Globex");
  assert.equal("role" in body.errors[0], false);
  assert.equal(body.duplicates[0].role, "Designer");
  assert.equal(body.duplicates[0].companyName, "Initech");

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

Deno.test("GET /api/jobs/admin/export: the filter's jobs as formula-safe CSV, in the upload's columns", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const many = Array.from({ length: 205 }, (_, i) => sampleJob({ role: `Bulk ${i}` }));
  const bulk = await t.services.jobs.bulkCreate(many);
  assert.equal(bulk.created.length, 205);
  const risky = await t.services.jobs.create(
    sampleJob({ role: '=HYPERLINK("https://evil.example")', companyName: "Acme, Inc." }),
  );
  assert.ok(risky.ok);
  await t.services.jobs.setStatus(risky.job._id, "inactive");

  const get = async (query: string, token = editor.token) => {
    const response = await t.app.request(`/api/jobs/admin/export?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder().decode(bytes) };
  };
  const all = await get("status=all");
  assert.equal(all.response.status, 200);
  assert.match(all.response.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(
    all.response.headers.get("content-disposition") ?? "",
    /^attachment; filename="careeredge-jobs-all-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  // A byte-order mark first, so that Excel reads the UTF-8 as UTF-8.
  assert.deepEqual([...all.bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
  const rows = parse(all.text, { columns: true, bom: true }) as Record<string, string>[];
  assert.ok(rows[0].jobId, "the first column is read by its name");
  assert.equal(rows.length, 206, "every job, past the first page of the read");
  const row = rows.find((r) => r.companyName === "Acme, Inc.")!;
  assert.equal(row.role, `'=HYPERLINK("https://evil.example")`, "a formula stays text");
  assert.equal(row.status, "inactive");
  assert.equal(row.views, "0");

  const inactive = parse((await get("status=inactive")).text, { columns: true });
  assert.equal(inactive.length, 1);
  const searched = parse((await get("status=active&search=Bulk%2020")).text, { columns: true });
  assert.ok(searched.length >= 1 && searched.length < 205, String(searched.length));

  // After the system columns come the upload's own, so an export is a template of real jobs.
  const [header] = parse(all.text, { to_line: 1 }) as string[][];
  assert.deepEqual(header.slice(5), [...JOB_CSV_COLUMNS]);

  assert.equal((await get("status=nonsense")).response.status, 400);
  const reader = await signIn(t, { permissions: { canViewAnalytics: true } });
  assert.equal((await get("status=all", reader.token)).response.status, 403);
});

Deno.test("a pay in a CSV is written and read as words: the export's pay uploads again as the same pay", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const header = `${HEADER},payOverride`;
  const row = (n: number, pay: string) =>
    `Acme,Engineer ${n},Pune,2-3,Build,B.Tech,https://acme.example/jobs/${n},,,"${pay}"`;
  const csv = [
    header,
    row(1, "10-15 LPA"),
    row(2, "₹25,000 a month"),
    row(3, "from ₹6,00,000 a year"),
    row(4, "up to 400 an hour"),
    row(5, "negotiable"),
    row(6, ""),
  ].join("\n");
  const { status, body } = await upload(t, editor.token, csv);
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.summary, { created: 5, duplicates: 0, errors: 1 });
  assert.equal(
    body.errors[0].message,
    'payOverride: must be a pay such as "8-12 LPA", "from ₹6,00,000 a year" or "₹25,000 a month"',
  );
  const stored = new Map<string, unknown>();
  for (const { _id } of body.created) {
    const job = (await t.services.jobs.get(_id))!;
    stored.set(job.role, job.payOverride ?? null);
  }
  assert.deepEqual(Object.fromEntries(stored), {
    "Engineer 1": { min: 1_000_000, max: 1_500_000, period: "year", currency: "INR" },
    "Engineer 2": { min: 25_000, max: 25_000, period: "month", currency: "INR" },
    "Engineer 3": { min: 600_000, max: null, period: "year", currency: "INR" },
    "Engineer 4": { min: null, max: 400, period: "hour", currency: "INR" },
    "Engineer 6": null,
  });

  // Pays set by hand that no posting's words would say (₹30 an hour, from ₹0) go out and come back.
  for (
    const [role, pay] of [
      ["Engineer 7", { min: 30, max: 40, period: "hour" }],
      ["Engineer 8", { min: 0, max: 500_000, period: "year" }],
    ] as const
  ) {
    const made = await t.services.jobs.create(
      sampleJob({ role, payOverride: { ...pay, currency: "INR" } }),
    );
    assert.ok(made.ok);
    stored.set(role, made.job.payOverride);
  }
  const exported = await t.app.request("/api/jobs/admin/export?status=all", {
    headers: { authorization: `Bearer ${editor.token}` },
  });
  const rows = parse(await exported.text(), { columns: true, bom: true }) as Record<
    string,
    string
  >[];
  const pays = Object.fromEntries(rows.map((r) => [r.role, r.payOverride]));
  assert.equal(pays["Engineer 1"], "₹10,00,000 - ₹15,00,000 a year");
  assert.equal(pays["Engineer 6"], "");
  // Uploaded again under new links, each pay is the pay it was.
  const again = [
    header,
    ...rows.map((r, i) => row(100 + i, r.payOverride).replace(/Engineer \d+/, r.role)),
  ]
    .join("\n");
  const second = await upload(t, editor.token, again);
  assert.equal(second.body.summary.created, 7, JSON.stringify(second.body));
  for (const { _id } of second.body.created) {
    const job = (await t.services.jobs.get(_id))!;
    assert.deepEqual(job.payOverride ?? null, stored.get(job.role), job.role);
  }
});

Deno.test("an exported file uploads again: the site's columns are passed over, a formula's apostrophe taken off", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const posted = await t.services.jobs.create(sampleJob({ role: "Still Open" }));
  const closed = await t.services.jobs.create(
    sampleJob({
      role: "=Closed Role",
      companyName: "@Acme",
      description: "- builds\n- ships",
      hiringLink: "https://acme.example/closed",
    }),
  );
  assert.ok(posted.ok && closed.ok);
  await t.services.jobs.setStatus(closed.job._id, "inactive");
  const exported = await t.app.request("/api/jobs/admin/export?status=all", {
    headers: { authorization: `Bearer ${editor.token}` },
  });
  const csv = await exported.text();
  assert.ok(csv.includes(`'=Closed Role`), csv);

  const { status, body } = await upload(t, editor.token, csv);
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.summary, { created: 1, duplicates: 1, errors: 0 });
  const copy = (await t.services.jobs.get(body.created[0]._id))!;
  assert.deepEqual(
    [copy.role, copy.companyName, copy.description, copy.status],
    ["=Closed Role", "@Acme", "- builds\n- ships", "active"],
  );
  assert.notEqual(copy.jobId, closed.job.jobId);
  // An apostrophe the export did not put there (before no formula's first character) is kept.
  const typed = `${HEADER}\n'Tis Co,'Quoted Role,Pune,2-3,D,E,https://x.example/q,,\n`;
  const kept = await upload(t, editor.token, typed);
  assert.equal(kept.status, 201, JSON.stringify(kept.body));
  const quoted = (await t.services.jobs.get(kept.body.created[0]._id))!;
  assert.deepEqual([quoted.companyName, quoted.role], ["'Tis Co", "'Quoted Role"]);
});

Deno.test("a CSV upload takes UTF-8 and UTF-16 files, and refuses another encoding rather than breaking its letters", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  const csv = `${HEADER}\nCafé München,Barista,Pune,0-1,Coffee,Any,https://cafe.example/jobs/1,,\n`;
  const send = async (body: Uint8Array<ArrayBuffer>) => {
    const response = await t.app.request("/api/jobs/bulk", {
      method: "POST",
      headers: { authorization: `Bearer ${editor.token}`, "content-type": "text/csv" },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  // Windows-1252, as Excel's plain "CSV" writes it: é and ü are single bytes no UTF-8 has alone.
  const latin = Uint8Array.from([...csv].map((char) => char.charCodeAt(0)));
  const refused = await send(latin);
  assert.equal(refused.status, 400);
  assert.match(refused.body.message, /not UTF-8 text.*CSV UTF-8 \(Comma delimited\)/);
  assert.equal((await t.services.jobs.list({ page: 1, limit: 10 })).jobs.length, 0);
  // UTF-16 with its byte-order mark.
  const utf16 = (text: string) => {
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    [...text].forEach((char, i) =>
      bytes.set([char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8], 2 + i * 2)
    );
    return bytes;
  };
  const taken = await send(utf16(csv));
  assert.equal(taken.status, 201, taken.body.message);
  const job = await t.services.jobs.get(taken.body.created[0]._id);
  assert.equal(job?.companyName, "Café München");
  // Excel's "Unicode Text" is UTF-16 with tabs between cells: a comma is then part of a cell.
  const tabbed = [
    HEADER.replaceAll(",", "\t"),
    "Café München, Pune\tBarista\tPune\t0-1\tCoffee\tAny\thttps://cafe.example/jobs/2\tGo; Rust\t",
    "",
  ].join("\r\n");
  const unicodeText = await send(utf16(tabbed));
  assert.equal(unicodeText.status, 201, unicodeText.body.message);
  assert.deepEqual(unicodeText.body.summary, { created: 1, duplicates: 0, errors: 0 });
  const tabbedJob = await t.services.jobs.get(unicodeText.body.created[0]._id);
  assert.equal(tabbedJob?.companyName, "Café München, Pune");
  assert.deepEqual(tabbedJob?.skills.languages, ["Go", "Rust"]);
});

Deno.test("a CSV upload: rows and columns a spreadsheet left blank are neither rows nor columns", async () => {
  await using t = await testApp();
  const editor = await signIn(t, { permissions: { canCreateJobs: true } });
  // Excel writes columns and rows that once held something as empty cells (its "used range").
  const csv = [
    `${HEADER},,`,
    `Acme,Engineer,Pune,2-3,Build,B.Tech,https://acme.example/jobs/1,,,,`,
    ",,,,,,,,,,",
    `Acme,Designer,Pune,2-3,Design,B.Tech,https://acme.example/jobs/2,,," "`,
    " , ,,,,,,,,,",
    "",
  ].join("\r\n");
  const { status, body } = await upload(t, editor.token, csv);
  assert.equal(status, 201, body.message);
  assert.deepEqual(body.summary, { created: 2, duplicates: 0, errors: 0 });
  assert.deepEqual(body.created.map((row: { index: number }) => row.index), [0, 1]);
  // A column without a name that holds something is still refused: its cells would be lost.
  const unnamed = await upload(
    t,
    editor.token,
    `${HEADER},\r\nAcme,Tester,Pune,2-3,Test,B.Tech,https://acme.example/jobs/3,,,notes\r\n`,
  );
  assert.equal(unnamed.status, 400);
  assert.match(unnamed.body.message, /^Unknown column ""/);
  // A file of blank cells only is empty.
  const blank = await upload(t, editor.token, ",,\r\n , ,\r\n");
  assert.equal(blank.status, 400);
  assert.equal(blank.body.message, "The CSV file is empty: it needs a header row of field names");
});
