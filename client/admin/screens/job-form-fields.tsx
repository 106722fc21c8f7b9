/**
 * The job form Create Job and Edit Job share. Its sections, fields, labels and checks all come from
 * the job field table (kv/job-fields.ts): a field added there appears here in its section, is
 * checked by the job schema and is named by its label in 'Please fill in: ...'.
 */
import { type FormEvent, type KeyboardEvent, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { ZodType } from "zod";
import {
  cleanList,
  describeIssue,
  type JobInput,
  jobInputSchemaOf,
  SKILL_GROUP_LABELS,
  SKILL_GROUPS,
  type Skills,
} from "../../../kv/schemas.ts";
import {
  draftFields,
  type FormSectionId,
  formSections,
  JOB_FIELDS,
  type JobFieldSpec,
  type JobFieldTable,
  missingFields,
} from "../../../kv/job-fields.ts";
import {
  FormButtons,
  SelectField,
  TextArea,
  TextField,
  useFocusFirstInvalid,
} from "../components/form.tsx";
import type { Job } from "../types.ts";
import { UnsavedChangesGuard } from "./unsaved-guard.tsx";
import { PayField } from "./pay-field.tsx";
import type { Pay } from "../../../kv/jobs/pay.ts";
import { expiryDay, expiryInput, expiryRange } from "../../../kv/jobs/expiry.ts";
import { siteTimeZone } from "../ui.tsx";
import { withDerived } from "../../../kv/jobs/derived.ts";

/** What the form holds for each field: text, a list, the skill lists by group, or a pay. */
export type FormValues = Record<string, string | string[] | Skills | Pay | null>;
type FieldErrors = Partial<Record<string, string>>;

const emptySkills = (): Skills =>
  Object.fromEntries(SKILL_GROUPS.map((group) => [group, []])) as unknown as Skills;

function emptyValue(spec: JobFieldSpec): FormValues[string] {
  if (spec.kind === "list") return [];
  if (spec.kind === "skills") return emptySkills();
  if (spec.kind === "pay") return null;
  return spec.default ?? "";
}

/** The values of a new job: empty, or the field's default. */
export function emptyForm(fields: JobFieldTable = JOB_FIELDS): FormValues {
  return Object.fromEntries(
    Object.entries(fields).map(([name, spec]) => [name, emptyValue(spec)]),
  );
}

/** A stored job's values, with the fields it does not have left empty. */
export function formFromJob(job: Job, fields: JobFieldTable = JOB_FIELDS): FormValues {
  const stored = job as unknown as Record<string, FormValues[string] | undefined>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, spec]) => {
      const empty = emptyValue(spec);
      const value = stored[name] ?? empty;
      if (spec.kind === "date") return [name, value ? expiryDay(value as string) : ""];
      return [
        name,
        spec.kind === "skills" ? { ...(empty as Skills), ...(value as Skills) } : value,
      ];
    }),
  );
}

/**
 * A saved job's or draft's values for its editor. Its work mode and role category were read from
 * its text when it was saved (a draft's perhaps while the location or role was still blank): where
 * they equal what the text gives, the form leaves them to the text (their placeholder), so a
 * location changed to Remote, or filled in later, still decides the work mode; a choice the admin
 * made that the text would not is kept.
 */
export function formFromSaved(job: Job): FormValues {
  const values = formFromJob(job);
  const { workMode: _mode, category: _category, ...text } = job;
  const read = withDerived(text);
  return {
    ...values,
    workMode: job.workMode === read.workMode ? "" : values.workMode,
    category: job.category === read.category ? "" : values.category,
  };
}

/**
 * The form's values as a job body; else the message naming what is wrong by the fields' labels,
 * and each field's own message to show beside it. `initial` is what the form opened with: a date
 * left as it was is kept even outside the range a new day is chosen from.
 */
export function validated(
  values: FormValues,
  fields: JobFieldTable,
  schema: ZodType<unknown>,
  initial?: FormValues,
): { job: unknown } | { message: string; errors: FieldErrors } {
  const missing = missingFields(values, fields);
  if (missing.length) {
    return {
      message: `Please fill in: ${missing.map((field) => fields[field].label).join(", ")}`,
      errors: Object.fromEntries(
        missing.map((field) => [field, `${fields[field].label} is required`]),
      ),
    };
  }
  const parsed = schema.safeParse(withDays(values, fields, initial));
  if (parsed.success) return { job: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  if (typeof field !== "string" || !(field in fields)) {
    return { message: describeIssue(parsed.error), errors: {} };
  }
  const message = plainWords(fields[field], issue.message);
  return { message, errors: { [field]: message } };
}

/** The date fields' days in the form the job stores (the server checks them again). */
function withDays(values: FormValues, fields: JobFieldTable, initial?: FormValues): FormValues {
  const days = Object.entries(fields).filter(([, spec]) => spec.kind === "date");
  if (days.length === 0) return values;
  const now = new Date();
  const stored = (name: string) => {
    const kept = (initial?.[name] as string | undefined) || undefined;
    return expiryInput(values[name], now, siteTimeZone(), kept) as string;
  };
  return { ...values, ...Object.fromEntries(days.map(([name]) => [name, stored(name)])) };
}

/**
 * A field's problem as a person would say it: the API's messages name the field by its key and
 * speak of schemes and hosts, which a recruiter filling in the form need not know.
 */
export function plainWords(spec: JobFieldSpec, problem: string): string {
  if (spec.kind === "url") {
    return problem === "URL is too long"
      ? `${spec.label} is too long`
      : "Enter a full link starting with https://";
  }
  if (spec.kind === "enum") return `Choose a ${spec.label.toLowerCase()} from the list`;
  if (spec.kind === "date") return `${spec.label} must be from tomorrow to a year ahead`;
  return `${spec.label} ${problem}`;
}

/** How each section lays its fields out. */
const SECTION_LAYOUT: Record<FormSectionId, string> = {
  basic: "grid grid-cols-1 gap-4 sm:grid-cols-2",
  details: "space-y-4",
  skills: "grid grid-cols-1 gap-5 sm:grid-cols-2",
};

/** A form's second way to save: as a draft, checked by the draft's relaxed rules (`draftFields`). */
export interface DraftAction {
  label: string;
  busyLabel: string;
  onSave: (job: JobInput) => void;
}

export function JobForm(
  { fields = JOB_FIELDS, initial, busy, submitLabel, busyLabel, onSubmit, onCancel, draft }: {
    /** The field table the form is built from. */
    fields?: JobFieldTable;
    initial: FormValues;
    busy: boolean;
    submitLabel: string;
    busyLabel: string;
    onSubmit: (job: JobInput) => void;
    onCancel: () => void;
    draft?: DraftAction;
  },
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempts, setAttempts] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, attempts);
  const schema = useMemo(() => jobInputSchemaOf(fields), [fields]);
  const draftRules = useMemo(() => {
    const relaxed = draftFields(fields);
    return { fields: relaxed, schema: jobInputSchemaOf(relaxed) };
  }, [fields]);
  /** Which button started the save under way, for its busy label. */
  const [pressed, setPressed] = useState<"submit" | "draft">("submit");
  const sections = useMemo(() => formSections(fields), [fields]);
  const changed = useMemo(() => JSON.stringify(values) !== JSON.stringify(initial), [
    values,
    initial,
  ]);

  const set = (field: string) => (value: FormValues[string]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** The values as a job body by these rules; else their messages are shown and null. */
  const checked = (rules: JobFieldTable, rulesSchema: ZodType<unknown>): JobInput | null => {
    const result = validated(values, rules, rulesSchema, initial);
    if ("job" in result) {
      setErrors({});
      return result.job as JobInput;
    }
    toast.error(result.message);
    setErrors(result.errors);
    setAttempts((count) => count + 1);
    return null;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPressed("submit");
    const job = checked(fields, schema);
    if (job) onSubmit(job);
  };

  const saveDraft = () => {
    setPressed("draft");
    const job = checked(draftRules.fields, draftRules.schema);
    if (job) draft?.onSave(job);
  };

  return (
    <form ref={form} noValidate onSubmit={submit} className="space-y-6">
      {sections.map((section) => (
        <fieldset key={section.id} className="card p-5">
          <legend className="px-1 text-lg font-semibold">{section.legend}</legend>
          <div className={SECTION_LAYOUT[section.id]}>
            {section.fields.map(({ name, spec }) => (
              <Field
                key={name}
                spec={spec}
                value={values[name]}
                error={errors[name]}
                onChange={set(name)}
                values={values}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <FormButtons
        busy={busy && pressed === "submit"}
        held={busy}
        label={submitLabel}
        busyLabel={busyLabel}
        onCancel={onCancel}
      >
        {draft && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={saveDraft}>
            {busy && pressed === "draft" ? draft.busyLabel : draft.label}
          </button>
        )}
      </FormButtons>
      {/* While a save is on its way the screen itself moves on when it succeeds. */}
      <UnsavedChangesGuard unsaved={!busy && changed} />
    </form>
  );
}

/** One field's control, chosen by its kind. */
function Field({ spec, value, error, onChange, values }: {
  spec: JobFieldSpec;
  value: FormValues[string];
  error: string | undefined;
  onChange: (value: FormValues[string]) => void;
  /** The whole form's values, for a field shown beside what it is read from. */
  values: FormValues;
}) {
  const { label, required = false } = spec;
  switch (spec.kind) {
    case "text":
      return spec.rows
        ? (
          <TextArea
            label={label}
            rows={spec.rows}
            required={required}
            requiredMark={required}
            value={value as string}
            onChange={onChange}
            error={error}
          />
        )
        : (
          <TextField
            label={label}
            required={required}
            requiredMark={required}
            value={value as string}
            onChange={onChange}
            error={error}
            placeholder={spec.placeholder}
          />
        );
    case "url":
      return (
        <TextField
          label={label}
          type="url"
          required={required}
          requiredMark={required}
          value={value as string}
          onChange={onChange}
          error={error}
          placeholder="https://"
        />
      );
    case "date": {
      const range = expiryRange(new Date(), siteTimeZone());
      return (
        <TextField
          label={label}
          type="date"
          value={value as string}
          onChange={onChange}
          error={error}
          help={spec.help}
          min={range.min}
          max={range.max}
        />
      );
    }
    case "enum": {
      // A field with a default always has a value: it is marked as needed too. One without either
      // is read from the job's text when left on its placeholder.
      const needed = required || spec.default !== undefined;
      return (
        <SelectField
          label={label}
          required={needed}
          requiredMark={needed}
          value={value as string}
          onChange={onChange}
          error={error}
          options={spec.options}
          placeholder={spec.placeholder}
        />
      );
    }
    case "pay":
      return (
        <PayField
          label={label}
          pay={value as Pay | null}
          estPackage={String(values.estPackage ?? "")}
          error={error}
          onChange={onChange}
        />
      );
    case "list":
      return <ListField label={label} items={value as string[]} onChange={onChange} />;
    case "skills": {
      const skills = value as Skills;
      return SKILL_GROUPS.map((group) => (
        <ListField
          key={group}
          label={SKILL_GROUP_LABELS[group]}
          items={skills[group]}
          onChange={(items) => onChange({ ...skills, [group]: items })}
        />
      ));
    }
  }
}

/** A list added to by Enter or the Add button; entries trimmed, empties and repeats ignored. */
function ListField({ label, items, onChange }: {
  label: string;
  items: string[];
  onChange: (items: string[]) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const add = () => {
    onChange(cleanList([...items, draft]));
    setDraft("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    // Enter adds the entry instead of submitting the whole form.
    event.preventDefault();
    add();
  };
  return (
    <div>
      <label htmlFor={id} className="field-label">{label}</label>
      <div className="flex gap-2">
        <input
          id={id}
          className="field"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Type and press Enter"
        />
        <button
          type="button"
          className="btn-secondary shrink-0"
          onClick={add}
          aria-label={`Add to ${label}`}
        >
          Add
        </button>
      </div>
      {items.length > 0 && (
        <ul aria-label={label} className="mt-2 flex flex-wrap gap-2">
          {items.map((item) => (
            <li
              key={item}
              className="flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-3 text-sm text-indigo-800"
            >
              {item}
              <button
                type="button"
                className="rounded-full px-1.5 text-indigo-700 hover:bg-indigo-100"
                aria-label={`Remove ${item}`}
                onClick={() => onChange(items.filter((entry) => entry !== item))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
