/**
 * Every admin screen a recruiter uses, in Chromium, over the bench's 100,000 jobs (20,000 active)
 * and 90 days of analytics history: the time from the start of the navigation until the screen
 * shows its data (tests/bench/screen-timing.ts), as a full page load and as a click in the app (a
 * nav link, a tab, a row's action), 5 times each, after signing in on the real sign-in page. Budget:
 * the median within 500 ms. Each in-app click starts from a freshly loaded screen, so its data
 * comes from the server, not the app's cache. The API calls each screen made are printed with
 * their times, so a slow screen names its slow request.
 */
import type { Locator, Page } from "playwright-core";
import { type BenchContext, median } from "../harness.ts";
import { desktopChromium, launchBrowser } from "../../helpers/browser.ts";
import {
  type Call,
  click,
  fullLoad,
  type Milestones,
  settled,
  type Signal,
  timedPage,
  type Timing,
} from "../screen-timing.ts";
import { ensureHistory } from "./analytics.ts";

const RUNS = 5;
const BUDGET = { max: 500 };

interface Screen {
  name: string;
  signal: Signal;
  /** Opened directly for the full load; none for a dialog or a tab the address does not name. */
  path?: string;
  /** The in-app way there: the screen it starts from (by name) and the control clicked there. */
  via?: { from: string; control: (page: Page) => Locator };
}

const title = (text: string) => `^${text}$`;
const mainHeading = (text: string): Signal["heading"] => ["main h1", title(text)];
const navLink = (label: string) => (page: Page) =>
  page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: label, exact: true });
const firstRow = (label: string) => (page: Page) =>
  page.locator("main tbody tr").first().locator(`[aria-label^="${label}"]`);
const tab = (label: string) => (page: Page) =>
  page.getByRole("tab", { name: new RegExp(`^${label}`) });

const JOB_TABS = [
  ["all", "All"],
  ["active", "Active"],
  ["dump", "Dump"],
  ["inactive", "Inactive"],
  ["draft", "Drafts"],
] as const;

const ANALYTICS_TABS = [
  ["jobs", "Job Performance", "#report-panel tbody td:not([colspan])"],
  ["companies", "Company Stats", "#report-panel tbody td:not([colspan])"],
  ["devices", "Device & Browser", "#report-panel canvas"],
  ["sources", "Sources", "#report-panel tbody td:not([colspan])"],
  ["searches", "Searches", "#report-panel tbody td:not([colspan])"],
] as const;

/** The screens, each with what shows it is there; `jobId` is an active job, `draftId` a draft. */
function screens(jobId: string, draftId: string): Screen[] {
  const rows = "main tbody td:not([colspan])";
  const jobs: Screen[] = JOB_TABS.map(([status, label]) => ({
    name: `Manage Jobs, ${label} tab`,
    path: status === "active" ? "/admin/jobs" : `/admin/jobs?status=${status}`,
    signal: { heading: mainHeading("Manage Jobs"), tab: label, countsMatch: true, present: [rows] },
    via: status === "active"
      ? { from: "Dashboard", control: navLink("Manage Jobs") }
      : { from: "Manage Jobs, Active tab", control: tab(label) },
  }));
  const analytics: Screen[] = ANALYTICS_TABS.map(([id, label, data]) => ({
    name: `Analytics, ${label} tab`,
    path: `/admin/analytics?tab=${id}`,
    signal: { heading: mainHeading("Analytics"), tab: label, present: [data] },
    via: { from: "Analytics, Overview tab", control: tab(label) },
  }));
  return [
    {
      name: "Dashboard",
      path: "/admin/dashboard",
      signal: {
        heading: mainHeading("Welcome back, .+!"),
        present: ["main canvas", "main ul li a[href^='/jobs/']"],
        filled: "main dd",
      },
      via: { from: "Activity Log", control: navLink("Dashboard") },
    },
    ...jobs,
    {
      name: "Dump Jobs",
      path: "/admin/jobs/dump",
      signal: { heading: mainHeading("Dump Jobs"), present: [rows] },
      via: { from: "Dashboard", control: navLink("Dump Jobs") },
    },
    {
      name: "Job details (dialog)",
      signal: { heading: ["dialog[open] h2", ".+"], present: ["dialog[open] section tbody tr"] },
      via: { from: "Manage Jobs, Active tab", control: firstRow("Details of ") },
    },
    {
      name: "Edit Job",
      path: `/admin/jobs/edit/${jobId}`,
      signal: { heading: mainHeading("Edit Job"), present: ["main form input"] },
      via: { from: "Manage Jobs, Active tab", control: firstRow("Edit ") },
    },
    {
      name: "Create Job",
      path: "/admin/jobs/create",
      signal: { heading: mainHeading("Create Job"), present: ["main form input"] },
      via: {
        from: "Manage Jobs, Active tab",
        control: (page) => page.getByRole("link", { name: "Add Job" }),
      },
    },
    {
      name: "Create Job, JSON Upload tab (bulk upload)",
      signal: {
        heading: mainHeading("Create Job"),
        tab: "JSON Upload",
        present: ["main textarea"],
      },
      via: { from: "Create Job", control: tab("JSON Upload") },
    },
    {
      // In the app: the Duplicate action, which writes the copy, then opens it in the editor.
      name: "Duplicate a job (the draft copy's editor)",
      path: `/admin/jobs/edit/${draftId}`,
      signal: { heading: mainHeading("Edit Draft"), present: ["main form input"] },
      via: { from: "Manage Jobs, Active tab", control: firstRow("Duplicate ") },
    },
    {
      name: "Job Insight (one job's days and sources)",
      path: `/admin/jobs/insight/${jobId}`,
      signal: {
        heading: mainHeading("Insight: .+"),
        present: ["main canvas", "main tbody td:not([colspan])"],
      },
      via: { from: "Manage Jobs, Active tab", control: firstRow("Insight: ") },
    },
    {
      name: "Analytics, Overview tab",
      path: "/admin/analytics",
      signal: {
        heading: mainHeading("Analytics"),
        tab: "Overview",
        present: ["#report-panel canvas"],
        filled: "main dd",
      },
      via: { from: "Dashboard", control: navLink("Analytics") },
    },
    ...analytics,
    {
      name: "Activity Log",
      path: "/admin/activity",
      signal: { heading: mainHeading("Activity Log"), present: ["main tbody tr"] },
      via: { from: "Dashboard", control: navLink("Activity Log") },
    },
    {
      name: "Manage Admins",
      path: "/admin/admins",
      signal: { heading: mainHeading("Manage Admins"), present: [rows] },
      via: { from: "Dashboard", control: navLink("Manage Admins") },
    },
    {
      name: "Edit Profile and two-factor sign-in (dialog)",
      signal: {
        heading: ["dialog[open] h2", title("Edit Profile")],
        present: ["dialog[open] form"],
      },
      via: {
        from: "Dashboard",
        control: (page) =>
          page.getByRole("complementary", { name: "Sidebar" })
            .getByRole("button", { name: "Edit Profile" }),
      },
    },
  ];
}

async function api<T>(context: BenchContext, method: string, path: string): Promise<T> {
  const response = await fetch(context.url + path, {
    method,
    headers: { authorization: `Bearer ${context.adminToken}` },
  });
  const body = await response.json();
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${response.status}: ${body.message}`);
  }
  return body as T;
}

async function signIn(page: Page, url: string) {
  await page.goto(`${url}/admin/login`);
  await page.getByLabel("Email").fill("bench@careeredge.test");
  await page.getByLabel("Password", { exact: true }).fill("kettle-harbour-pass");
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${url}/admin/dashboard`);
}

/**
 * Where the time of the timed navigations went, in medians of ms since the start: a full load's
 * document and scripts, the app's API calls (when the first began, when the last answered), and
 * each call from its start to its answer, with the server's own time.
 */
function breakdown(calls: Call[], timings: Timing[]): string {
  const during = (timing: Timing) =>
    calls.filter((call) => call.start >= timing.start - 1 && call.end <= timing.shown);
  const since = (pick: (timing: Timing) => number[]) =>
    median(timings.map((timing) => Math.max(0, ...pick(timing)))).toFixed(0);
  const parts = [];
  if (timings[0].milestones) {
    const at = (name: keyof Milestones) =>
      median(timings.map((timing) => timing.milestones![name])).toFixed(0);
    parts.push(
      `HTML ${at("html")}, DOMContentLoaded ${at("domContentLoaded")}, scripts ${at("scripts")}`,
    );
  }
  parts.push(
    `first call ${
      since((timing) => {
        const starts = during(timing).map((call) => call.start - timing.start);
        return starts.length ? [Math.min(...starts)] : [];
      })
    }`,
    `last answer ${since((timing) => during(timing).map((call) => call.end - timing.start))}`,
  );
  const mine = timings.flatMap((timing) =>
    during(timing).map((call) => ({
      ...call,
      start: call.start - timing.start,
      end: call.end - timing.start,
    }))
  );
  const lines = [...Map.groupBy(mine, (call) => call.name)].map(([name, list]) => {
    const start = median(list.map((call) => call.start));
    const end = median(list.map((call) => call.end));
    const server = list.flatMap((call) => call.serverMs ?? []);
    const serverText = server.length ? `${median(server).toFixed(1)} ms` : "?";
    const size = `${(median(list.map((call) => call.bytes)) / 1024).toFixed(0)} KB`;
    return [
      start,
      `${name} ${start.toFixed(0)}-${end.toFixed(0)} (server ${serverText}, ${size})`,
    ] as const;
  }).sort((a, b) => a[0] - b[0]).map(([, line]) => line);
  return `${parts.join(", ")} ms; ${lines.join("; ") || "no calls"}`;
}

function report(
  context: BenchContext,
  name: string,
  mode: string,
  timings: Timing[],
  calls: Call[],
) {
  const times = timings.map((timing) => timing.shown - timing.start);
  context.row(`${name}: ${mode}, median of ${RUNS}`, { value: median(times), unit: "ms" }, BUDGET);
  context.row(`  max of ${RUNS}`, { value: Math.max(...times), unit: "ms" });
  console.log(
    `    ${name}, ${mode}: ${times.map((t) => t.toFixed(0)).join(", ")} ms; ${
      breakdown(calls, timings)
    }`,
  );
}

export default async function screensScenario(context: BenchContext) {
  await ensureHistory(context.kvPath);
  const first = await api<{ jobs: { _id: string }[] }>(
    context,
    "GET",
    "/api/jobs/admin/all?page=1&limit=1&status=active&sortBy=datePosted&sortOrder=desc",
  );
  const jobId = first.jobs[0]._id;
  const draft = await api<{ job: { _id: string } }>(
    context,
    "POST",
    `/api/jobs/${jobId}/duplicate`,
  );
  const list = screens(jobId, draft.job._id);
  const byName = new Map(list.map((screen) => [screen.name, screen]));

  await using browser = await launchBrowser(desktopChromium());
  const browserContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await browserContext.newPage();
  const calls = await timedPage(page);
  await signIn(page, context.url);
  console.log(`  load average at the start: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`);

  // `BENCH_SCREENS=analytics deno task bench screens` times only the screens whose name has it.
  const only = Deno.env.get("BENCH_SCREENS")?.toLowerCase() ?? "";
  for (const screen of list.filter(({ name }) => name.toLowerCase().includes(only))) {
    if (screen.path) {
      const timings: Timing[] = [];
      for (let run = 0; run < RUNS; run++) {
        timings.push(await fullLoad(page, context.url + screen.path, screen.signal));
      }
      report(context, screen.name, "full page load", timings, calls);
    }
    if (screen.via) {
      const from = byName.get(screen.via.from);
      if (!from?.path) throw new Error(`${screen.name} starts from an unknown screen`);
      const timings: Timing[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.goto(context.url + from.path);
        await settled(page, from.signal);
        timings.push(await click(page, screen.via.control(page), screen.signal));
      }
      report(context, screen.name, "in the app", timings, calls);
    }
  }
  console.log(`  load average at the end: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
}
