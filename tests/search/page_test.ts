/**
 * The /jobs page's search as the server renders it (what a visitor without JavaScript gets): the
 * Relevance/Newest switch, counts on every dropdown option, and the looser search of an empty
 * result. With JavaScript, in Chromium: the same switch and counts after the form comes alive.
 */
import assert from "node:assert/strict";
import { testApp, testServer } from "../helpers/server.ts";
import { browserTest, launchBrowser, wakeIslands } from "../helpers/browser.ts";
import { cardRoles, get, seedJobs } from "../public/fixtures.ts";
import type { TestApp } from "../helpers/server.ts";

/** Oldest first: the analyst job is older than the one that only mentions analysts. */
async function seed(t: TestApp) {
  await seedJobs(t, [
    { role: "Data Analyst", employmentType: "Full-Time", experience: "2-3" },
    {
      role: "Office Manager",
      description: "Report to our data analyst.",
      employmentType: "Part-Time",
      experience: "2-3",
    },
    { role: "Data Analyst", employmentType: "Contract", experience: "0-1", location: "Pune" },
    { role: "Chef", employmentType: "Full-Time", experience: "5+" },
  ]);
}

const options = (html: string, name: string) =>
  [...(html.match(new RegExp(`<select[^>]*name="${name}"[^>]*>(.*?)</select>`))?.[1] ?? "")
    .matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]);

Deno.test("a keyword search ranks by relevance; Newest switches to date order, in the URL", async () => {
  await using t = await testApp();
  await seed(t);
  const relevance = await get(t, "/jobs?keywords=analyst");
  assert.deepEqual(cardRoles(relevance.html), ["Data Analyst", "Data Analyst", "Office Manager"]);
  assert.deepEqual(options(relevance.html, "sortBy"), [
    "Relevance",
    "Newest",
    "Salary (high to low)",
  ]);
  assert.match(relevance.html, /<option value="relevance" selected="">Relevance<\/option>/);

  const newest = await get(t, "/jobs?keywords=analyst&sortBy=datePosted");
  assert.deepEqual(cardRoles(newest.html), ["Data Analyst", "Office Manager", "Data Analyst"]);
  assert.match(newest.html, /<option value="datePosted" selected="">Newest<\/option>/);

  // The no-script form sends the default too: the canonical address leaves it out.
  const plain = await get(t, "/jobs?keywords=analyst&sortBy=relevance");
  assert.equal(plain.status, 302);
  assert.equal(plain.headers.get("location"), "/jobs?keywords=analyst");
});

Deno.test("each dropdown option shows the jobs it would give with the other filters; none, not offered", async () => {
  await using t = await testApp();
  await seed(t);
  const all = await get(t, "/jobs");
  assert.deepEqual(options(all.html, "employmentType"), [
    "All Types",
    "Full-Time (2)",
    "Part-Time (1)",
    "Contract (1)",
  ]);
  assert.deepEqual(options(all.html, "category"), [
    "All Roles",
    "Data &amp; AI (2)",
    "Operations (1)",
    "Hospitality (1)",
  ]);
  // Exact roles stay a filter for old links, out of the panel.
  assert.deepEqual(options(all.html, "role"), []);
  const analysts = await get(t, "/jobs?keywords=analyst&employmentType=Full-Time");
  assert.deepEqual(cardRoles(analysts.html), ["Data Analyst"]);
  // Employment Type counts ignore its own choice; the others count within it.
  assert.deepEqual(options(analysts.html, "employmentType"), [
    "All Types",
    "Full-Time (1)",
    "Part-Time (1)",
    "Contract (1)",
  ]);
  assert.deepEqual(options(analysts.html, "experience"), ["All Experience", "2-3 (1)"]);
  assert.deepEqual(options(analysts.html, "category"), ["All Roles", "Data &amp; AI (1)"]);
});

Deno.test("the home page's quick chips find what they say", async () => {
  await using t = await testApp();
  await seed(t);
  assert.deepEqual(cardRoles((await get(t, "/jobs?keywords=Full-time")).html).sort(), [
    "Chef",
    "Data Analyst",
  ]);
});

Deno.test("an empty result keeps its texts and offers a looser search as a link", async () => {
  await using t = await testApp();
  await seed(t);
  const { html } = await get(t, "/jobs?keywords=chef&location=Pune");
  assert.ok(html.includes("No jobs found"));
  assert.ok(html.includes("Try adjusting your search or"));
  assert.match(html, /<a href="\/jobs\?keywords=chef">1 job in any location<\/a>/);
  const none = await get(t, "/jobs?keywords=astronaut");
  assert.doesNotMatch(none.html, /<a href="\/jobs\?[^"]*">[\d,]+ jobs? /, "no looser search");
});

/** The texts above the results: the count, the range shown, and what is said of the search. */
const resultsHead = (html: string) =>
  html.match(/<div aria-live="polite" aria-atomic="true">(.*?)<\/div>/s)![1]
    .replace(/<!-- -->/g, "").split(/<[^>]*>/).filter(Boolean);

Deno.test("jobs with most of the words say that none has them all, and nothing else", async () => {
  await using t = await testApp();
  await seed(t);
  const partial = await get(t, "/jobs?keywords=chef+astronaut");
  assert.deepEqual(cardRoles(partial.html), ["Chef"]);
  assert.deepEqual(resultsHead(partial.html), [
    "1 Jobs Found",
    "Showing 1 - 1 of 1 results",
    "No job has every word you searched for: these have the most of them.",
  ]);
  const whole = await get(t, "/jobs?keywords=chef");
  assert.deepEqual(cardRoles(whole.html), ["Chef"]);
  assert.deepEqual(resultsHead(whole.html), ["1 Jobs Found", "Showing 1 - 1 of 1 results"]);
});

Deno.test("a pasted 477-character title is searched as it is, its meaningful words kept", async () => {
  await using t = await testApp();
  await seed(t);
  const title = `Data Analyst ${"for weekly dashboards and KPIs ".repeat(15)}`.trim();
  assert.equal(title.length, 477);
  const { status, html } = await get(t, `/jobs?${new URLSearchParams({ keywords: title })}`);
  assert.equal(status, 200);
  assert.deepEqual(cardRoles(html).slice(0, 2), ["Data Analyst", "Data Analyst"]);
});

Deno.test("with JavaScript: the sort switch and the counts", browserTest, async () => {
  await using server = await testServer();
  await seed(server);
  await using browser = await launchBrowser();
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${server.url}/jobs?keywords=analyst`);
    if (javaScriptEnabled) {
      await wakeIslands(page);
    }
    const types = await page.locator('select[name="employmentType"] option').allTextContents();
    assert.deepEqual(types, ["All Types", "Full-Time (1)", "Part-Time (1)", "Contract (1)"]);
    await page.selectOption('select[name="sortBy"]', "datePosted");
    // With JavaScript the chosen order applies at once; without it, Search sends the form.
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/sortBy=datePosted/);
    assert.equal(new URL(page.url()).search, "?keywords=analyst&sortBy=datePosted");
    const roles = page.getByRole("article").getByRole("heading", { level: 3 }).getByRole("link");
    assert.deepEqual(await roles.allTextContents(), [
      "Data Analyst",
      "Office Manager",
      "Data Analyst",
    ]);
    await context.close();
  }
});
