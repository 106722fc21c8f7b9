/** `/api/admin/activity`: the activity log, for the main admin only; JSON pages or a CSV export. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../../server/context.ts";
import { requireAdmin } from "../../server/auth.ts";
import { parseQuery, wholeNumber } from "../../server/validate.ts";
import { ACTIVITY_ACTIONS, type ActivityRecord } from "../../kv/activity.ts";
import { CSV_BOM, csvCell } from "./analytics.ts";
import {
  ACTIVITY_EXPORT_LIMIT,
  ACTIVITY_PAGE_MAX,
  ACTIVITY_PAGE_SIZE,
} from "../../kv/constants.ts";

const activityQuery = z.object({
  page: wholeNumber(1, 100_000, 1),
  limit: wholeNumber(1, ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_SIZE),
  adminId: z.string().regex(/^[0-9a-f]{1,64}$/, "adminId must be an admin id").optional(),
  action: z.enum(ACTIVITY_ACTIONS, { error: "action must be one of the recorded actions" })
    .optional(),
  jobId: z.string().regex(/^JB-\d{1,15}$/i, "jobId must be a job number such as JB-1001")
    .transform((text) => text.toUpperCase()).optional(),
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json"),
});

const CSV_HEADER = ["Time", "Admin", "Admin id", "Action", "Target", "Job", "Change", "Address"];

function csvRow(record: ActivityRecord): string {
  return [
    record.at,
    record.actor.name,
    record.actor.id ?? "",
    record.action,
    record.target?.label ?? "",
    record.target?.jobId ?? "",
    record.change ? JSON.stringify(record.change) : "",
    record.address ?? "",
  ].map(csvCell).join(",");
}

export function activityRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get(
    "/",
    requireAdmin(services, "main_admin", "Only the main admin can view the activity log"),
    async (c) => {
      const { format, ...query } = parseQuery(c, activityQuery);
      if (format === "json") {
        return c.json(await services.activity.list(query), 200, {
          "cache-control": "no-store",
        });
      }
      const { records } = await services.activity.list({
        ...query,
        page: 1,
        limit: ACTIVITY_EXPORT_LIMIT,
      });
      const body = CSV_BOM +
        [CSV_HEADER.map(csvCell).join(","), ...records.map(csvRow)].join("\r\n") + "\r\n";
      return c.body(body, 200, {
        "content-type": "text/csv; charset=utf-8; header=present",
        "content-disposition": 'attachment; filename="activity.csv"',
        "cache-control": "no-store",
      });
    },
  );
  return app;
}
