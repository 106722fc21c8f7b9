/** The API calls the specification budgets: the public list three ways and the admin dump tab. */
import { API_BUDGET, type BenchContext } from "../harness.ts";

export default async function api(context: BenchContext) {
  const calls: [string, string, Record<string, string>?][] = [
    ["GET /api/jobs (first page)", "/api/jobs"],
    [
      "GET /api/jobs two-word search + location + type",
      "/api/jobs?keywords=react%20developer&location=bengaluru&employmentType=Full-Time",
    ],
    ["GET /api/jobs?page=50", "/api/jobs?page=50"],
    [
      "GET /api/jobs/admin/all dump tab",
      "/api/jobs/admin/all?status=dump&sortBy=movedToDumpAt&sortOrder=desc&page=1&limit=10",
      { authorization: `Bearer ${context.adminToken}` },
    ],
  ];
  for (const [name, path, headers] of calls) {
    const response = await fetch(context.url + path, { headers });
    const body = await response.json();
    if (!response.ok || body.jobs.length === 0) {
      throw new Error(`${path} answered ${response.status} with ${body.jobs?.length} jobs`);
    }
    context.row(name, await context.load(path, { headers }), API_BUDGET);
  }
}
