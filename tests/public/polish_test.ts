/**
 * What search engines and share previews read from the public pages, and the edges a visitor meets:
 * JobPosting places, icons, pages past the end, robots rules for searches, dates in the site's zone.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { get, scriptData, seedJobs } from "./fixtures.ts";
import { placesOf } from "../../kv/place.ts";
import { cutText, formatCount } from "../../client/components/format.ts";

type Posting = Record<string, unknown>;

async function postingOf(t: Awaited<ReturnType<typeof testApp>>, jobId: string) {
  const [posting] = scriptData((await get(t, `/jobs/${jobId}`)).html, "application/ld+json");
  return posting as Posting;
}

/**
 * Google's JobPosting properties (developers.google.com/search/docs/appearance/structured-data/
 * job-posting): the required ones, and the recommended ones this site has data for.
 */
const GOOGLE_REQUIRED = ["datePosted", "description", "hiringOrganization", "title"];
const GOOGLE_RECOMMENDED = [
  "applicantLocationRequirements",
  "baseSalary",
  "directApply",
  "employmentType",
  "identifier",
  "jobLocationType",
  "validThrough",
];

function checkGoogleProperties(posting: Posting, remote: boolean) {
  for (const name of GOOGLE_REQUIRED) assert.ok(posting[name], `required ${name}`);
  if (remote) {
    assert.equal(posting.jobLocationType, "TELECOMMUTE");
    const requirement = posting.applicantLocationRequirements as Posting;
    assert.equal(requirement["@type"], "Country");
    assert.ok(requirement.name);
  } else {
    // jobLocation is required unless the job is remote; its address needs a country code.
    const address = (posting.jobLocation as { address: Posting }).address;
    assert.equal(address["@type"], "PostalAddress");
    assert.match(address.addressCountry as string, /^[A-Z]{2}$/);
    assert.ok(address.addressLocality);
    assert.ok(address.addressRegion);
  }
  for (const name of GOOGLE_RECOMMENDED) {
    if (!remote && ["applicantLocationRequirements", "jobLocationType"].includes(name)) continue;
    assert.notEqual(posting[name], undefined, `recommended ${name}`);
  }
  const organization = posting.hiringOrganization as Posting;
  assert.equal(organization["@type"], "Organization");
  assert.ok(organization.name);
  assert.ok(!Number.isNaN(Date.parse(posting.datePosted as string)));
  assert.ok(!Number.isNaN(Date.parse(posting.validThrough as string)));
}

Deno.test("JobPosting places: locality, region and ISO country; remote jobs as TELECOMMUTE", async () => {
  await using t = await testApp();
  const locations = [
    "Pune, Maharashtra",
    "Bengaluru, Karnataka, India",
    "Hybrid - Bengaluru, Karnataka",
    "Hyderabad",
    "New Delhi, Delhi",
    "London, England, United Kingdom",
    "Austin, TX, USA",
    "Berlin, Germany",
    "Remote",
    "Remote (India)",
    "Remote - United States",
  ];
  const jobs = await seedJobs(t, locations.map((location) => ({ location })));
  const found: unknown[] = [];
  for (const [i, job] of jobs.entries()) {
    const posting = await postingOf(t, job.jobId);
    const remote = locations[i].startsWith("Remote");
    if (remote) {
      checkGoogleProperties(posting, true);
      found.push((posting.applicantLocationRequirements as Posting).name);
      assert.equal(posting.jobLocation, undefined);
    } else {
      const { "@type": _, ...address } = (posting.jobLocation as { address: Posting }).address;
      if (address.addressRegion) checkGoogleProperties(posting, false);
      found.push(address);
    }
  }
  assert.deepEqual(found, [
    { addressLocality: "Pune", addressRegion: "Maharashtra", addressCountry: "IN" },
    { addressLocality: "Bengaluru", addressRegion: "Karnataka", addressCountry: "IN" },
    { addressLocality: "Bengaluru", addressRegion: "Karnataka", addressCountry: "IN" },
    { addressLocality: "Hyderabad", addressRegion: "Telangana", addressCountry: "IN" },
    { addressLocality: "New Delhi", addressRegion: "Delhi", addressCountry: "IN" },
    { addressLocality: "London", addressRegion: "England", addressCountry: "GB" },
    { addressLocality: "Austin", addressRegion: "TX", addressCountry: "US" },
    { addressLocality: "Berlin", addressCountry: "DE" },
    "India",
    "India",
    "United States",
  ]);
  assert.deepEqual(placesOf("Work from home"), [{ remote: true, country: "IN" }]);
  // A state's short form or old name after a city the table does not know: the state's name.
  for (const [location, region] of [["Vellore, TN", "Tamil Nadu"], ["Cuttack, Orissa", "Odisha"]]) {
    assert.deepEqual(placesOf(location), [{
      remote: false,
      locality: location.split(",")[0],
      region,
      country: "IN",
    }]);
  }
});

Deno.test("the icons are served with a long cache life and linked from every page", async () => {
  await using t = await testApp();
  const home = await get(t, "/");
  for (
    const [path, type] of [
      ["/favicon.ico", "image/x-icon"],
      ["/favicon.svg", "image/svg+xml"],
      ["/apple-touch-icon.png", "image/png"],
      ["/share.png", "image/png"],
    ]
  ) {
    const bare = await t.app.request(path, { redirect: "manual" });
    assert.equal(bare.status, 200, path);
    assert.equal(bare.headers.get("content-type"), type);
    assert.equal(bare.headers.get("cache-control"), "public, max-age=2592000");
    assert.ok((await bare.arrayBuffer()).byteLength > 100);
    const linked = home.html.match(new RegExp(`"(${path.replace(".", "\\.")}\\?v=\\w+)"`))?.[1] ??
      home.html.match(new RegExp(`"https?://[^"]+(${path.replace(".", "\\.")}\\?v=\\w+)"`))?.[1];
    if (path === "/favicon.ico") continue;
    assert.ok(linked, `${path} is linked`);
    const versioned = await t.app.request(linked!);
    assert.equal(versioned.headers.get("cache-control"), "public, max-age=31536000, immutable");
    await versioned.body?.cancel();
  }
  assert.match(home.html, /<link rel="icon" href="\/favicon.ico" sizes="32x32"\/>/);
  assert.match(home.html, /<link rel="apple-touch-icon" href="\/apple-touch-icon.png\?v=\w+"\/>/);
});

Deno.test("home, list and job pages have a 1200 x 630 share image", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Data Engineer" }]);
  for (const path of ["/", "/jobs", `/jobs/${job.jobId}`]) {
    const { html } = await get(t, path);
    const image = html.match(/<meta property="og:image" content="([^"]+)"/)?.[1];
    assert.ok(image?.startsWith("http"), `${path}: ${image}`);
    assert.match(html, /<meta name="twitter:card" content="summary_large_image"\/>/);
    const answer = await t.app.request(new URL(image!).pathname + new URL(image!).search);
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const view = new DataView(bytes.buffer);
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], [1200, 630]);
  }
});

Deno.test("a page past the end redirects to the last page, keeping the filters", async () => {
  await using t = await testApp();
  await seedJobs(t, Array.from({ length: 30 }, (_, i) => ({ role: i < 20 ? "Tester" : "Writer" })));
  const past = await get(t, "/jobs?page=99999");
  assert.equal(past.status, 302);
  assert.equal(past.headers.get("location"), "/jobs?page=3");
  const filtered = await get(t, "/jobs?role=Tester&page=7");
  assert.equal(filtered.status, 302);
  assert.equal(filtered.headers.get("location"), "/jobs?role=Tester&page=2");
  const none = await get(t, "/jobs?keywords=nothing-at-all&page=3");
  assert.equal(none.headers.get("location"), "/jobs?keywords=nothing-at-all");
  assert.equal((await get(t, "/jobs?page=3")).status, 200);
});

Deno.test("searches are noindex, follow and never echo the visitor's words in the description", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Tester" }]);
  const robots = (html: string) => html.match(/<meta name="robots" content="([^"]+)"/)?.[1];
  const description = (html: string) =>
    html.match(/<meta name="description" content="([^"]+)"/)?.[1];
  for (const path of ["/", "/jobs", "/jobs?page=1", `/jobs/${job.jobId}`]) {
    const { html } = await get(t, path);
    assert.equal(robots(html), undefined, path);
  }
  for (
    const path of [
      "/jobs?keywords=Buy+cheap+pills",
      "/jobs?location=Spam+City",
      "/jobs?role=Tester",
      "/jobs?experience=3%2B",
      "/jobs?employmentType=Contract",
    ]
  ) {
    const { status, html } = await get(t, path);
    assert.equal(status, 200, path);
    assert.equal(robots(html), "noindex, follow", path);
    assert.ok(!/pills|Spam/.test(description(html)!), description(html));
  }
});

Deno.test("dates show the calendar day in the site's time zone", async () => {
  await using t = await testApp({ config: { TIMEZONE: "Asia/Kolkata" } });
  const [job] = await seedJobs(t, [{ role: "Night Owl", datePosted: "2026-03-05T19:00:00.000Z" }]);
  const list = (await get(t, "/jobs")).html;
  assert.match(list, /<time dateTime="2026-03-06">Mar 6, 2026<\/time>/);
  assert.match((await get(t, "/")).html, /Mar 6, 2026/);
  assert.match((await get(t, `/jobs/${job.jobId}`)).html, />March 6, 2026<\/time>/);
  await using utc = await testApp();
  await seedJobs(utc, [{ role: "Night Owl", datePosted: "2026-03-05T19:00:00.000Z" }]);
  assert.match((await get(utc, "/jobs")).html, /<time dateTime="2026-03-05">Mar 5, 2026<\/time>/);
});

Deno.test("a cut that ends on punctuation reads as one ellipsis", () => {
  assert.equal(cutText("Remote work available. Apply now", 22), "Remote work available...");
  assert.equal(cutText("Remote work available, and more", 22), "Remote work available...");
  assert.equal(cutText("Short.", 22), "Short.");
  assert.equal(cutText("Exactly twenty-two ch.", 22), "Exactly twenty-two ch.");
});

Deno.test("counts are written as en-US writes them, every digit grouped by threes", () => {
  const intl = new Intl.NumberFormat("en-US");
  const samples = [0, 7, 999, 1_000, 9_999, 12_345, 100_000, 999_999, 1_000_000, 123_456_789];
  for (let value = 0; value < 2_000_000; value += 997) samples.push(value);
  samples.push(Number.MAX_SAFE_INTEGER, 2 ** 60, -1_234, 1.5, 12_345.678, NaN);
  for (const value of samples) assert.equal(formatCount(value), intl.format(value), `${value}`);
});
