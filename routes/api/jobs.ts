/** `/api/jobs`: the public job calls and the admin job calls of SPEC section 7. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { parseQuery } from "../../server/validate.ts";
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../../kv/schemas.ts";
import { PUBLIC_PAGE_SIZE } from "../../kv/constants.ts";

const page = z.coerce.number({ error: "page must be a whole number from 1" }).int(
  "page must be a whole number from 1",
).min(1, "page must be a whole number from 1").max(1_000_000, "page is too large").default(1);
const limit = (fallback: number) =>
  z.coerce.number({ error: "limit must be a whole number from 1 to 100" }).int(
    "limit must be a whole number from 1 to 100",
  ).min(1, "limit must be a whole number from 1 to 100").max(
    100,
    "limit must be a whole number from 1 to 100",
  ).default(fallback);
const filterText = z.string().max(200, "filter text must be at most 200 characters").optional();
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.union([z.literal(""), z.enum(values, { error: `${name} must be one of ${values.join(", ")}` })])
    .optional().transform((value) => value || undefined);

export const publicJobQuery = z.object({
  page,
  limit: limit(PUBLIC_PAGE_SIZE),
  keywords: filterText,
  location: filterText,
  role: filterText,
  experience: optionalEnum(EXPERIENCE_OPTIONS, "experience"),
  employmentType: optionalEnum(EMPLOYMENT_TYPES, "employmentType"),
  sortBy: z.enum(["datePosted", "companyName", "role"], {
    error: "sortBy must be datePosted, companyName or role",
  }).default("datePosted"),
  sortOrder: z.enum(["asc", "desc"], { error: "sortOrder must be asc or desc" }).default("desc"),
});

export function jobRoutes(services: Services) {
  const { jobs } = services;
  const app = new Hono<AppEnv>();

  app.get("/", async (c) => c.json(await jobs.search(parseQuery(c, publicJobQuery))));

  app.get("/filters/options", async (c) => c.json(await jobs.filterOptions()));

  app.get("/:id", async (c) => {
    const job = await jobs.get(c.req.param("id"));
    if (!job || job.status !== "active") fail(404, "Job not found");
    const [withAnalytics] = await jobs.withAnalytics([job]);
    return c.json(withAnalytics);
  });

  return app;
}
