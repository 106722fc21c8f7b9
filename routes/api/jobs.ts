/** `/api/jobs`: the public job calls and the admin job calls. */
import { auditOf } from "../../server/audit.ts";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { limitBody, parseQuery, parseWith, readJson, wholeNumber } from "../../server/validate.ts";
import { owesTwoFactor, requireAdmin } from "../../server/auth.ts";
import { can } from "../../kv/permissions.ts";
import type { AdminListPage, AdminListQuery } from "../../kv/jobs/paging.ts";
import type { WriteResult } from "../../kv/jobs/records.ts";
import {
  duplicateMessage,
  linkKeyProblem,
  validateDraft,
  validateJob,
} from "../../kv/jobs/validate.ts";
import {
  canonicalHiringLink,
  hiringLinkSchema,
  type Job,
  JOB_STATUSES,
  jobStatusSchema,
  type JobWithAnalytics,
} from "../../kv/schemas.ts";
import {
  optionNamed,
  POSTED_WITHIN,
  PUBLIC_FILTERS,
  type PublicFilter,
} from "../../kv/job-fields.ts";
import {
  ADMIN_PAGE_SIZE,
  DASHBOARD_RECENT_JOBS,
  DUMP_PAGE_SIZE,
  MAX_BULK_JOBS,
  MAX_FILTER_TEXT,
  MAX_SEARCH_TEXT,
  PUBLIC_PAGE_SIZE,
} from "../../kv/constants.ts";

const page = wholeNumber(1, 1_000_000, 1, { emptyIsAbsent: true });
const limit = (fallback: number) => wholeNumber(1, 100, fallback, { emptyIsAbsent: true });
import { jsonAnswer, normaliseQuery, QueryReadings } from "../../server/cache.ts";
import { CACHE_BUDGETS } from "../../kv/bounded-cache.ts";
import { answerKeys, postedMinute, rememberSearch } from "../cache-policy.ts";
import { exportJobsCsv, isCsv, readCsvJobs } from "./jobs-csv.ts";
import { withExpiryInput } from "../../kv/jobs/expiry.ts";

const filterText = z.string().max(
  MAX_FILTER_TEXT,
  `filter text must be at most ${MAX_FILTER_TEXT} characters`,
).optional();
/** A seeker's search text: long enough for a pasted job title (the engine keeps its meaningful words). */
export const searchText = z.string().max(
  MAX_SEARCH_TEXT,
  `search text must be at most ${MAX_SEARCH_TEXT} characters`,
).optional();

/** A zod preprocess: a text naming one of `values` however it is written is that value. */
export const spelledAs = (values: readonly string[]) => (value: unknown) =>
  typeof value === "string" && value ? optionNamed(values, value) ?? value : value;

/**
 * One of `values`, written in any case or spacing (`remote`, `full time`), as the page reads it;
 * empty (a no-script form's unset select) or absent means no filter.
 */
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    spelledAs(values),
    z.enum(["", ...values], { error: `must be one of ${values.join(", ")}` }).optional(),
  ).transform((value) => (value || undefined) as T[number] | undefined);

/** The query parameters of public filters: free text, or one of the field's options. */
export function filterQueryOf<Param extends string>(filters: readonly PublicFilter<Param>[]) {
  return Object.fromEntries(
    filters.map(({ param, options }) => [
      param,
      options ? optionalEnum(options) : filterText,
    ]),
  ) as Record<Param, typeof filterText>;
}

/** The most rupees a year `payMin` may ask: 10 crore. */
const MOST_PAY_MIN = 100_000_000;
const POSTED_DAYS = POSTED_WITHIN.map(String) as [string, ...string[]];

/** The filters the job list has beside the job field table's: company, pay and date posted. */
export const pageFilterQuery = {
  company: filterText.transform((name) => name?.trim() || undefined),
  // 0 is a filter like any figure: every pay reaches it, and a job without pay never does.
  payMin: wholeNumber(0, MOST_PAY_MIN, undefined, { emptyIsAbsent: true }),
  postedWithin: optionalEnum(POSTED_DAYS).transform((days) =>
    days === undefined ? undefined : Number(days)
  ),
};

export const publicJobQuery = z.object({
  page,
  limit: limit(PUBLIC_PAGE_SIZE),
  keywords: searchText,
  location: searchText,
  ...filterQueryOf(PUBLIC_FILTERS),
  ...pageFilterQuery,
  sortBy: z.enum(["relevance", "datePosted", "companyName", "role", "pay"], {
    error: "sortBy must be relevance, datePosted, companyName, role or pay",
  }).default("relevance"),
  sortOrder: z.enum(["asc", "desc"], { error: "sortOrder must be asc or desc" }).default("desc"),
});

const adminListQuery = z.object({
  page,
  limit: limit(ADMIN_PAGE_SIZE),
  status: z.enum(["all", ...JOB_STATUSES], {
    error: "status must be all, active, dump, inactive or draft",
  }).default("active"),
  sortBy: z.enum(["datePosted", "movedToDumpAt"], {
    error: "sortBy must be datePosted or movedToDumpAt",
  }).default("datePosted"),
  sortOrder: z.enum(["asc", "desc"], { error: "sortOrder must be asc or desc" }).default("desc"),
  search: filterText,
  company: filterText,
  location: filterText,
});

const dumpListQuery = z.object({ page, limit: limit(DUMP_PAGE_SIZE) });

const duplicateCheck = z.object({
  hiringLink: z.string({ error: "hiringLink is required" }).trim().min(1, "hiringLink is required")
    .pipe(hiringLinkSchema),
  excludeJobId: z.string().max(64).optional(),
});

const bulkBody = z.object({
  jobs: z.array(z.unknown(), { error: 'JSON must contain a "jobs" array' }).min(
    1,
    "must contain at least one job",
  ).max(MAX_BULK_JOBS, `may contain at most ${MAX_BULK_JOBS} jobs at once`),
});

/** A create's `status`: absent or active posts the job, draft saves it unpublished. */
const createStatus = z.object({
  status: z.enum(["active", "draft"], { error: "must be active or draft" }).optional(),
});

/**
 * Maps a store result to the answer: 404 for a missing job, 400 for one that cannot be written so
 * (too large, a draft not ready to publish), 409 with the job holding the link.
 */
function expectWritten(result: WriteResult): Job {
  if (result.ok) return result.job;
  if (result.reason === "not_found") fail(404, "Job not found");
  if (result.reason === "invalid") fail(400, result.message);
  fail(409, duplicateMessage(result.existingJob), { existingJob: result.existingJob });
}

type JobApp = Hono<AppEnv>;

export function jobRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  publicCalls(app, services);
  adminListCalls(app, services);
  jobWriteCalls(app, services);
  return app;
}

/** What visitors call: the list, the filter options, one job and the apply click. */
function publicCalls(app: JobApp, services: Services) {
  const { jobs, auth, counter, cache } = services;

  // The same question gets the same answer until a job changes: each answer is built once, and
  // the search answers the normalised question, so every spelling of it shares that answer.
  const readings = new QueryReadings(
    (c) => normaliseQuery(parseQuery(c, publicJobQuery), ["keywords", "location", "company"]),
    CACHE_BUDGETS.apiJobQueries,
  );
  app.get("/", async (c) => {
    const { query, key } = readings.of(c);
    counter.search(c);
    const now = postedMinute(services);
    const answer = await rememberSearch(
      cache,
      answerKeys.apiJobs(key),
      await jobs.revision(),
      now,
      async () => {
        const { jobs: found, pagination, partial, until } = await jobs.list({ ...query, now });
        // A client must not take jobs with only some of the words for jobs with all of them.
        return {
          answer: jsonAnswer({ jobs: found, pagination, ...(partial ? { partial } : {}) }),
          until,
        };
      },
    );
    return answer.response(c);
  });

  app.get("/filters/options", async (c) => {
    const catalog = await jobs.active();
    const answer = await cache.remember(
      answerKeys.filterOptions(),
      catalog.revision,
      () => jsonAnswer(catalog.filterOptions()),
    );
    return answer.response(c);
  });

  app.get("/:id", async (c) => {
    // An admin who manages jobs (the Edit page) may read a job in any status, once their
    // two-factor sign-in is on where the main admin requires it; any other admin reads what a
    // visitor may (drafts and closed jobs are the recruiters' alone), but no admin is counted as
    // a visitor.
    const admin = await auth.fromHeader(c.req.header("authorization"));
    const manager = admin !== null && can(admin.admin, "canCreateJobs") &&
      !(await owesTwoFactor(services, admin.admin));
    const job = await jobs.get(c.req.param("id"), { visitor: !manager });
    if (!job) fail(404, "Job not found");
    if (!manager && job.status !== "active") fail(410, "This job is no longer available");
    if (!admin) counter.jobView(c, job._id);
    const [withAnalytics] = await jobs.withAnalytics([job], { visitor: !manager });
    return c.json(withAnalytics);
  });

  app.post("/:id/click", async (c) => {
    const job = await jobs.get(c.req.param("id"), { visitor: true });
    if (!job) fail(404, "Job not found");
    const hiringLink = canonicalHiringLink(job.hiringLink);
    if (job.status !== "active" || !hiringLink) {
      fail(410, "This job is no longer accepting applications");
    }
    await counter.durableClick(c, job._id);
    return c.json({ message: "Click recorded", hiringLink });
  });
}

/**
 * An admin list's answer, serialised once per revision of the jobs (read afresh: an admin sees
 * another process's change at once) and version of the view and click totals: serialising whole
 * jobs was a large share of the request's time
 * (docs/decisions/002-one-answer-cache-with-a-byte-budget.md).
 */
async function adminListAnswer(
  c: Context,
  { jobs, cache }: Services,
  name: string,
  asked: AdminListQuery,
  body: (list: AdminListPage, withTotals: JobWithAnalytics[]) => unknown,
): Promise<Response> {
  const { query, key } = normaliseQuery(asked, ["search", "company", "location"]);
  const [revision, totals] = await Promise.all([
    jobs.revision({ fresh: true }),
    jobs.analyticsVersion(),
  ]);
  const answer = await cache.remember(
    answerKeys.adminList(name, key),
    `${revision}:${totals}`,
    async () => {
      const list = await jobs.adminList(query);
      return jsonAnswer(body(list, await jobs.withAnalytics(list.jobs)));
    },
  );
  return answer.response(c);
}

/** The admin job lists (Manage Jobs, the dashboard's newest, the dump), the export, the aging. */
function adminListCalls(app: JobApp, services: Services) {
  const { jobs } = services;
  const createJobs = requireAdmin(services, "canCreateJobs");

  app.get("/admin/all", createJobs, (c) =>
    adminListAnswer(
      c,
      services,
      "admin-all",
      parseQuery(c, adminListQuery),
      (list, withTotals) => ({ ...list, jobs: withTotals }),
    ));

  const exportQuery = adminListQuery.pick({
    status: true,
    search: true,
    company: true,
    location: true,
  });
  app.get("/admin/export", createJobs, (c) => {
    const filter = parseQuery(c, exportQuery);
    const day = services.now().toISOString().slice(0, 10);
    return exportJobsCsv(services, filter, `careeredge-jobs-${filter.status}-${day}.csv`);
  });

  // The dashboard's newest jobs, for every admin: Manage Jobs' list and counts need canCreateJobs.
  app.get("/admin/recent", requireAdmin(services), (c) =>
    adminListAnswer(
      c,
      services,
      "admin-recent",
      {
        page: 1,
        limit: DASHBOARD_RECENT_JOBS,
        status: "active",
        sortBy: "datePosted",
        sortOrder: "desc",
      },
      (_list, withTotals) => ({ jobs: withTotals }),
    ));

  app.get("/admin/dump", createJobs, (c) =>
    adminListAnswer(
      c,
      services,
      "admin-dump",
      {
        ...parseQuery(c, dumpListQuery),
        status: "dump",
        sortBy: "movedToDumpAt",
        sortOrder: "desc",
      },
      ({ pagination }, withTotals) => ({ jobs: withTotals, pagination }),
    ));

  const processChanges = requireAdmin(
    services,
    "canCreateJobs",
    "You do not have permission to process status changes",
  );
  app.post("/admin/process-status-changes", processChanges, async (c) => {
    const { inStep, reason } = await services.clock.verify();
    if (!inStep) {
      fail(
        503,
        `Status changes were not processed: ${reason}. Jobs are aged by the clock, so this ` +
          "server waits until its clock is right (or run it from another server).",
      );
    }
    const result = await jobs.processStatusChanges(auditOf(c, services));
    return c.json({
      message: `Processed: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`,
      result,
    });
  });
}

/** Creating, editing, moving and deleting jobs, one at a time or in bulk. */
function jobWriteCalls(app: JobApp, services: Services) {
  const { jobs } = services;
  const createJobs = requireAdmin(services, "canCreateJobs");

  app.post("/check-duplicate", createJobs, limitBody(16), async (c) => {
    const { hiringLink, excludeJobId } = parseWith(duplicateCheck, await readJson(c));
    const problem = linkKeyProblem(hiringLink);
    if (problem) fail(400, problem);
    const existingJob = await jobs.findActiveByLink(hiringLink, excludeJobId);
    return c.json({ isDuplicate: existingJob !== null, existingJob });
  });

  app.post("/bulk", createJobs, limitBody(16 * 1024), bulkUpload(services));

  /** The body with its expiry day read; `kept` is the edited job's own expiry, taken as it is. */
  const jobBody = async (c: Context<AppEnv>, kept?: string) =>
    withExpiryInput(await readJson(c), services.now(), services.config.TIMEZONE, kept);

  app.post("/", createJobs, limitBody(512), async (c) => {
    const body = await jobBody(c);
    // A body that is no object is refused by the job's own check, with its message.
    const fields = body && typeof body === "object" && !Array.isArray(body) ? body : {};
    const draft = parseWith(createStatus, fields).status === "draft";
    const validation = draft ? validateDraft(body) : validateJob(body);
    if (!validation.ok) fail(400, validation.message);
    const job = expectWritten(
      await jobs.create(validation.job, auditOf(c, services), { draft }),
    );
    return c.json({ message: draft ? "Draft saved" : "Job created successfully!", job }, 201);
  });

  app.post("/:id/duplicate", createJobs, async (c) => {
    const job = expectWritten(await jobs.duplicate(c.req.param("id"), auditOf(c, services)));
    return c.json({ message: "Draft copy created", job }, 201);
  });

  // A draft's edit may leave fields blank; any other job's must be complete (the store decides,
  // in the write, which the job is).
  app.put("/:id", createJobs, limitBody(512), async (c) => {
    const current = await jobs.get(c.req.param("id"));
    const body = await jobBody(c, current?.expiresAt);
    const full = validateJob(body);
    const validation = full.ok ? full : validateDraft(body);
    if (!validation.ok) fail(400, validation.message);
    const job = expectWritten(
      await jobs.update(
        c.req.param("id"),
        validation.job,
        auditOf(c, services),
        full.ok ? undefined : full.message,
      ),
    );
    return c.json({ message: "Job updated successfully!", job });
  });

  const changeStatus = requireAdmin(
    services,
    "canCreateJobs",
    "You do not have permission to change job status",
  );
  app.put("/:id/status", changeStatus, limitBody(4), async (c) => {
    const { status } = parseWith(jobStatusSchema, await readJson(c));
    const job = expectWritten(
      await jobs.setStatus(c.req.param("id"), status, auditOf(c, services)),
    );
    return c.json({ message: `Job moved to ${status}`, job });
  });

  app.delete("/:id", requireAdmin(services, "canDeleteJobs"), async (c) => {
    const deleted = await jobs.delete(c.req.param("id"), auditOf(c, services));
    if (!deleted) fail(404, "Job not found");
    return c.json({ message: "Job deleted successfully" });
  });
}

/** A bulk row's role and company name, where it has them as text. */
function namesOf(row: unknown): { role?: string; companyName?: string } {
  if (!row || typeof row !== "object") return {};
  const { role, companyName } = row as { role?: unknown; companyName?: unknown };
  const text = (value: unknown) =>
    typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  return { role: text(role), companyName: text(companyName) };
}

/** `POST /bulk`: jobs in JSON or CSV, each checked; the valid, new ones are created. */
function bulkUpload(services: Services) {
  return async (c: Context<AppEnv>) => {
    const body = isCsv(c) ? await readCsvJobs(c) : await readJson(c);
    if (!body || typeof body !== "object" || !Array.isArray((body as { jobs?: unknown }).jobs)) {
      fail(400, 'JSON must contain a "jobs" array');
    }
    const { jobs: given } = parseWith(bulkBody, body);
    const items = given.map((item) =>
      withExpiryInput(item, services.now(), services.config.TIMEZONE)
    );
    const result = await services.jobs.bulkCreate(items, auditOf(c, services));
    const { created } = result;
    // Rows not created carry the role and company they were sent with: a CSV upload's rows exist
    // only as the server read them, and a row number alone does not tell the admin which job.
    const named = <Row extends { index: number }>(rows: Row[]) =>
      rows.map((row) => ({ ...row, ...namesOf(given[row.index]) }));
    const duplicates = named(result.duplicates);
    const errors = named(result.errors);
    const summary = {
      created: created.length,
      duplicates: duplicates.length,
      errors: errors.length,
    };
    return c.json(
      {
        message:
          `${summary.created} jobs created, ${summary.duplicates} duplicates, ${summary.errors} errors`,
        summary,
        created,
        duplicates,
        errors,
      },
      created.length > 0 ? 201 : 200,
    );
  };
}
