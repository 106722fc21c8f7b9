/**
 * The public site in Chromium: the hydrated islands, the same flows with JavaScript off, and
 * axe-core on every page. One browser and one seeded server for the whole file.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import axe from "axe-core";
import { asPerson, browserTest, launchBrowser, wakeIslands } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

/** An everyday desktop Chrome: the traffic counter skips headless browsers. */
const axeSource = axe.source;

const ROLES = ["Data Scientist", "Backend Engineer", "Product Designer", "QA Engineer"];
const TYPES = ["Full-Time", "Part-Time", "Contract", "Internship", "Freelance"] as const;
const EXPERIENCE = ["0-1", "1-2", "2-3", "3+"] as const;

/** A person's browser, with scripts on or off. */
const newContext = (
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  javaScriptEnabled: boolean,
) => browser.newContext({ ...asPerson(), javaScriptEnabled });

interface Violation {
  id: string;
  impact: string;
  nodes: number;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations: Violation[] = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, {
      runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    });
    return result.violations.map((v: { id: string; impact: string; nodes: unknown[] }) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes)`);
}

/** The job cards of a list, each an article headed by its role's link. */
const cards = (page: Page) => page.getByRole("article");
const cardLinks = (page: Page) => cards(page).getByRole("heading", { level: 3 }).getByRole("link");
const cardRoles = (page: Page) => cardLinks(page).allTextContents();

Deno.test("the public site in Chromium", browserTest, async (t) => {
  await using server = await testServer();
  const jobs = await seedJobs(
    server,
    Array.from({ length: 100 }, (_, i) => ({
      role: ROLES[i % ROLES.length],
      companyName: `Company ${i}`,
      location: i % 5 === 4 ? "Remote" : "Pune, India",
      employmentType: TYPES[i % TYPES.length],
      experience: EXPERIENCE[i % EXPERIENCE.length],
      keywords: i === 99 ? ["quantum"] : [],
    })),
  );
  const [dump] = await seedJobs(server, [{ role: "Gone Role", status: "dump" }]);
  const newest = jobs[99];
  const base = server.url;
  await using browser = await launchBrowser();
  const context = await newContext(browser, true);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // A hydration mismatch is reported on the console; failed loads are the 404 and 500 tested here.
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });

  await t.step("search from home sends only the filled fields", async () => {
    await page.goto(`${base}/`);
    await wakeIslands(page);
    await page.getByRole("textbox", { name: "Job title, keywords, or company" }).fill("quantum");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/jobs?keywords=quantum`);
    assert.equal(
      await page.getByRole("heading", { level: 2, name: /Jobs Found/ }).textContent(),
      "1 Jobs Found",
    );
    assert.deepEqual(await cardRoles(page), [newest.role]);
  });

  await t.step("a quick chip fills the keyword box only", async () => {
    await page.goto(`${base}/`);
    await wakeIslands(page);
    await page.getByRole("button", { name: "Remote" }).click();
    const keywords = page.getByRole("textbox", { name: "Job title, keywords, or company" });
    assert.equal(await keywords.inputValue(), "Remote");
    assert.equal(page.url(), `${base}/`);
    await page.getByRole("button", { name: "Data Science" }).click();
    assert.equal(await keywords.inputValue(), "Data Science");
    assert.equal(
      await page.getByRole("textbox", { name: "City, state, or remote" }).inputValue(),
      "",
    );
    await page.getByRole("button", { name: "Search Jobs" }).click();
    await page.waitForURL(`${base}/jobs?keywords=Data+Science`);
  });

  await t.step("the Filters toggle, each filter and Clear Filters", async () => {
    await page.goto(`${base}/jobs`);
    await wakeIslands(page);
    const toggle = page.getByRole("button", { name: "Filters" });
    const category = page.locator('select[name="category"]');
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await category.isVisible(), false);
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    // Each choice applies at once: the page reloads with it.
    await category.selectOption("QA & Testing");
    await page.waitForURL(`${base}/jobs?category=QA+%26+Testing`);
    assert.ok((await cardRoles(page)).every((text) => text === "QA Engineer"));
    await wakeIslands(page);

    await page.getByLabel("Experience Level").selectOption("3+");
    await page.waitForURL(`${base}/jobs?category=QA+%26+Testing&experience=3%2B`);
    await page.getByText("25 Jobs Found").waitFor();
    await wakeIslands(page);

    await page.getByRole("textbox", { name: "City, state, or remote" }).fill("remote");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(`${base}/jobs?location=remote&category=QA+%26+Testing&experience=3%2B`);
    await page.goto(`${base}/jobs?location=remote`);
    await wakeIslands(page);
    await page.getByRole("button", { name: "Filters" }).click();
    await page.getByLabel("Employment Type").selectOption("Freelance");
    await page.waitForURL(`${base}/jobs?location=remote&employmentType=Freelance`);
    await page.getByText("20 Jobs Found").waitFor();
    const shown = await cards(page).count();
    assert.ok(shown > 0);
    assert.equal(
      await cards(page).filter({ has: page.getByText("Freelance", { exact: true }) }).count(),
      shown,
      "every card shows the chosen employment type",
    );

    await page.getByRole("link", { name: "Clear Filters" }).click();
    await page.waitForURL(`${base}/jobs`);
    await page.getByText("100 Jobs Found").waitFor();
  });

  await t.step("pagination: the window at the first, middle and last pages", async () => {
    const pagination = page.getByRole("navigation", { name: "Pagination" });
    const numbers = () => pagination.getByRole("link", { name: /^Page \d+$/ }).allTextContents();
    assert.deepEqual(await numbers(), ["1", "2", "3", "4", "5"]);
    assert.equal(await pagination.getByText("Previous").getAttribute("aria-disabled"), "true");
    await pagination.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(`${base}/jobs?page=2`);
    await pagination.getByRole("link", { name: "Page 5" }).click();
    await page.waitForURL(`${base}/jobs?page=5`);
    assert.deepEqual(await numbers(), ["3", "4", "5", "6", "7"]);
    assert.equal(
      await pagination.getByRole("link", { name: "Page 5" }).getAttribute("aria-current"),
      "page",
    );
    await page.getByText("Showing 49 - 60 of 100 results").waitFor();
    await pagination.getByRole("link", { name: "Page 7" }).click();
    await page.waitForURL(`${base}/jobs?page=7`);
    await pagination.getByRole("link", { name: "Page 9" }).click();
    await page.waitForURL(`${base}/jobs?page=9`);
    assert.deepEqual(await numbers(), ["5", "6", "7", "8", "9"]);
    assert.equal(await pagination.getByText("Next").getAttribute("aria-disabled"), "true");
    assert.equal(await cards(page).count(), 4);
    assert.equal(await page.evaluate(() => scrollY), 0);
  });

  await t.step("a card's fields and cuts", async () => {
    await page.goto(`${base}/jobs`);
    const card = cards(page).first();
    await card.getByText(newest.companyName, { exact: true }).waitFor();
    assert.equal(await card.getByText(newest.employmentType, { exact: true }).count(), 1);
    assert.equal(await card.locator("time").textContent(), "Mar 5, 2026");
    assert.equal(await card.getByText("₹8-12 LPA", { exact: true }).count(), 1);
    assert.deepEqual(
      await card.getByRole("list", { name: "Skills" }).getByRole("listitem").allTextContents(),
      [
        "TypeScript",
        "Go",
        "Docker",
        "+4 more",
      ],
    );
  });

  let jobPage = "";
  await t.step("the detail panels", async () => {
    await cardLinks(page).first().click();
    jobPage = `${base}/jobs/${newest.jobId}`;
    await page.waitForURL(jobPage);
    await wakeIslands(page);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), newest.role);
    for (
      const name of [
        "Estimated Package",
        "Job Description",
        "Required Qualifications",
        "Required Skills",
        "Job Information",
        "Similar Jobs",
      ]
    ) {
      await page.getByRole("heading", { level: 2, name }).waitFor();
    }
    await page.getByText("March 5, 2026").waitFor();
    assert.equal(
      await page.getByRole("region", { name: "Similar Jobs" }).getByRole("listitem").count(),
      3,
    );
    assert.equal(await page.getByRole("link", { name: "Apply Now" }).count(), 2);
    await page.getByRole("button", { name: "Save Job" }).waitFor();
  });

  await t.step("the share dialog: keyboard, copy, links", async () => {
    const opener = page.getByRole("button", { name: "Share Job" }).first();
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Share this job" });
    await dialog.waitFor();
    assert.ok(await page.evaluate(() => document.activeElement?.closest("dialog") !== null));
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(() =>
        document.activeElement === document.body ||
        document.activeElement?.closest("dialog[open]") !== null
      );
      assert.ok(inside, "focus stays in the dialog");
    }
    const preview = await dialog.getByRole("region", { name: "Preview" }).textContent();
    assert.ok(preview!.startsWith(`${newest.role} at ${newest.companyName}`));
    assert.ok(preview!.includes("Package: ₹8-12 LPA"));
    assert.ok(preview!.includes(`Apply here: ${jobPage}`));

    const links: Record<string, [string, string | null]> = Object.fromEntries(
      await dialog.getByRole("list", { name: "Share on" }).getByRole("link").evaluateAll((
        anchors,
      ) =>
        anchors.map((a) => [a.textContent, [(a as HTMLAnchorElement).href, a.getAttribute("rel")]])
      ),
    );
    // Each link's job URL says where it was shared (apps such as WhatsApp send no Referer).
    const url = (source: string) =>
      encodeURIComponent(`${jobPage}?utm_source=${source}&utm_medium=share`);
    assert.ok(links.X[0].startsWith("https://x.com/intent/post?"));
    assert.ok(links.X[0].includes(`url=${url("x")}`));
    assert.equal(
      links.LinkedIn[0],
      `https://www.linkedin.com/sharing/share-offsite/?url=${url("linkedin")}`,
    );
    assert.ok(links.WhatsApp[0].startsWith("https://wa.me/?text="));
    assert.ok(links.WhatsApp[0].includes(encodeURIComponent("Apply here:").replaceAll("%20", "+")));
    assert.ok(links.WhatsApp[0].includes(url("whatsapp")));
    assert.ok(links.Telegram[0].startsWith(`https://t.me/share/url?url=${url("telegram")}&text=`));
    for (const [, rel] of Object.values(links)) assert.equal(rel, "noopener noreferrer");

    await dialog.getByRole("button", { name: "Copy to Clipboard" }).click();
    await dialog.getByRole("button", { name: "Copied!" }).waitFor();
    await page.getByRole("status").getByText("Job post copied to clipboard!").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), preview);
    await dialog.getByRole("button", { name: "Copy to Clipboard" }).waitFor({ timeout: 3_000 });

    assert.deepEqual(await seriousViolations(page), []);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    // The dialog's close event, which hands focus back, is dispatched as a task of its own.
    await page.waitForFunction(
      (button) => button === document.activeElement,
      await opener.elementHandle(),
      {
        timeout: 5_000,
      },
    );
  });

  await t.step("Apply records the click, then opens the hiring link in a new tab", async () => {
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("link", { name: "Apply Now" }).first().click(),
    ]);
    // The toast lasts 4 seconds: looked for first, as a busy machine may take longer to load the tab.
    await page.getByRole("status").getByText("Redirecting to application...").waitFor();
    await popup.waitForURL(newest.hiringLink);
    await popup.close();
    await server.services.counter.flush();
    const counts = await server.services.jobs.analyticsOf([newest._id]);
    assert.equal(counts.get(newest._id)?.clicks, 1);

    await page.route("**/api/jobs/*/click", (route) => route.fulfill({ status: 500, body: "{}" }));
    const opened: Page[] = [];
    context.on("page", (extra) => opened.push(extra));
    await page.getByRole("link", { name: "Apply Now" }).last().click();
    await page.getByRole("status").getByText("Failed to track application").waitFor();
    assert.equal(opened.length, 0);
    await page.unroute("**/api/jobs/*/click");
  });

  await t.step("not found, gone, and unknown paths", async () => {
    const missing = await page.goto(`${base}/jobs/JB-999999`);
    assert.equal(missing?.status(), 404);
    await page.getByRole("heading", { name: "Job Not Found" }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    const gone = await page.goto(`${base}/jobs/${dump.jobId}`);
    assert.equal(gone?.status(), 410);
    await page.getByRole("link", { name: "Explore Other Jobs" }).click();
    await page.waitForURL(`${base}/jobs`);
    await page.goto(`${base}/no/such/page`);
    assert.equal(page.url(), `${base}/`);
  });

  await t.step("axe finds no serious or critical violation on any public page", async () => {
    for (
      const path of ["/", "/jobs", "/jobs?keywords=nothing-matches", jobPage.slice(base.length)]
    ) {
      await page.goto(`${base}${path}`);
      await wakeIslands(page);
      assert.deepEqual(await seriousViolations(page), [], path);
    }
    assert.deepEqual(errors, []);
  });

  await t.step("with JavaScript off: search, filter, clear, page, open and apply", async () => {
    const plain = await newContext(browser, false);
    const noScript = await plain.newPage();
    await noScript.goto(`${base}/`);
    await noScript.getByRole("textbox", { name: "Job title, keywords, or company" }).fill(
      "engineer",
    );
    await noScript.getByRole("button", { name: "Search Jobs" }).click();
    await noScript.waitForURL(`${base}/jobs?keywords=engineer`);
    await noScript.getByText("50 Jobs Found").waitFor();
    assert.equal(await noScript.getByRole("button", { name: "Filters" }).isVisible(), false);

    await noScript.locator('select[name="category"]').selectOption("Engineering");
    await noScript.getByRole("button", { name: "Search", exact: true }).click();
    await noScript.waitForURL(`${base}/jobs?keywords=engineer&category=Engineering`);
    await noScript.getByText("25 Jobs Found").waitFor();

    await noScript.getByRole("link", { name: "Clear Filters" }).click();
    await noScript.waitForURL(`${base}/jobs`);
    await noScript.getByRole("link", { name: "Next" }).click();
    await noScript.waitForURL(`${base}/jobs?page=2`);
    await noScript.getByText("Showing 13 - 24 of 100 results").waitFor();

    const target = jobs[87];
    await noScript.getByRole("link", { name: target.role, exact: true }).first().click();
    await noScript.waitForURL(`${base}/jobs/${target.jobId}`);
    const [popup] = await Promise.all([
      plain.waitForEvent("page"),
      noScript.getByRole("link", { name: "Apply Now" }).first().click(),
    ]);
    await popup.waitForURL(target.hiringLink);
    await server.services.counter.flush();
    const counts = await server.services.jobs.analyticsOf([target._id]);
    assert.equal(counts.get(target._id)?.clicks, 1);

    // A page streamed because its data was slow (a URL not asked for before) shows its skeletons,
    // then reloads itself into the whole page, results above the footer: React's reveal script
    // cannot run.
    const slowPath = `/jobs?keywords=quantum&employmentType=${
      encodeURIComponent(newest.employmentType)
    }`;
    // The search answers once the browser has the streamed shell's response.
    const answer = Promise.withResolvers<void>();
    const loads: string[] = [];
    noScript.on("response", (response) => {
      if (response.request().resourceType() !== "document") return;
      loads.push(response.url());
      answer.resolve();
    });
    const search = server.services.jobs.search.bind(server.services.jobs);
    server.services.jobs.search = async (query) => {
      await answer.promise;
      return search(query);
    };
    try {
      await noScript.goto(`${base}${slowPath}`);
    } finally {
      server.services.jobs.search = search;
    }
    await noScript.waitForFunction((url) => document.URL === url, `${base}${slowPath}`);
    await noScript.getByText("1 Jobs Found").waitFor();
    assert.deepEqual(loads, [`${base}${slowPath}`, `${base}${slowPath}`]);
    assert.equal(await noScript.getByText("Searching...").count(), 0);
    assert.deepEqual(await cardRoles(noScript), [newest.role]);
    assert.ok(
      await noScript.evaluate(() => {
        const card = document.querySelector(".job-card")!;
        const footer = document.querySelector("footer")!;
        return !!(card.compareDocumentPosition(footer) & Node.DOCUMENT_POSITION_FOLLOWING);
      }),
    );
    await plain.close();
  });

  await context.close();
});
