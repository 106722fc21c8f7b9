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
import { inRouter } from "../helpers/router.tsx";

const SHIFTS = ["Day", "Night", "Rotational"] as const;

/** The table with the one entry the worked example adds. */
const WITH_SHIFT = {
  ...JOB_FIELDS,
  shift: {
    kind: "enum",
    options: SHIFTS,
    placeholder: "Select shift",
    label: "Shift",
    required: true,
    form: { section: "basic", order: 11 },
    // The search engine's facets are written by hand: the new one is named as the guide adds it.
    filter: { label: "Shift", all: "All Shifts", facet: "shifts" as keyof Facets },
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
  const schema = jobInputSchemaOf(WITH_SHIFT);
  const parsed = schema.safeParse({ ...JOB, shift: "Night" });
  assert.ok(parsed.success);
  assert.equal(parsed.data.shift, "Night");
  const wrong = schema.safeParse({ ...JOB, shift: "Dusk" });
  assert.ok(!wrong.success);
  assert.equal(describeIssue(wrong.error), "shift: must be one of Day, Night, Rotational");
  // The table as shipped does not know the field: it is dropped as any unknown field is.
  assert.ok(!("shift" in jobInputSchemaOf(JOB_FIELDS).parse({ ...JOB, shift: "Night" })));
});

Deno.test("a required field added to the table is named in 'Please fill in'", () => {
  assert.deepEqual(requiredFields(WITH_SHIFT).at(-1), "shift");
  assert.deepEqual(missingFields(JOB, WITH_SHIFT), ["shift"]);
  const values = { ...emptyForm(WITH_SHIFT), ...JOB };
  const result = validated(values, WITH_SHIFT, jobInputSchemaOf(WITH_SHIFT));
  assert.ok("message" in result);
  assert.equal(result.message, "Please fill in: Shift");
  assert.deepEqual(result.errors, { shift: "Shift is required" });
  const filled = validated(
    { ...values, shift: "Rotational" },
    WITH_SHIFT,
    jobInputSchemaOf(WITH_SHIFT),
  );
  assert.ok("job" in filled);
});

Deno.test("a field added to the table appears in its admin form section", () => {
  const basic = formSections(WITH_SHIFT).find(({ id }) => id === "basic")!;
  assert.equal(basic.fields.at(-1)?.name, "shift");
  const html = renderToStaticMarkup(inRouter(
    <JobForm
      fields={WITH_SHIFT}
      initial={emptyForm(WITH_SHIFT)}
      busy={false}
      submitLabel="Create Job"
      busyLabel="Creating..."
      onSubmit={() => {}}
      onCancel={() => {}}
    />,
  ));
  const fieldsets = html.split("<fieldset").slice(1).map((part) =>
    text(`<fieldset${part.slice(0, part.indexOf("</fieldset>"))}`)
  );
  assert.equal(fieldsets.length, 3);
  assert.match(
    fieldsets[0],
    /^Basic Information .*Hiring Link \* Work Mode From the location .* Shift \* Select shift Day Night Rotational$/,
  );
  assert.ok(!fieldsets[1].includes("Shift") && !fieldsets[2].includes("Shift"));
});

Deno.test("a field added to the table with a filter is offered on /jobs and /api/jobs", () => {
  const filters = publicFilters(WITH_SHIFT);
  assert.deepEqual(filters.map(({ param }) => param), [
    "role",
    "category",
    "workMode",
    "experience",
    "employmentType",
    "shift",
  ]);
  // The page reads a known option and drops anything else, as it does for every filter.
  const page = (search: string) =>
    Object.fromEntries(Object.entries(parseListQuery(new URLSearchParams(search), filters)))
      .shift;
  assert.equal(page("shift=Rotational"), "Rotational");
  assert.equal(page("shift=Dusk"), undefined);
  // The API refuses an unknown option with a message naming the parameter.
  const api = z.object(filterQueryOf(filters));
  assert.equal(api.parse({ shift: "Night" }).shift, "Night");
  const refused = api.safeParse({ shift: "Dusk" });
  assert.ok(!refused.success);
  assert.match(describeIssue(refused.error), /^shift: /);
  // The filter panel shows its dropdown after the others, with its 'all' option first.
  const html = renderToStaticMarkup(
    <JobFilters
      values={{}}
      filters={filters}
      choices={{ shift: SHIFTS.map((shift) => ({ value: shift, label: `${shift} (1)` })) }}
    />,
  );
  const start = html.lastIndexOf("<", html.indexOf('id="filter-panel"'));
  const panel = text(html.slice(start, html.indexOf('<div class="filters-actions')));
  assert.match(
    panel,
    /Employment Type All Types Shift All Shifts Day \(1\) Night \(1\) Rotational \(1\) Salary Any Salary Date Posted Any time Company All Companies$/,
  );
});
