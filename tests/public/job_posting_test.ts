/**
 * What Google for Jobs reads of a job's pay, work mode and places: baseSalary in the job's own
 * period, TELECOMMUTE for remote jobs only, one jobLocation per city with its state.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { get, scriptData, seedJobs } from "./fixtures.ts";

type Posting = Record<string, unknown>;

async function postingOf(t: Awaited<ReturnType<typeof testApp>>, jobId: string) {
  const [posting] = scriptData((await get(t, `/jobs/${jobId}`)).html, "application/ld+json");
  return posting as Posting;
}

const salary = (value: Record<string, unknown>) => ({
  "@type": "MonetaryAmount",
  currency: "INR",
  value: { "@type": "QuantitativeValue", ...value },
});

Deno.test("baseSalary in the pay's period: YEAR, MONTH, HOUR; one figure as value; none without pay", async () => {
  await using t = await testApp();
  const packages = [
    "8-12 LPA",
    "₹25,000/month",
    "10K-15K per month",
    "₹300 per hour",
    "15 LPA",
    "CTC up to 6 LPA",
    "Competitive",
    "",
  ];
  const jobs = await seedJobs(t, packages.map((estPackage) => ({ estPackage })));
  const found = [];
  for (const job of jobs) found.push((await postingOf(t, job.jobId)).baseSalary);
  assert.deepEqual(found, [
    salary({ minValue: 800000, maxValue: 1200000, unitText: "YEAR" }),
    salary({ value: 25000, unitText: "MONTH" }),
    salary({ minValue: 10000, maxValue: 15000, unitText: "MONTH" }),
    salary({ value: 300, unitText: "HOUR" }),
    salary({ value: 1500000, unitText: "YEAR" }),
    salary({ maxValue: 600000, unitText: "YEAR" }),
    undefined,
    undefined,
  ]);
});

Deno.test("a pay the admin set is the one Google reads", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{
    estPackage: "Best in industry",
    payOverride: { min: 40000, max: 60000, period: "month", currency: "INR" },
  }]);
  assert.deepEqual(
    (await postingOf(t, job.jobId)).baseSalary,
    salary({ minValue: 40000, maxValue: 60000, unitText: "MONTH" }),
  );
});

Deno.test("TELECOMMUTE with India as the applicants' country for remote jobs only", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    { location: "Work from home" },
    { location: "Anywhere" },
    { location: "Hybrid - Pune" },
    { location: "Pune", workMode: "Remote" },
    { location: "Remote", workMode: "Hybrid" },
  ]);
  const postings = [];
  for (const job of jobs) postings.push(await postingOf(t, job.jobId));
  for (const posting of postings.slice(0, 2).concat(postings[3])) {
    assert.equal(posting.jobLocationType, "TELECOMMUTE");
    assert.deepEqual(posting.applicantLocationRequirements, { "@type": "Country", name: "India" });
  }
  // A remote job with no city has no address; one that names a city keeps its address.
  assert.equal(postings[0].jobLocation, undefined);
  assert.equal(postings[1].jobLocation, undefined);
  assert.deepEqual(postings[3].jobLocation, postings[2].jobLocation);
  for (const posting of [postings[2], postings[4]]) {
    assert.equal(posting.jobLocationType, undefined);
    assert.equal(posting.applicantLocationRequirements, undefined);
    assert.ok(posting.jobLocation);
  }
  assert.deepEqual((postings[2].jobLocation as { address: Posting }).address, {
    "@type": "PostalAddress",
    addressLocality: "Pune",
    addressRegion: "Maharashtra",
    addressCountry: "IN",
  });
});

const place = (addressLocality: string, addressRegion: string) => ({
  "@type": "Place",
  address: { "@type": "PostalAddress", addressLocality, addressRegion, addressCountry: "IN" },
});

Deno.test("one jobLocation per city, each with its state; old city names know theirs", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    { location: "Bengaluru / Chennai" },
    { location: "Pune or Hyderabad" },
    { location: "Hybrid - Mumbai, Gurgaon" },
    { location: "Bombay" },
    { location: "Madras" },
    { location: "Calcutta" },
    { location: "Bangalore | Poona" },
    { location: "Gulbarga, Trichur, Vishakhapatnam" },
  ]);
  const found = [];
  for (const job of jobs) found.push((await postingOf(t, job.jobId)).jobLocation);
  assert.deepEqual(found, [
    [place("Bengaluru", "Karnataka"), place("Chennai", "Tamil Nadu")],
    [place("Pune", "Maharashtra"), place("Hyderabad", "Telangana")],
    [place("Mumbai", "Maharashtra"), place("Gurgaon", "Haryana")],
    place("Bombay", "Maharashtra"),
    place("Madras", "Tamil Nadu"),
    place("Calcutta", "West Bengal"),
    [place("Bangalore", "Karnataka"), place("Poona", "Maharashtra")],
    // Every name the location box knows a city by has its state.
    [
      place("Gulbarga", "Karnataka"),
      place("Trichur", "Kerala"),
      place("Vishakhapatnam", "Andhra Pradesh"),
    ],
  ]);
});

Deno.test("a job in several cities is found from each", async () => {
  await using t = await testApp();
  await seedJobs(t, [
    { role: "Data Analyst", location: "Bengaluru / Chennai" },
    { role: "Designer", location: "Pune or Hyderabad" },
  ]);
  const roles = async (query: string) =>
    ((await (await t.app.request(`/api/jobs${query}`)).json()).jobs as { role: string }[])
      .map((job) => job.role);
  assert.deepEqual(await roles("?location=Chennai"), ["Data Analyst"]);
  assert.deepEqual(await roles("?location=bengaluru"), ["Data Analyst"]);
  assert.deepEqual(await roles("?location=Hyderabad"), ["Designer"]);
  assert.deepEqual(await roles("?location=Pune"), ["Designer"]);
  assert.deepEqual(await roles("?keywords=chennai"), ["Data Analyst"]);
});

Deno.test("a list of known cities is several places, each in its own state, though one is a state's name too", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    { location: "Noida, Gurgaon, Delhi" },
    { location: "Mohali, Chandigarh" },
    { location: "Delhi, Noida, UP" },
    { location: "New Delhi, Delhi" },
    { location: "Gurugram, Haryana, India" },
    { location: "Mumbai & Pune" },
    { location: "Pune and Hyderabad" },
    { location: "Chennai; Kochi" },
    { location: "Srinagar, Jammu and Kashmir" },
    { location: "Jammu & Kashmir" },
    { location: "Whitefield, Bangalore" },
    { location: "Multiple locations (Bangalore, Pune)" },
    { location: "Vadodara (Baroda)" },
    { location: "Pune / Pune" },
  ]);
  const found = [];
  for (const job of jobs) found.push((await postingOf(t, job.jobId)).jobLocation);
  assert.deepEqual(found, [
    [place("Noida", "Uttar Pradesh"), place("Gurgaon", "Haryana"), place("Delhi", "Delhi")],
    [place("Mohali", "Punjab"), place("Chandigarh", "Chandigarh")],
    [place("Delhi", "Delhi"), place("Noida", "Uttar Pradesh")],
    place("New Delhi", "Delhi"),
    place("Gurugram", "Haryana"),
    [place("Mumbai", "Maharashtra"), place("Pune", "Maharashtra")],
    [place("Pune", "Maharashtra"), place("Hyderabad", "Telangana")],
    [place("Chennai", "Tamil Nadu"), place("Kochi", "Kerala")],
    place("Srinagar", "Jammu and Kashmir"),
    {
      "@type": "Place",
      address: {
        "@type": "PostalAddress",
        addressRegion: "Jammu and Kashmir",
        addressCountry: "IN",
      },
    },
    // A locality before its city: Google's addressLocality is the city.
    place("Bangalore", "Karnataka"),
    // Words before a list of cities are no place; a city named twice is one place.
    [place("Bangalore", "Karnataka"), place("Pune", "Maharashtra")],
    place("Vadodara", "Gujarat"),
    place("Pune", "Maharashtra"),
  ]);
});

Deno.test("a work-mode note before, after or around a city is no part of the place", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    { location: "Hybrid (Bangalore)" },
    { location: "Bengaluru - Hybrid" },
    { location: "Mumbai - 2 days WFH" },
    { location: "Chennai – Onsite" },
    { location: "Bangalore (Hybrid, 3 days office)" },
    { location: "Gurugram, Haryana (Hybrid)" },
    { location: "Hybrid (Bangalore / Chennai)" },
    { location: "Onsite: Pune" },
    { location: "Hybrid: 3 days/week office, Pune" },
    { location: "Not remote - Kolkata" },
    { location: "Hybrid" },
  ]);
  const found = [];
  for (const job of jobs) found.push((await postingOf(t, job.jobId)).jobLocation);
  assert.deepEqual(found, [
    place("Bangalore", "Karnataka"),
    place("Bengaluru", "Karnataka"),
    place("Mumbai", "Maharashtra"),
    place("Chennai", "Tamil Nadu"),
    place("Bangalore", "Karnataka"),
    place("Gurugram", "Haryana"),
    [place("Bangalore", "Karnataka"), place("Chennai", "Tamil Nadu")],
    place("Pune", "Maharashtra"),
    place("Pune", "Maharashtra"),
    place("Kolkata", "West Bengal"),
    // No city at all: the country is still said.
    { "@type": "Place", address: { "@type": "PostalAddress", addressCountry: "IN" } },
  ]);
});

Deno.test("a remote job that names a city is TELECOMMUTE with a jobLocation for the city", async () => {
  await using t = await testApp();
  const jobs = await seedJobs(t, [
    { location: "Remote or Hyderabad" },
    { location: "Hyderabad / WFH" },
    { location: "Pune (Remote)" },
    { location: "Remote (India / APAC)" },
  ]);
  const postings = [];
  for (const job of jobs) postings.push(await postingOf(t, job.jobId));
  for (const posting of postings) {
    assert.equal(posting.jobLocationType, "TELECOMMUTE");
    assert.deepEqual(posting.applicantLocationRequirements, { "@type": "Country", name: "India" });
  }
  assert.deepEqual(postings.map((posting) => posting.jobLocation), [
    place("Hyderabad", "Telangana"),
    place("Hyderabad", "Telangana"),
    place("Pune", "Maharashtra"),
    undefined,
  ]);
});

Deno.test("a state or a city's state finds a job whose location lists cities or notes its work mode", async () => {
  await using t = await testApp();
  await seedJobs(t, [
    { role: "Data Analyst", location: "Noida, Gurgaon, Delhi" },
    { role: "Designer", location: "Hybrid (Bangalore)" },
    { role: "Tester", location: "Bengaluru - Hybrid" },
    { role: "Accountant", location: "Mumbai - 2 days WFH" },
    { role: "Nurse", location: "Remote or Hyderabad" },
  ]);
  const roles = async (query: string) =>
    ((await (await t.app.request(`/api/jobs?${query}`)).json()).jobs as { role: string }[])
      .map((job) => job.role).sort();
  assert.deepEqual(await roles("location=Haryana"), ["Data Analyst"]);
  assert.deepEqual(await roles("location=Uttar%20Pradesh"), ["Data Analyst"]);
  assert.deepEqual(await roles("location=Karnataka"), ["Designer", "Tester"]);
  assert.deepEqual(await roles("location=Maharashtra"), ["Accountant"]);
  assert.deepEqual(await roles("keywords=mumbai%20maharashtra"), ["Accountant"]);
  assert.deepEqual(await roles("location=Telangana"), ["Nurse"]);
});
