/**
 * The admin portal: its shell and the calls its screens make first, under load; the JavaScript it
 * downloads before the first screen (budget 200 KB gzipped), with the sign-in form's code and the
 * chart code measured apart because they load later; Lighthouse (mobile) on the sign-in page.
 */
import { API_BUDGET, type BenchContext, type Budget } from "../harness.ts";
import { chunkNamed, firstScreens } from "../../admin/bundle.ts";
import { scriptDownload } from "../../helpers/scripts.ts";
import { lighthouseRows } from "../lighthouse.ts";

const SHELL_BUDGET: Budget = { minRatio: 0.25, maxP99Ms: 30 };
const FIRST_SCREEN_BUDGET_KB = 200;

export default async function admin(context: BenchContext) {
  const shell = await fetch(`${context.url}/admin/dashboard`);
  const html = await shell.text();
  if (!shell.ok || !html.includes("admin/main.js")) {
    throw new Error(`/admin/dashboard answered ${shell.status} without the app`);
  }
  context.row(
    "GET /admin/dashboard (admin shell)",
    await context.load("/admin/dashboard"),
    SHELL_BUDGET,
  );

  const headers = { authorization: `Bearer ${context.adminToken}` };
  const calls: [string, string][] = [
    ["GET /api/admin/profile (every admin screen)", "/api/admin/profile"],
    [
      "GET /api/jobs/admin/all (Manage Jobs, active tab)",
      "/api/jobs/admin/all?page=1&limit=10&status=active&sortBy=datePosted&sortOrder=desc",
    ],
    ["GET /api/jobs/admin/dump (Dump Jobs, page 1 of 20)", "/api/jobs/admin/dump?page=1&limit=20"],
  ];
  for (const [name, path] of calls) {
    const response = await fetch(context.url + path, { headers });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    context.row(name, await context.load(path, { headers }), API_BUDGET);
  }

  const screens = await firstScreens();
  for (const [screen, label] of [["login", "sign-in"], ["dashboard", "dashboard"]] as const) {
    context.row(
      `Admin JavaScript before the ${label} screen, gzipped`,
      { value: screens[screen].gzipBytes / 1024, unit: "KB" },
      { max: FIRST_SCREEN_BUDGET_KB },
    );
  }
  const form = await scriptDownload([await chunkNamed("login-app")], {
    loaded: screens.login.files,
  });
  context.row("Sign-in form code, loaded when the form is first used, gzipped", {
    value: form.gzipBytes / 1024,
    unit: "KB",
  });
  await lighthouseRows(context, "/admin/login", { performance: 0.9, "best-practices": 1 });

  const charts = await scriptDownload([await chunkNamed("charts")], {
    loaded: screens.dashboard.files,
  });
  context.row("Chart code, loaded after the dashboard's first paint, gzipped", {
    value: charts.gzipBytes / 1024,
    unit: "KB",
  });
}
