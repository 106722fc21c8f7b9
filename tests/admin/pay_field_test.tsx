/** The job form's pay: how the package is read, and the admin's own pay when it is read wrong. */
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { PayField } from "../../client/admin/screens/pay-field.tsx";
import {
  emptyForm,
  formFromJob,
  JobForm,
  validated,
} from "../../client/admin/screens/job-form-fields.tsx";
import { JOB_FIELDS } from "../../kv/job-fields.ts";
import { jobInputSchemaOf } from "../../kv/schemas.ts";
import type { Pay } from "../../kv/jobs/pay.ts";
import type { Job } from "../../client/admin/types.ts";
import type {} from "../../client/admin/router.tsx";
import { inRouter } from "../helpers/router.tsx";

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

const field = (estPackage: string, pay: Pay | null = null) =>
  text(renderToStaticMarkup(
    <PayField
      label="Pay"
      pay={pay}
      estPackage={estPackage}
      error={undefined}
      onChange={() => {}}
    />,
  ));

Deno.test("the form says how the package was read, or that it was not", () => {
  assert.match(field("8-12 LPA"), /Read as ₹8,00,000 - ₹12,00,000 a year/);
  assert.match(field("₹25,000/month"), /Read as ₹25,000 a month/);
  assert.match(field("Competitive"), /Not read as a pay: set it below/);
  assert.match(field(""), /No package given/);
  const own = field("Competitive", { min: 600000, max: 900000, period: "year", currency: "INR" });
  assert.match(own, /Set by hand: ₹6,00,000 - ₹9,00,000 a year/);
  assert.match(own, /Minimum \(₹\) Maximum \(₹\) Per a year a month an hour/);
});

Deno.test("the job form shows the pay beside the package and sends the admin's own pay", () => {
  const html = renderToStaticMarkup(inRouter(
    <JobForm
      initial={{ ...emptyForm(), estPackage: "8-12 LPA" }}
      busy={false}
      submitLabel="Create Job"
      busyLabel="Creating..."
      onSubmit={() => {}}
      onCancel={() => {}}
    />,
  ));
  assert.match(
    text(html),
    /Estimated Package \(₹\) Pay Read as ₹8,00,000 - ₹12,00,000 a year Set the pay myself/,
  );
  const values = {
    ...emptyForm(),
    companyName: "Acme",
    role: "Engineer",
    location: "Pune",
    experience: "2-3",
    description: "Build",
    requiredDegree: "B.Tech",
    hiringLink: "https://acme.example/jobs/1",
    estPackage: "Best in industry",
    payOverride: { min: 40000, max: null, period: "month", currency: "INR" } as Pay,
  };
  const result = validated(values, JOB_FIELDS, jobInputSchemaOf(JOB_FIELDS));
  assert.ok("job" in result);
  assert.deepEqual((result.job as { payOverride: Pay }).payOverride, values.payOverride);
  // A stored job opens with its own pay, or none.
  const stored = { ...values, payOverride: undefined } as unknown as Job;
  assert.equal(formFromJob(stored).payOverride, null);
});
