/**
 * A job's expiry date on its public page: "Apply by <date>" in the site's time zone and the
 * JobPosting's validThrough at the end of that day there. The clock is fixed at 20:00 UTC, already
 * the next day in Asia/Kolkata.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { addDays } from "../../kv/days.ts";
import { get, scriptData } from "./fixtures.ts";

const utcDay = addDays(new Date().toISOString().slice(0, 10), -1);
const NOW = new Date(`${utcDay}T20:00:00Z`);
const today = addDays(utcDay, 1);

const longDay = (day: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" })
    .format(new Date(`${day}T00:00:00Z`));

const textOf = (html: string) =>
  html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

Deno.test("the job page says 'Apply by' its expiry day, and validThrough ends that day in TIMEZONE", async () => {
  await using t = await testApp({ now: NOW, config: { TIMEZONE: "Asia/Kolkata" } });
  const expiring = addDays(today, 2);
  const { pay: _pay, workMode: _mode, category: _category, ...job } = sampleJob();
  const created = await asMain(t, "POST", "/api/jobs", { ...job, expiresAt: expiring });
  assert.equal(created.status, 201);
  const plain = await asMain(t, "POST", "/api/jobs", { ...sampleJob(), pay: undefined });
  assert.equal(plain.status, 201);

  const { html } = await get(t, `/jobs/${created.body.job.jobId}`);
  const [posting] = scriptData(html, "application/ld+json") as [Record<string, unknown>];
  assert.equal(posting.validThrough, `${expiring}T23:59:59.999+05:30`);
  // 18:29:59.999 UTC: the last moment of that day in India.
  assert.equal(
    new Date(posting.validThrough as string).toISOString(),
    `${expiring}T18:29:59.999Z`,
  );
  assert.match(textOf(html), new RegExp(`Apply by ${longDay(expiring)} `));
  assert.match(html, new RegExp(`<time dateTime="${expiring}">`, "i"));

  const other = await get(t, `/jobs/${plain.body.job.jobId}`);
  assert.doesNotMatch(textOf(other.html), /Apply by/);
  const [otherPosting] = scriptData(other.html, "application/ld+json") as [
    Record<string, unknown>,
  ];
  // Without an expiry, the day the job leaves the active list, as before.
  assert.equal(
    otherPosting.validThrough,
    new Date(Date.parse(plain.body.job.datePosted) + 7 * 86_400_000).toISOString(),
  );
});
