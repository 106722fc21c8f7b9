/**
 * The worked example of docs/adding-a-job-field.md: one entry added to the job field table gives a
 * field that is checked, named in 'Please fill in: ...', shown in its admin form section and
 * offered as a public filter, with no other file changed.
 */
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { z } from "zod";
import {
  formSections,
  JOB_FIELDS,
  type JobFieldTable,
  missingFields,
  publicFilters,
  requiredFields,
} from "../../kv/job-fields.ts";
import type { Facets } from "../../kv/search/search.ts";
import { describeIssue, jobInputSchemaOf } from "../../kv/schemas.ts";
import { filterQueryOf } from "../../routes/api/jobs.ts";
import { parseListQuery } from "../../routes/pages/query.ts";
import { JobFilters } from "../../client/components/search-forms.tsx";
import { emptyForm, JobForm, validated } from "../../client/admin/screens/job-form-fields.tsx";

const WORK_MODES = ["On-site", "Hybrid", "Remote"] as const;

/** The table with the one entry the worked example adds. */
const WITH_WORK_MODE = {
  ...JOB_FIELDS,
  workMode: {
    kind: "enum",
    options: WORK_MODES,
    placeholder: "Select work mode",
    label: "Work Mode",
    required: true,
    form: { section: "basic", order: 9 },
    // The search engine's facets are written by hand: the new one is named as the guide adds it.
    filter: { label: "Work Mode", all: "All Work Modes", facet: "workModes" as keyof Facets },
  },
} as const satisfies JobFieldTable;

const JOB = {
  companyName: "Acme Corp",
  role: "Software Engineer",
  location: "Pune",
  experience: "2-3",
  description: "Build the services behind the product.",
  requiredDegree: "B.Tech",
  hiringLink: "https://acme.example/careers/1",
};

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

Deno.test("a field added to the table is checked by the job schema", () => {
  const schema = jobInputSchemaOf(WITH_WORK_MODE);
  const parsed = schema.safeParse({ ...JOB, workMode: "Hybrid" });
  assert.ok(parsed.success);
  assert.equal(parsed.data.workMode, "Hybrid");
  const wrong = schema.safeParse({ ...JOB, workMode: "Mars" });
  assert.ok(!wrong.success);
  assert.equal(describeIssue(wrong.error), "workMode: must be one of On-site, Hybrid, Remote");
  // The table as shipped does not know the field: it is dropped as any unknown field is.
  assert.ok(!("workMode" in jobInputSchemaOf(JOB_FIELDS).parse({ ...JOB, workMode: "Hybrid" })));
});

Deno.test("a required field added to the table is named in 'Please fill in'", () => {
  assert.deepEqual(requiredFields(WITH_WORK_MODE).at(-1), "workMode");
  assert.deepEqual(missingFields(JOB, WITH_WORK_MODE), ["workMode"]);
  const values = { ...emptyForm(WITH_WORK_MODE), ...JOB };
  const result = validated(values, WITH_WORK_MODE, jobInputSchemaOf(WITH_WORK_MODE));
  assert.ok("message" in result);
  assert.equal(result.message, "Please fill in: Work Mode");
  assert.deepEqual(result.errors, { workMode: "Work Mode is required" });
  const filled = validated(
    { ...values, workMode: "Remote" },
    WITH_WORK_MODE,
    jobInputSchemaOf(WITH_WORK_MODE),
  );
  assert.ok("job" in filled);
});

Deno.test("a field added to the table appears in its admin form section", () => {
  const basic = formSections(WITH_WORK_MODE).find(({ id }) => id === "basic")!;
  assert.equal(basic.fields.at(-1)?.name, "workMode");
  const html = renderToStaticMarkup(
    <JobForm
      fields={WITH_WORK_MODE}
      initial={emptyForm(WITH_WORK_MODE)}
      busy={false}
      submitLabel="Create Job"
      busyLabel="Creating..."
      onSubmit={() => {}}
      onCancel={() => {}}
    />,
  );
  const fieldsets = html.split("<fieldset").slice(1).map((part) =>
    text(`<fieldset${part.slice(0, part.indexOf("</fieldset>"))}`)
  );
  assert.equal(fieldsets.length, 3);
  assert.match(
    fieldsets[0],
    /^Basic Information .*Hiring Link \* Work Mode \* Select work mode On-site Hybrid Remote$/,
  );
  assert.ok(!fieldsets[1].includes("Work Mode") && !fieldsets[2].includes("Work Mode"));
});

Deno.test("a field added to the table with a filter is offered on /jobs and /api/jobs", () => {
  const filters = publicFilters(WITH_WORK_MODE);
  assert.deepEqual(filters.map(({ param }) => param), [
    "role",
    "experience",
    "employmentType",
    "workMode",
  ]);
  // The page reads a known option and drops anything else, as it does for every filter.
  const page = (search: string) =>
    Object.fromEntries(Object.entries(parseListQuery(new URLSearchParams(search), filters)))
      .workMode;
  assert.equal(page("workMode=Remote"), "Remote");
  assert.equal(page("workMode=Mars"), undefined);
  // The API refuses an unknown option with a message naming the parameter.
  const api = z.object(filterQueryOf(filters));
  assert.equal(api.parse({ workMode: "Hybrid" }).workMode, "Hybrid");
  const refused = api.safeParse({ workMode: "Mars" });
  assert.ok(!refused.success);
  assert.match(describeIssue(refused.error), /^workMode: /);
  // The filter panel shows its dropdown after the others, with its 'all' option first.
  const html = renderToStaticMarkup(
    <JobFilters
      values={{}}
      filters={filters}
      choices={{ workMode: WORK_MODES.map((mode) => ({ value: mode, label: `${mode} (1)` })) }}
    />,
  );
  const start = html.lastIndexOf("<", html.indexOf('id="filter-panel"'));
  const panel = text(html.slice(start, html.indexOf('<div class="filters-actions')));
  assert.match(
    panel,
    /Employment Type All Types Work Mode All Work Modes On-site \(1\) Hybrid \(1\) Remote \(1\)$/,
  );
});
