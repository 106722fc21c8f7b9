/** The job form's Expiry Date as the form checks it before sending, in the browser's code. */
import assert from "node:assert/strict";
import { formFromJob, validated } from "../../client/admin/screens/job-form-fields.tsx";
import { JOB_FIELDS } from "../../kv/job-fields.ts";
import { jobInputSchemaOf } from "../../kv/schemas.ts";
import { addDays, dayOf } from "../../kv/days.ts";
import { sampleJob } from "../helpers/server.ts";
import type { Job } from "../../client/admin/types.ts";

Deno.test("Edit Job on a job's last day keeps its expiry day; only a new day must be ahead", () => {
  // The form reads days in the site's time zone, UTC outside a page.
  const today = dayOf(new Date(), "UTC");
  const job = { ...sampleJob(), expiresAt: `${today}T23:59:59.999+00:00` } as unknown as Job;
  const initial = formFromJob(job);
  assert.equal(initial.expiresAt, today);
  const schema = jobInputSchemaOf(JOB_FIELDS);

  const edited = validated({ ...initial, role: "Typo fixed" }, JOB_FIELDS, schema, initial);
  assert.ok("job" in edited, JSON.stringify(edited));
  assert.equal((edited.job as { expiresAt: string }).expiresAt, job.expiresAt);

  // Today chosen anew (not the day the job had) is refused, as on Create Job.
  const moved = validated(
    { ...initial, expiresAt: today },
    JOB_FIELDS,
    schema,
    { ...initial, expiresAt: addDays(today, 3) },
  );
  assert.ok("message" in moved);
  assert.equal(moved.message, "Expiry Date must be from tomorrow to a year ahead");
});
