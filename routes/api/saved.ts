/** `GET /api/saved-jobs?ids=a,b`: the current data of the jobs a browser keeps as saved or viewed. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { parseQuery } from "../../server/validate.ts";
import { SAVED_JOBS_LOOKUP_MAX } from "../../kv/constants.ts";
import type { CurrentJob } from "../../client/components/saved-list.tsx";

const savedQuery = z.object({
  ids: z.string({ error: "ids is required" }).max(4096, "ids is too long")
    .transform((text) => [...new Set(text.split(",").filter(Boolean))])
    .pipe(
      z.array(z.string().regex(/^[0-9a-f]{24}$/, "ids must be job ids separated by commas"))
        .max(SAVED_JOBS_LOOKUP_MAX, `at most ${SAVED_JOBS_LOOKUP_MAX} ids`),
    ),
});

export function savedJobRoutes({ jobs }: Services) {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    const { ids } = parseQuery(c, savedQuery);
    // A draft is never shown to a visitor, even one who has its id.
    const found = (await jobs.getMany(ids)).filter((job) => job.status !== "draft");
    c.header("cache-control", "no-store");
    return c.json({
      jobs: found.map((job): CurrentJob => ({
        id: job._id,
        jobId: job.jobId,
        role: job.role,
        companyName: job.companyName,
        location: job.location,
        experience: job.experience,
        employmentType: job.employmentType,
        active: job.status === "active",
      })),
    });
  });
  return app;
}
