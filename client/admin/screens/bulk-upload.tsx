/**
 * The JSON Upload tab of Create Job: the format guide with its example and a CSV template, reading
 * a JSON or CSV file or pasted text, sending the jobs at once, and the result: each row that was
 * not created and why, the rows already posted summed up with their list folded.
 */
import { type FormEvent, Fragment, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  REQUIRED_JOB_FIELDS,
  SKILL_GROUPS,
} from "../../../kv/schemas.ts";
import { JOB_CSV_COLUMNS, NOT_UTF8, textOfFile } from "../../../kv/jobs/csv.ts";
import { JOB_FIELDS, type JobFieldTable } from "../../../kv/job-fields.ts";
import { plainWords } from "./job-form-fields.tsx";
import { api, messageOf } from "../api.ts";
import { saveFile } from "../download.ts";
import { jobsChanged } from "../queries.ts";
import { plural } from "../ui.tsx";
import type { BulkAnswer, BulkRowProblem } from "../types.ts";

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

const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

/** The CSV template: the header of every column, and the example job as its one row. */
function csvTemplate(): string {
  const job = (JSON.parse(EXAMPLE) as { jobs: Record<string, unknown>[] }).jobs[0];
  const skills = job.skills as Record<string, string[]>;
  const row = JOB_CSV_COLUMNS.map((column) => {
    const value = column in skills ? skills[column] : job[column];
    return quoted(Array.isArray(value) ? value.join("; ") : String(value ?? ""));
  });
  return `${JOB_CSV_COLUMNS.join(",")}\r\n${row.join(",")}\r\n`;
}

const downloadTemplate = () =>
  saveFile(new Blob([csvTemplate()], { type: "text/csv" }), "careeredge-jobs-template.csv");

/** Pasted or read text is JSON when it starts as JSON does; anything else is read as CSV. */
const isJsonText = (text: string) => /^\s*[{[]/.test(text);

/** A row as the person uploading it knows it: its role and company, as the server read them. */
const rowLabel = ({ role, companyName }: BulkRowProblem): string =>
  [role, companyName].filter(Boolean).join(" at ");

/** A row's problem as the form says it: its field by the label, a link's in plain words. */
function rowMessage(message: string): string {
  const [, name, problem] = /^(\w+): (.*)$/s.exec(message) ?? [];
  const spec = name ? (JOB_FIELDS as JobFieldTable)[name] : undefined;
  if (!spec) return message;
  return `${spec.label}: ${spec.kind === "url" ? plainWords(spec, problem) : problem}`;
}

interface UploadOutcome {
  created: number;
  /** Rows whose hiring link an active job (or an earlier row) already uses, in row order. */
  duplicates: (BulkRowProblem & { label: string })[];
  /** Rows with a problem to fix, in row order. */
  errors: (BulkRowProblem & { label: string })[];
  /** The rows not created as uploaded, to fix and upload again (a JSON upload only). */
  failedJson: string | null;
}

/** What the upload did: the counts, each row with a problem, and the rows already posted. */
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
  const { created, duplicates, errors, failedJson } = outcome;
  return (
    <section ref={section} aria-labelledby={headingId} className="card space-y-3 p-5 text-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">Upload result</h2>
      <p role="status" className="text-slate-700">
        {plural(created, "job")} created, {plural(duplicates.length + errors.length, "row")}{" "}
        not created.
      </p>
      {duplicates.length > 0 && (
        <details className="rounded-lg bg-amber-50 p-3 text-amber-900">
          <summary className="cursor-pointer font-medium">
            {duplicates.length} already posted
          </summary>
          <ul className="mt-2 space-y-1">
            {duplicates.map((row) => (
              <li key={row.index} className="break-words">
                <span className="font-mono">Row {row.index + 1}</span>
                {row.label && ` · ${row.label}`} — {row.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {errors.length > 0 && (
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
            {errors.map((row) => (
              <tr key={row.index} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-2 font-mono">{row.index + 1}</td>
                <td className="py-2 pr-2 break-words">{row.label || "—"}</td>
                <td className="py-2 break-words text-red-700">{row.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(failedJson !== null || created > 0) && (
        <div className="flex flex-wrap gap-2">
          {failedJson !== null && (
            <button type="button" className="btn-secondary" onClick={onRetryFailed}>
              Keep only the rows not created
            </button>
          )}
          {created > 0 && <Link to="/admin/jobs" className="btn-secondary">Go to Manage Jobs</Link>}
        </div>
      )}
    </section>
  );
}

/**
 * What to send: the jobs of a JSON text (null, with the reason said, when it is not a JSON object
 * with a jobs array), or none for a CSV text, which the server reads itself.
 */
function readUpload(text: string): { csv: boolean; jobs: unknown[] } | null {
  if (!isJsonText(text)) return { csv: true, jobs: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    toast.error("Invalid JSON format");
    return null;
  }
  const listed = data && typeof data === "object" ? (data as { jobs?: unknown }).jobs : undefined;
  if (!Array.isArray(listed)) {
    toast.error('JSON must contain a "jobs" array');
    return null;
  }
  return { csv: false, jobs: listed };
}

/** Sending the jobs at once: with every row created, on to Manage Jobs; else the outcome. */
function useBulkUpload() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<UploadOutcome | null>(null);

  const upload = async (text: string) => {
    const read = readUpload(text);
    if (read === null) return;
    const { csv, jobs } = read;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = csv
        ? await api.postText<BulkAnswer>("/jobs/bulk", text, "text/csv")
        : await api.post<BulkAnswer>("/jobs/bulk", { jobs });
      const { summary } = answer;
      if (summary.created > 0) toast.success(`${summary.created} jobs created successfully!`);
      if (summary.duplicates > 0) {
        toast.warning(`${summary.duplicates} jobs rejected due to duplicate hiring links`);
      }
      if (summary.errors > 0) toast.error(`${summary.errors} jobs failed to create`);
      await jobsChanged(queryClient);
      // With every row created the list is where to go; otherwise the rows not created stay in
      // view, to be fixed and uploaded again.
      if (summary.created > 0 && summary.duplicates + summary.errors === 0) {
        await navigate({ to: "/admin/jobs" });
        return;
      }
      const labelled = (rows: BulkRowProblem[]) =>
        rows.map((row) => ({ ...row, label: rowLabel(row), message: rowMessage(row.message) }));
      const failed = [...answer.duplicates, ...answer.errors].sort((a, b) => a.index - b.index);
      setOutcome({
        created: summary.created,
        duplicates: labelled(answer.duplicates),
        errors: labelled(answer.errors),
        failedJson: csv
          ? null
          : JSON.stringify({ jobs: failed.map((row) => jobs[row.index]) }, null, 2),
      });
    } catch (error) {
      toast.error(messageOf(error, "Error creating jobs"));
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, upload, clearOutcome: () => setOutcome(null) };
}

export function JsonUpload() {
  const [text, setText] = useState("");
  const { busy, outcome, upload, clearOutcome } = useBulkUpload();
  const id = useId();
  const fileId = useId();

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    const read = textOfFile(new Uint8Array(await file.arrayBuffer()));
    if (read === null) {
      toast.error(NOT_UTF8);
      return;
    }
    setText(read);
    clearOutcome();
  };

  return (
    <form
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void upload(text);
      }}
      className="space-y-6"
    >
      <FormatGuide onUseExample={() => setText(EXAMPLE)} />
      <div>
        <label htmlFor={fileId} className="field-label">JSON or CSV file</label>
        {/* Excel saves its tab-separated "Unicode Text" as .txt. */}
        <input
          id={fileId}
          type="file"
          accept="application/json,.json,text/csv,.csv,text/tab-separated-values,.tsv,text/plain,.txt"
          className="field"
          onChange={(event) => readFile(event.target.files?.[0])}
        />
      </div>
      <div>
        <label htmlFor={id} className="field-label">Jobs (JSON or CSV)</label>
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
            setText(outcome.failedJson ?? text);
            clearOutcome();
          }}
        />
      )}
    </form>
  );
}

/** The fields a job takes, in JSON and in CSV, with the example and the CSV template. */
function FormatGuide({ onUseExample }: { onUseExample: () => void }) {
  return (
    <section className="card p-5 text-sm text-slate-700">
      <h2 className="text-lg font-semibold text-slate-900">Format guide</h2>
      <p className="mt-2">
        Paste a JSON object with a <code className="font-mono">jobs</code>{" "}
        array; each entry is one job with the same fields as the form. Skills are lists under{" "}
        {SKILL_GROUPS.map((group, i) => (
          // Words apart, so that a line breaks between them, never inside one.
          <Fragment key={group}>
            {i > 0 && ", "}
            <code className="font-mono">{group}</code>
          </Fragment>
        ))}, and keywords a list of words. Experience is one of{" "}
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
      <h3 className="mt-4 font-semibold text-slate-900">CSV</h3>
      <p className="mt-1">
        A CSV file works too: a header row of field names, then one job a row. Each skill group and
        keywords is a column of its own, its entries separated by{" "}
        <code className="font-mono">;</code>. A cell holding commas, quotes or line breaks goes in
        double quotes, as spreadsheets write it.
      </p>
      <button type="button" className="btn-secondary mt-2" onClick={downloadTemplate}>
        Download CSV template
      </button>
      <div className="mt-4 flex items-center justify-between">
        <h3 className="font-semibold text-slate-900">Example</h3>
        <button type="button" className="btn-secondary" onClick={onUseExample}>
          Use Example
        </button>
      </div>
      <pre
        tabIndex={0}
        className="mt-2 max-h-64 overflow-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100"
      >{EXAMPLE}</pre>
    </section>
  );
}
