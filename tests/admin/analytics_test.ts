/** The dashboard and the Analytics screen in Chromium, on a day of known traffic. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import { emptyDayCounts, recordDay } from "../../kv/analytics/recording.ts";
import { jobRef } from "../../kv/analytics/types.ts";
import { dayOf } from "../../kv/days.ts";
import {
  ACCOUNT_KINDS,
  backgroundColour,
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  flagsOf,
  newPage,
  openAs,
  press,
  selectTab,
} from "./helpers.ts";
import type { JobWithAnalytics } from "../../kv/schemas.ts";

const QUICK_ACTIONS = {
  "Create New Job": "canCreateJobs",
  "View Analytics": "canViewAnalytics",
  "Manage Admins": "canManageAdmins",
} as const;

Deno.test({ name: "Dashboard and Analytics", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const jobs: JobWithAnalytics[] = [];
  // Every time is taken from the server's clock, so the day of traffic is the server's today.
  const start = s.clock.now;
  for (let i = 0; i < 6; i++) {
    s.clock.now = new Date(start.getTime() - (6 - i) * 60_000);
    jobs.push(
      await createJob(
        s,
        main,
        sampleJob({ role: `Analyst ${i}`, companyName: i % 2 ? "Globex" : "Initech" }),
      ),
    );
  }
  s.clock.now = start;
  // One day of traffic: 70 visits, 35 visitors, 150 job views and 11 clicks over three jobs.
  const counts = emptyDayCounts();
  counts.visits = 70;
  counts.uniques = 35;
  counts.devices = { desktop: 40, mobile: 25, tablet: 5 };
  counts.browsers = { chrome: 50, firefox: 10, safari: 5, edge: 3, others: 2 };
  for (
    const [job, views, clicks] of [[jobs[5], 100, 10], [jobs[4], 40, 1], [jobs[3], 10, 0]] as const
  ) {
    counts.views.set(job._id, views);
    if (clicks) counts.clicks.set(job._id, clicks);
    counts.jobs.set(job._id, jobRef(job));
  }
  await recordDay(s.kv, dayOf(start, s.services.config.TIMEZONE), counts);

  await using browser = await launchBrowser();
  const { page } = await newPage(browser);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const chartCodeLoaded = () => scripts.some((path) => /\/charts-[^/]*\.js$/.test(path));
  const card = (label: string) =>
    page.locator("section[aria-label=Summary] > div").filter({ hasText: label });

  await t.step("the first screens load no chart code", async () => {
    await page.goto(`${s.url}/admin/login`);
    await page.getByRole("button", { name: "Sign In" }).waitFor();
    await openAs(page, s, main, "/admin/jobs");
    await expectText(page, "Showing 1 to 6 of 6 jobs");
    assert.equal(chartCodeLoaded(), false, scripts.join("\n"));
  });

  await t.step("dashboard: greeting, the four cards, charts, performance", async () => {
    await openAs(page, s, main, "/admin/dashboard");
    await expectHeading(page, "Welcome back, Main Admin!");
    for (
      const [label, value] of [["Total Website Visits", "70"], ["Unique Visitors", "35"], [
        "Job Views",
        "150",
      ], ["Job Clicks", "11"]]
    ) {
      await card(label).getByText(value, { exact: true }).waitFor();
    }
    await page.getByRole("img", { name: "Website visits and unique visitors per day, last 7 days" })
      .waitFor();
    await page.getByRole("img", { name: "Job views and job clicks per day, last 7 days" })
      .waitFor();
    assert.ok(chartCodeLoaded(), "the chart chunk loads with the first chart");
    const performance = page.locator("section").filter({ hasText: "Performance" }).last();
    await performance.getByText("7.33%", { exact: true }).waitFor();
    await performance.getByText("10", { exact: true }).waitFor();
    await performance.getByText("21", { exact: true }).waitFor();
    await expectAccessible(page);
  });

  await t.step("charts grow into place; for a person who wants less motion, at once", async () => {
    const framesAsked = async (reducedMotion: "reduce" | "no-preference") => {
      // Its own context: the counter of animation frames must be in place before chart.js loads.
      await using context = await browser.newContext({ reducedMotion });
      await context.addInitScript(() => {
        const ask = requestAnimationFrame.bind(globalThis);
        Object.assign(globalThis, {
          framesAsked: 0,
          nextFrame: () => new Promise((resolve) => ask(resolve)),
        });
        globalThis.requestAnimationFrame = (callback) => {
          (globalThis as unknown as { framesAsked: number }).framesAsked++;
          return ask(callback);
        };
      });
      const page = await context.newPage();
      await openAs(page, s, main, "/admin/dashboard");
      await page.getByRole("img", { name: "Job views and job clicks per day, last 7 days" })
        .waitFor();
      // What the page asks for over the next ten frames the browser draws.
      return await page.evaluate(async () => {
        const counted = globalThis as unknown as {
          framesAsked: number;
          nextFrame: () => Promise<void>;
        };
        const before = counted.framesAsked;
        for (let i = 0; i < 10; i++) await counted.nextFrame();
        return counted.framesAsked - before;
      });
    };
    assert.ok(await framesAsked("no-preference") >= 5, "the charts animate");
    assert.ok(await framesAsked("reduce") <= 1, "the charts are drawn at once");
  });

  await t.step(
    "dashboard: the five most recent jobs open the public page in a new tab",
    async () => {
      const recent = page.locator("section").filter({ hasText: "Recent Jobs" }).getByRole("link");
      assert.equal(await recent.count(), 6, "five jobs and View all");
      for (const job of jobs.slice(1)) {
        const link = page.getByRole("link", {
          name: new RegExp(`^${job.role} ${job.companyName}`),
        });
        assert.equal(await link.getAttribute("href"), `/jobs/${job.jobId}`);
        assert.equal(await link.getAttribute("target"), "_blank");
      }
      assert.equal(await page.getByRole("link", { name: /^Analyst 0 / }).count(), 0);
      await page.getByRole("link", { name: /^Analyst 5 / }).getByText("100 views").waitFor();
    },
  );

  await t.step("dashboard: the period changes the figures and the address", async () => {
    await page.getByLabel("Period").selectOption("30");
    await page.waitForURL(`${s.url}/admin/dashboard?days=30`);
    await page.getByRole("img", { name: /last 30 days/ }).first().waitFor();
    const performance = page.locator("section").filter({ hasText: "Performance" }).last();
    await performance.getByText("2", { exact: true }).waitFor();
    await performance.getByText("5", { exact: true }).waitFor();
  });

  await t.step("dashboard: quick actions follow the account's flags", async () => {
    for (const kind of ACCOUNT_KINDS) {
      const account = kind.main
        ? main
        : await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, "/admin/dashboard");
      await card("Job Clicks").getByText("11", { exact: true }).waitFor();
      const actions = page.locator("section").filter({ hasText: "Quick Actions" });
      for (const [title, flag] of Object.entries(QUICK_ACTIONS)) {
        assert.equal(
          await actions.getByRole("link", { name: new RegExp(`^${title}`) }).count(),
          kind.main || kind.permissions!.includes(flag) ? 1 : 0,
          `${kind.name}: ${title}`,
        );
      }
      if (kind.main) await actions.getByText("Add or remove admin users").waitFor();
    }
  });

  await t.step("analytics: denied without canViewAnalytics", async () => {
    for (const kind of ACCOUNT_KINDS) {
      if (kind.main || kind.permissions!.includes("canViewAnalytics")) continue;
      const account = await signIn(s, { permissions: flagsOf(kind.permissions) });
      await openAs(page, s, account, "/admin/analytics");
      await expectHeading(page, "Access Denied");
      await expectText(page, "You don't have permission to view analytics");
      assert.equal(await page.getByRole("button", { name: "Export CSV" }).count(), 0);
    }
  });

  const analyst = await signIn(s, { permissions: { canViewAnalytics: true } });

  await t.step("analytics: cards, overview charts, performance summary", async () => {
    await openAs(page, s, analyst, "/admin/analytics");
    await expectHeading(page, "Analytics");
    await card("Total Website Visits").getByText("70", { exact: true }).waitFor();
    await card("Job Clicks").getByText("11", { exact: true }).waitFor();
    assert.equal(
      await page.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected"),
      "true",
    );
    await page.getByRole("img", { name: /Website visits and unique visitors/ }).waitFor();
    await page.getByRole("img", { name: /Job views and job clicks/ }).waitFor();
    const summary = page.locator("section").filter({ hasText: "Performance Summary" });
    for (
      const [label, value] of [["Avg. Daily Visits", "10"], ["Avg. Daily Unique Visitors", "5"], [
        "Avg. Daily Job Views",
        "21",
      ], ["Overall Conversion Rate", "7.33%"]]
    ) {
      await summary.locator("div").filter({ hasText: label }).getByText(value, { exact: true })
        .waitFor();
    }
    await expectAccessible(page);
  });

  await t.step("analytics: top jobs and companies with coloured conversion badges", async () => {
    await selectTab(page, "Job Performance");
    await page.waitForURL(`${s.url}/admin/analytics?tab=jobs`);
    await expectHeading(page, "Top Performing Jobs");
    const rows = page.locator("tbody tr");
    assert.equal(await rows.count(), 3);
    const badges = [["Analyst 5", "10.00%", "green"], ["Analyst 4", "2.50%", "yellow"], [
      "Analyst 3",
      "0.00%",
      "red",
    ]];
    for (const [role, rate, colour] of badges) {
      const badge = rows.filter({ hasText: role }).getByText(rate, { exact: true });
      assert.equal(await backgroundColour(badge), colour, role);
    }
    await expectAccessible(page);
    await selectTab(page, "Company Stats");
    await expectHeading(page, "Company Performance");
    await rows.filter({ hasText: "Globex" }).getByText("110", { exact: true }).waitFor();
    await rows.filter({ hasText: "Globex" }).getByText("9.09%", { exact: true }).waitFor();
    await rows.filter({ hasText: "Initech" }).getByText("40", { exact: true }).waitFor();
    await rows.filter({ hasText: "Initech" }).getByText("2.50%", { exact: true }).waitFor();
  });

  await t.step("analytics: device and browser pies", async () => {
    await selectTab(page, "Device & Browser");
    await page.getByRole("img", { name: "Visits by device, last 7 days" }).waitFor();
    await page.getByRole("img", { name: "Visits by browser, last 7 days" }).waitFor();
    await expectAccessible(page);
  });

  await t.step("analytics: exports save analytics-{days}days.json and .csv", async () => {
    const json = page.waitForEvent("download");
    await press(page.getByRole("button", { name: "Export JSON" }));
    assert.equal((await json).suggestedFilename(), "analytics-7days.json");
    await expectToast(page, "Analytics exported as JSON");
    await page.getByLabel("Period").selectOption("30");
    await page.waitForURL(/days=30/);
    const csv = page.waitForEvent("download");
    await press(page.getByRole("button", { name: "Export CSV" }));
    const download = await csv;
    assert.equal(download.suggestedFilename(), "analytics-30days.csv");
    await expectToast(page, "Analytics exported as CSV");
    const text = await Deno.readTextFile((await download.path())!);
    assert.ok(text.length > 0);
  });
});
