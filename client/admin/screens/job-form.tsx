/**
 * Create Job and Edit Job (SPEC section 2): the three-section form both share, the duplicate-link
 * check and dialog, and the JSON upload. Rules and messages come from kv/schemas.ts and section 8.
 */
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  cleanList,
  describeIssue,
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  type JobInput,
  jobInputSchema,
  missingJobFields,
  REQUIRED_JOB_FIELDS,
  SKILL_GROUP_LABELS,
  SKILL_GROUPS,
  type SkillGroup,
} from "../../../kv/schemas.ts";
import { DUPLICATE_TOAST_MS } from "../../../kv/constants.ts";
import { api, ApiError, messageOf } from "../api.ts";
import { can, useAdmin } from "../session.ts";
import { jobsChanged, queryKeys } from "../queries.ts";
import { AccessDenied, Dialog, formatDate, PageHeader, plural, Tabs } from "../ui.tsx";
import { FormButtons } from "../components/form.tsx";
import type { BulkAnswer, BulkRowProblem, DuplicateCheck, Job, JobAnswer } from "../types.ts";

interface FormValues {
  companyName: string;
  companyLogo: string;
  role: string;
  location: string;
  experience: string;
  employmentType: string;
  estPackage: string;
  hiringLink: string;
  description: string;
  requiredDegree: string;
  skills: Record<SkillGroup, string[]>;
  keywords: string[];
}

const EMPTY_FORM: FormValues = {
  companyName: "",
  companyLogo: "",
  role: "",
  location: "",
  experience: "",
  employmentType: "Full-Time",
  estPackage: "",
  hiringLink: "",
  description: "",
  requiredDegree: "",
  skills: Object.fromEntries(SKILL_GROUPS.map((group) => [group, []])) as unknown as Record<
    SkillGroup,
    string[]
  >,
  keywords: [],
};

function formFromJob(job: Job): FormValues {
  return {
    ...EMPTY_FORM,
    companyName: job.companyName,
    companyLogo: job.companyLogo ?? "",
    role: job.role,
    location: job.location,
    experience: job.experience,
    employmentType: job.employmentType,
    estPackage: job.estPackage ?? "",
    hiringLink: job.hiringLink,
    description: job.description,
    requiredDegree: job.requiredDegree,
    skills: { ...EMPTY_FORM.skills, ...job.skills },
    keywords: job.keywords,
  };
}

/** The form's label of each field a job must have, for messages a person reads. */
const FIELD_LABELS: Record<(typeof REQUIRED_JOB_FIELDS)[number], string> = {
  companyName: "Company Name",
  role: "Role",
  location: "Location",
  experience: "Experience",
  hiringLink: "Hiring Link",
  description: "Job Description",
  requiredDegree: "Required Degree",
};

type FieldErrors = Partial<Record<keyof FormValues, string>>;

/**
 * The form's values as a job body; else a toast naming what is wrong by the fields' labels, and
 * each field's own message for the form to show beside it.
 */
function validated(values: FormValues): { job: JobInput } | { errors: FieldErrors } {
  const missing = missingJobFields(values) as (typeof REQUIRED_JOB_FIELDS)[number][];
  if (missing.length) {
    const labels = missing.map((field) => FIELD_LABELS[field]);
    toast.error(`Please fill in: ${labels.join(", ")}`);
    return {
      errors: Object.fromEntries(
        missing.map((field) => [field, `${FIELD_LABELS[field]} is required`]),
      ),
    };
  }
  const parsed = jobInputSchema.safeParse(values);
  if (!parsed.success) {
    const message = describeIssue(parsed.error);
    toast.error(message);
    const field = parsed.error.issues[0]?.path[0];
    return { errors: typeof field === "string" && field in values ? { [field]: message } : {} };
  }
  return { job: parsed.data };
}

function existingJobOf(error: unknown): Job | null {
  const existing = error instanceof ApiError ? error.body.existingJob : null;
  return existing && typeof existing === "object" ? existing as Job : null;
}

const INPUT_TABS = [
  { id: "form", label: "Form Input" },
  { id: "json", label: "JSON Upload" },
] as const;

export function CreateJobScreen() {
  const admin = useAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<(typeof INPUT_TABS)[number]["id"]>("form");
  const [busy, setBusy] = useState(false);
  const [duplicate, setDuplicate] = useState<Job | null>(null);
  const tabsId = useId();

  if (!can(admin, "canCreateJobs")) {
    return <AccessDenied reason="You don't have permission to create jobs" />;
  }

  const create = async (job: JobInput) => {
    setBusy(true);
    try {
      try {
        const check = await api.post<DuplicateCheck>("/jobs/check-duplicate", {
          hiringLink: job.hiringLink,
        });
        if (check.isDuplicate && check.existingJob) {
          setDuplicate(check.existingJob);
          return;
        }
      } catch (error) {
        // SPEC section 8: a failed check is logged and treated as no duplicate; the create decides.
        console.error("Duplicate check failed", error);
      }
      await api.post<JobAnswer>("/jobs", job);
      await jobsChanged(queryClient);
      toast.success("Job created successfully!");
      await navigate({ to: "/admin/jobs" });
    } catch (error) {
      const existing = existingJobOf(error);
      if (existing) setDuplicate(existing);
      else toast.error(messageOf(error, "Error creating job"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Link to="/admin/jobs" className="mb-4 inline-block text-sm font-medium text-indigo-700">
        ← Back to Jobs
      </Link>
      <PageHeader title="Create Job" subtitle="Post a new job listing" />
      <p
        role="note"
        className="mb-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      >
        Duplicate hiring links are not allowed: a job whose hiring link is already used by an active
        job is rejected.
      </p>
      <Tabs
        label="Input method"
        className="mb-6"
        tabs={INPUT_TABS}
        selected={tab}
        onSelect={setTab}
        tabId={(id) => `${tabsId}-${id}`}
        panelId={(id) => `${tabsId}-${id}-panel`}
      />
      <div
        role="tabpanel"
        id={`${tabsId}-${tab}-panel`}
        aria-labelledby={`${tabsId}-${tab}`}
      >
        {tab === "form"
          ? (
            <JobForm
              initial={EMPTY_FORM}
              busy={busy}
              submitLabel="Create Job"
              busyLabel="Creating..."
              onSubmit={create}
              onCancel={() => navigate({ to: "/admin/jobs" })}
            />
          )
          : <JsonUpload />}
      </div>
      <Dialog
        open={duplicate !== null}
        onClose={() => setDuplicate(null)}
        title="Duplicate Job Detected"
      >
        {duplicate && (
          <>
            <p className="text-sm text-slate-600">
              An active job already uses this hiring link:
            </p>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-4 text-sm">
              <dt className="text-slate-600">Role</dt>
              <dd className="font-medium">{duplicate.role}</dd>
              <dt className="text-slate-600">Company</dt>
              <dd className="font-medium">{duplicate.companyName}</dd>
              <dt className="text-slate-600">Location</dt>
              <dd className="font-medium">{duplicate.location}</dd>
              <dt className="text-slate-600">Posted</dt>
              <dd className="font-medium">{formatDate(duplicate.datePosted)}</dd>
            </dl>
            <div className="mt-6 flex justify-end gap-3">
              <button type="button" className="btn-secondary" onClick={() => setDuplicate(null)}>
                Close
              </button>
              <button
                type="button"
                className="btn-primary"
                onClick={() =>
                  navigate({ to: "/admin/jobs/edit/$id", params: { id: duplicate._id } })}
              >
                View/Edit Existing Job
              </button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}

export function EditJobScreen() {
  const admin = useAdmin();
  const { id } = useParams({ from: "/admin/jobs/edit/$id" });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const job = useQuery({
    queryKey: queryKeys.job(id),
    queryFn: () => api.get<Job>(`/jobs/${encodeURIComponent(id)}`),
    enabled: can(admin, "canCreateJobs"),
  });
  useEffect(() => {
    if (!job.error) return;
    toast.error("Error loading job details");
    void navigate({ to: "/admin/jobs" });
  }, [job.error]);

  if (!can(admin, "canCreateJobs")) {
    return <AccessDenied reason="You don't have permission to edit jobs" />;
  }
  if (!job.data) {
    return <p role="status" className="py-16 text-center text-slate-600">Loading job details...</p>;
  }

  const save = async (body: JobInput) => {
    setBusy(true);
    try {
      await api.put<JobAnswer>(`/jobs/${job.data._id}`, body);
      await jobsChanged(queryClient);
      toast.success("Job updated successfully!");
      await navigate({ to: "/admin/jobs" });
    } catch (error) {
      const existing = existingJobOf(error);
      if (existing) {
        toast.error(
          `Duplicate hiring link! This link is already used by "${existing.role}" at ${existing.companyName}`,
          { duration: DUPLICATE_TOAST_MS },
        );
      } else toast.error(messageOf(error, "Error updating job"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Edit Job" subtitle={`${job.data.jobId} · ${job.data.companyName}`} />
      <JobForm
        key={job.data._id}
        initial={formFromJob(job.data)}
        busy={busy}
        submitLabel="Update Job"
        busyLabel="Saving..."
        onSubmit={save}
        onCancel={() => navigate({ to: "/admin/jobs" })}
      />
    </>
  );
}

function JobForm({ initial, busy, submitLabel, busyLabel, onSubmit, onCancel }: {
  initial: FormValues;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (job: JobInput) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempts, setAttempts] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  // After a refused submit, focus goes to the first field marked invalid.
  useEffect(() => {
    if (attempts) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);
  const set = (field: keyof FormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validated(values);
    if ("job" in result) {
      setErrors({});
      onSubmit(result.job);
      return;
    }
    setErrors(result.errors);
    setAttempts((count) => count + 1);
  };

  return (
    <form ref={form} noValidate onSubmit={submit} className="space-y-6">
      <fieldset className="card p-5">
        <legend className="px-1 text-lg font-semibold">Basic Information</legend>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label="Company Name"
            required
            value={values.companyName}
            onChange={set("companyName")}
            error={errors.companyName}
          />
          <TextField
            label="Company Logo URL"
            type="url"
            value={values.companyLogo}
            onChange={set("companyLogo")}
            error={errors.companyLogo}
            placeholder="https://"
          />
          <TextField
            label="Role"
            required
            value={values.role}
            onChange={set("role")}
            error={errors.role}
          />
          <TextField
            label="Location"
            required
            value={values.location}
            onChange={set("location")}
            error={errors.location}
          />
          <SelectField
            label="Experience"
            value={values.experience}
            onChange={set("experience")}
            error={errors.experience}
            options={EXPERIENCE_OPTIONS}
            placeholder="Select experience"
          />
          <SelectField
            label="Employment Type"
            value={values.employmentType}
            onChange={set("employmentType")}
            error={errors.employmentType}
            options={EMPLOYMENT_TYPES}
          />
          <TextField
            label="Estimated Package (₹)"
            value={values.estPackage}
            onChange={set("estPackage")}
            error={errors.estPackage}
            placeholder="8-12 LPA"
          />
          <TextField
            label="Hiring Link"
            type="url"
            required
            value={values.hiringLink}
            onChange={set("hiringLink")}
            error={errors.hiringLink}
            placeholder="https://"
          />
        </div>
      </fieldset>

      <fieldset className="card p-5">
        <legend className="px-1 text-lg font-semibold">Job Details</legend>
        <div className="space-y-4">
          <TextArea
            label="Job Description"
            rows={6}
            value={values.description}
            onChange={set("description")}
            error={errors.description}
          />
          <TextArea
            label="Required Degree"
            rows={3}
            value={values.requiredDegree}
            onChange={set("requiredDegree")}
            error={errors.requiredDegree}
          />
        </div>
      </fieldset>

      <fieldset className="card p-5">
        <legend className="px-1 text-lg font-semibold">Skills &amp; Keywords</legend>
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          {SKILL_GROUPS.map((group) => (
            <ListField
              key={group}
              label={SKILL_GROUP_LABELS[group]}
              items={values.skills[group]}
              onChange={(items) =>
                setValues((current) => ({
                  ...current,
                  skills: { ...current.skills, [group]: items },
                }))}
            />
          ))}
          <ListField
            label="Keywords"
            items={values.keywords}
            onChange={(keywords) => setValues((current) => ({ ...current, keywords }))}
          />
        </div>
      </fieldset>

      <FormButtons busy={busy} label={submitLabel} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}

function Required() {
  return <span className="text-red-700" aria-hidden="true">*</span>;
}

/** A field's message under it, tied to the control by aria-describedby. */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? <p id={`${id}-error`} className="mt-1 text-sm text-red-700">{error}</p> : null;
}

/** The attributes that mark a control invalid and point it at its message. */
function invalid(id: string, error: string | undefined) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  } as const;
}

function TextField(
  { label, value, onChange, type = "text", required = false, placeholder, error }: {
    label: string;
    value: string;
    onChange: (value: string) => void;
    type?: "text" | "url";
    required?: boolean;
    placeholder?: string;
    error?: string;
  },
) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">{label} {required && <Required />}</label>
      <input
        id={id}
        type={type}
        className="field"
        required={required}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        {...invalid(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

function TextArea({ label, value, onChange, rows, error }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label} <Required />
      </label>
      <textarea
        id={id}
        rows={rows}
        required
        className="field"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...invalid(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

function SelectField({ label, value, onChange, options, placeholder, error }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly string[];
  placeholder?: string;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label} <Required />
      </label>
      <select
        id={id}
        required
        className="field"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...invalid(id, error)}
      >
        {placeholder && <option value="">{placeholder}</option>}
        {options.map((option) => <option key={option} value={option}>{option}</option>)}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
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

const EXAMPLE = JSON.stringify(
  {
    jobs: [
      {
        companyName: "Acme Corp",
        companyLogo: "https://acme.example/logo.png",
        role: "Software Engineer",
        location: "Bengaluru, India",
        experience: "2-3",
        employmentType: "Full-Time",
        description: "Build and run the services behind our product.",
        requiredDegree: "B.Tech in Computer Science or equivalent",
        hiringLink: "https://acme.example/careers/software-engineer",
        estPackage: "8-12 LPA",
        skills: {
          languages: ["TypeScript"],
          technologies: ["Docker"],
          frameworks: ["React"],
          databases: ["PostgreSQL"],
          tools: ["Git"],
          others: ["Communication"],
        },
        keywords: ["backend", "cloud"],
      },
    ],
  },
  null,
  2,
);

/** A row as the person uploading it knows it: its role and company, where the row has them. */
function rowLabel(row: unknown): string {
  if (!row || typeof row !== "object") return "";
  const { role, companyName } = row as { role?: unknown; companyName?: unknown };
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  return [text(role), text(companyName)].filter(Boolean).join(" at ");
}

interface UploadOutcome {
  created: number;
  /** Rows not created, in row order: duplicates and errors together. */
  failed: (BulkRowProblem & { label: string })[];
  /** The failed rows as uploaded, to fix and upload again. */
  failedJson: string;
}

/** What the upload did: the counts, and each row that was not created with its reason. */
function UploadResult({ outcome, onRetryFailed }: {
  outcome: UploadOutcome;
  onRetryFailed: () => void;
}) {
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  // The result appears below a long form: bring it into view where the person is looking.
  useEffect(() => {
    section.current?.scrollIntoView({ block: "nearest" });
  }, [outcome]);
  const { created, failed } = outcome;
  return (
    <section ref={section} aria-labelledby={headingId} className="card space-y-3 p-5 text-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">Upload result</h2>
      <p role="status" className="text-slate-700">
        {plural(created, "job")} created, {plural(failed.length, "row")} not created.
      </p>
      {failed.length > 0 && (
        <>
          <table className="w-full table-fixed border-collapse text-left">
            <caption className="sr-only">Rows not created</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th scope="col" className="w-14 py-2 pr-2 font-semibold">Row</th>
                <th scope="col" className="w-1/3 py-2 pr-2 font-semibold">Job</th>
                <th scope="col" className="py-2 font-semibold">Problem</th>
              </tr>
            </thead>
            <tbody>
              {failed.map((row) => (
                <tr key={row.index} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-2 font-mono">{row.index + 1}</td>
                  <td className="py-2 pr-2 break-words">{row.label || "—"}</td>
                  <td className="py-2 break-words text-red-700">{row.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-secondary" onClick={onRetryFailed}>
              Keep only the rows not created
            </button>
            {created > 0 && (
              <Link to="/admin/jobs" className="btn-secondary">Go to Manage Jobs</Link>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function JsonUpload() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<UploadOutcome | null>(null);
  const id = useId();
  const fileId = useId();

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setText(await file.text());
    setOutcome(null);
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      toast.error("Invalid JSON format");
      return;
    }
    const jobs = data && typeof data === "object" ? (data as { jobs?: unknown }).jobs : undefined;
    if (!Array.isArray(jobs)) {
      toast.error('JSON must contain a "jobs" array');
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api.post<BulkAnswer>("/jobs/bulk", { jobs });
      const { summary } = answer;
      if (summary.created > 0) toast.success(`${summary.created} jobs created successfully!`);
      if (summary.duplicates > 0) {
        toast.warning(`${summary.duplicates} jobs rejected due to duplicate hiring links`);
      }
      if (summary.errors > 0) toast.error(`${summary.errors} jobs failed to create`);
      await jobsChanged(queryClient);
      const failed = [...answer.duplicates, ...answer.errors]
        .sort((a, b) => a.index - b.index)
        .map((row) => ({ ...row, label: rowLabel(jobs[row.index]) }));
      // With every row created the list is where to go; otherwise the rows not created stay in
      // view, to be fixed and uploaded again.
      if (summary.created > 0 && failed.length === 0) {
        await navigate({ to: "/admin/jobs" });
        return;
      }
      setOutcome({
        created: summary.created,
        failed,
        failedJson: JSON.stringify({ jobs: failed.map((row) => jobs[row.index]) }, null, 2),
      });
    } catch (error) {
      toast.error(messageOf(error, "Error creating jobs"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={upload} className="space-y-6">
      <section className="card p-5 text-sm text-slate-700">
        <h2 className="text-lg font-semibold text-slate-900">Format guide</h2>
        <p className="mt-2">
          Paste a JSON object with a <code className="font-mono">jobs</code>{" "}
          array; each entry is one job with the same fields as the form. Skills are lists under{" "}
          {SKILL_GROUPS.map((group) => <code key={group} className="mr-1 font-mono">{group}</code>)}
          and keywords a list of words. Experience is one of{" "}
          {EXPERIENCE_OPTIONS.join(", ")}; employment type one of {EMPLOYMENT_TYPES.join(", ")}{" "}
          (Full-Time when left out).
        </p>
        <h3 className="mt-4 font-semibold text-slate-900">Required fields</h3>
        <ul className="mt-1 flex flex-wrap gap-2">
          {REQUIRED_JOB_FIELDS.map((field) => (
            <li key={field} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">
              {field}
            </li>
          ))}
        </ul>
        <p className="mt-2">Each hiringLink must be a valid URL not used by another active job.</p>
        <div className="mt-4 flex items-center justify-between">
          <h3 className="font-semibold text-slate-900">Example</h3>
          <button type="button" className="btn-secondary" onClick={() => setText(EXAMPLE)}>
            Use Example
          </button>
        </div>
        <pre
          tabIndex={0}
          className="mt-2 max-h-64 overflow-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100"
        >{EXAMPLE}</pre>
      </section>
      <div>
        <label htmlFor={fileId} className="field-label">JSON file</label>
        <input
          id={fileId}
          type="file"
          accept="application/json,.json"
          className="field"
          onChange={(event) => readFile(event.target.files?.[0])}
        />
      </div>
      <div>
        <label htmlFor={id} className="field-label">Jobs JSON</label>
        <textarea
          id={id}
          rows={20}
          className="field font-mono"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder='{ "jobs": [ ... ] }'
        />
      </div>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Uploading..." : "Upload Jobs"}
        </button>
      </div>
      {outcome && (
        <UploadResult
          outcome={outcome}
          onRetryFailed={() => {
            setText(outcome.failedJson);
            setOutcome(null);
          }}
        />
      )}
    </form>
  );
}
