/** Export: a CSV that reads back in a real CSV parser and never hands a spreadsheet a formula. */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { emptyDayCounts, recordDay } from "../../kv/analytics/recording.ts";
import type { AnalyticsExport, JobRef } from "../../kv/analytics/types.ts";

const tricky: JobRef = {
  _id: "j-tricky",
  jobId: "JB-2001",
  role: '-2+3 "Lead", Ops',
  companyName: '=HYPERLINK("http://evil.example","Click"), Inc.\n"Quoted" Line',
};
const plain: JobRef = {
  _id: "j-plain",
  jobId: "JB-2002",
  role: "@mention Manager",
  companyName: "+Plus, Ltd",
};

async function seeded() {
  const t = await testApp({ now: new Date("2026-03-02T12:00:00Z") });
  const counts = { ...emptyDayCounts(), visits: 30, uniques: 20 };
  counts.devices = { desktop: 20, mobile: 8, tablet: 2 };
  counts.browsers = { chrome: 15, firefox: 5, safari: 6, edge: 3, others: 1 };
  counts.jobs.set(tricky._id, tricky).set(plain._id, plain);
  counts.views.set(tricky._id, 9).set(plain._id, 4);
  counts.clicks.set(tricky._id, 3);
  await recordDay(t.kv, "2026-03-01", counts);
  return t;
}

/** The rows under a section title, up to the blank line that ends the section. */
function section(rows: string[][], title: string): string[][] {
  const start = rows.findIndex((row) => row[0] === title);
  assert.ok(start >= 0, `no ${title} section`);
  const end = rows.findIndex((row, i) => i > start && row.length === 1 && row[0] === "");
  return rows.slice(start + 1, end === -1 ? undefined : end);
}

Deno.test("CSV export: quoted per RFC 4180, formulas neutralised, the same figures as JSON", async () => {
  await using t = await seeded();
  const admin = await signIn(t, { permissions: { canViewAnalytics: true } });

  const csvResponse = await t.app.request("/api/analytics/export?days=7&format=csv", {
    headers: admin.headers,
  });
  assert.equal(csvResponse.status, 200);
  assert.match(csvResponse.headers.get("content-type") ?? "", /^text\/csv/);
  assert.equal(
    csvResponse.headers.get("content-disposition"),
    'attachment; filename="analytics-7days.csv"',
  );
  const text = await csvResponse.text();
  // A byte-order mark first, so that Excel reads the UTF-8 as UTF-8.
  assert.equal(text[0], "\uFEFF");
  const rows: string[][] = parse(text, {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
  });

  for (const row of rows) {
    for (const cell of row) {
      assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `cell starts like a formula: ${cell}`);
    }
  }

  const topJobs = section(rows, "Top jobs");
  assert.deepEqual(topJobs[0], [
    "jobId",
    "role",
    "companyName",
    "views",
    "clicks",
    "conversionRate",
  ]);
  assert.deepEqual(topJobs.slice(1), [
    ["JB-2001", `'${tricky.role}`, `'${tricky.companyName}`, "9", "3", "33.33"],
    ["JB-2002", `'${plain.role}`, `'${plain.companyName}`, "4", "0", "0"],
  ]);
  const companies = section(rows, "Top companies");
  assert.deepEqual(companies.slice(1), [
    [`'${tricky.companyName}`, "9", "3", "33.33"],
    [`'${plain.companyName}`, "4", "0", "0"],
  ]);

  const jsonResponse = await t.app.request("/api/analytics/export?days=7&format=json", {
    headers: admin.headers,
  });
  assert.equal(jsonResponse.status, 200);
  assert.equal(
    jsonResponse.headers.get("content-disposition"),
    'attachment; filename="analytics-7days.json"',
  );
  const json: AnalyticsExport = JSON.parse(await jsonResponse.text());
  assert.equal(json.topJobs[0].companyName, tricky.companyName);
  assert.equal(json.topCompanies[1].company, plain.companyName);

  // Every figure of the CSV equals the JSON's.
  const daily = section(rows, "Daily");
  assert.equal(daily.length - 1, 7);
  assert.deepEqual(
    daily.slice(1),
    json.daily.map((day) => [
      day.date,
      ...[
        day.websiteVisits,
        day.uniqueVisitors,
        day.totalJobViews,
        day.totalJobClicks,
        ...Object.values(day.deviceInfo),
        ...Object.values(day.browserInfo),
      ].map(String),
    ]),
  );
  const march1 = json.daily.find((day) => day.date === "2026-03-01");
  assert.deepEqual(march1?.deviceInfo, { desktop: 20, mobile: 8, tablet: 2 });
  const summary = section(rows, "Summary");
  assert.deepEqual(summary[1].map(Number), [
    json.totals.totalVisits,
    json.totals.totalUniqueVisitors,
    json.totals.totalJobViews,
    json.totals.totalJobClicks,
    json.totals.conversionRate,
    json.summary.avgDailyVisits,
    json.summary.avgDailyUniqueVisitors,
    json.summary.avgDailyJobViews,
  ]);
  assert.deepEqual(json.totals, {
    totalVisits: 30,
    totalUniqueVisitors: 20,
    totalJobViews: 13,
    totalJobClicks: 3,
    conversionRate: 23.08,
  });
  assert.deepEqual(
    topJobs.slice(1).map((row) => row.slice(3).map(Number)),
    json.topJobs.map((job) => [job.views, job.clicks, job.conversionRate]),
  );
});

Deno.test("the export name follows the period", async () => {
  await using t = await seeded();
  const admin = await signIn(t, { main: true });
  const response = await t.app.request("/api/analytics/export?days=90", { headers: admin.headers });
  assert.equal(
    response.headers.get("content-disposition"),
    'attachment; filename="analytics-90days.json"',
  );
  const json: AnalyticsExport = await response.json();
  assert.equal(json.daily.length, 90);
  assert.equal(json.to, "2026-03-02");
});
