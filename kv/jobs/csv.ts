/**
 * Jobs as spreadsheet rows, for the bulk upload's CSV and the Manage Jobs export: one column per job field (from the field
 * table, so a field added there is a column here), the skill groups each a column of their own, and
 * lists written as entries separated by `;`.
 */
import { JOB_FIELDS } from "../job-fields.ts";
import { type Job, SKILL_GROUPS } from "../schemas.ts";
import { describePay, type Pay } from "./pay.ts";

const LIST_SEPARATOR = ";";

const fieldColumns = Object.entries(JOB_FIELDS).filter(([, spec]) => spec.kind !== "skills")
  .map(([name]) => name);

/** The header row a CSV upload may use, in this order in the template. */
export const JOB_CSV_COLUMNS: readonly string[] = [...fieldColumns, ...SKILL_GROUPS];

/**
 * The columns the Manage Jobs export writes before the upload's: what the site sets, which an
 * upload of that file passes over (its jobs get their own).
 */
export const EXPORT_ONLY_COLUMNS: readonly string[] = [
  "jobId",
  "status",
  "datePosted",
  "views",
  "clicks",
];

/** A cell a spreadsheet would read as a formula, which the export writes after an apostrophe. */
export const FORMULA_START = /^[=+\-@\t\r]/;

const LIST_COLUMNS = new Set<string>([
  ...SKILL_GROUPS,
  ...Object.entries(JOB_FIELDS).filter(([, spec]) => spec.kind === "list").map(([name]) => name),
]);

/** Pay columns, written as the upload reads them back ("₹8,00,000 - ₹12,00,000 a year"). */
const PAY_COLUMNS = new Set(
  Object.entries(JOB_FIELDS).filter(([, spec]) => spec.kind === "pay").map(([name]) => name),
);

/**
 * A file's text: UTF-8, or UTF-16 with its byte-order mark (Excel's "Unicode Text"); null for any
 * other encoding (Excel's plain "CSV" is Windows-1252), whose letters would be read broken.
 */
export function textOfFile(bytes: Uint8Array): string | null {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe
    ? "utf-16le"
    : bytes[0] === 0xfe && bytes[1] === 0xff
    ? "utf-16be"
    : null;
  try {
    return new TextDecoder(utf16 ?? "utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * What separates a file's cells: a tab when its header row has tabs and no comma (Excel's "Unicode
 * Text" is UTF-16 with tabs), else a comma. No column's name holds either.
 */
export function cellSeparatorOf(text: string): string {
  const header = text.split(/\r\n|\r|\n/, 1)[0];
  return header.includes("\t") && !header.includes(",") ? "\t" : ",";
}

/** Why a file `textOfFile` cannot read is refused. */
export const NOT_UTF8 = "The file is not UTF-8 text, so letters such as é or ₹ would be lost: in " +
  'Excel, save it as "CSV UTF-8 (Comma delimited)"';

function listOf(cell: string): string[] {
  return cell.split(LIST_SEPARATOR).map((entry) => entry.trim()).filter(Boolean);
}

/**
 * The jobs of parsed CSV rows (the first is the header), as the JSON upload would send them; or
 * the message saying what is wrong with the header. An empty cell leaves its field out, so the
 * field's default applies and a missing required field is named as the JSON upload names it.
 */
export function jobsFromCsvRows(rows: string[][]): { jobs: unknown[] } | { message: string } {
  const [header, ...body] = rows;
  if (!header) return { message: "The CSV file is empty: it needs a header row of field names" };
  const columns = header.map((name) => name.trim());
  // A spreadsheet writes a column that once held something as an empty name over empty cells.
  const unknown = columns.filter((name, index) =>
    !JOB_CSV_COLUMNS.includes(name) && !EXPORT_ONLY_COLUMNS.includes(name) &&
    (name !== "" || body.some((cells) => (cells[index] ?? "").trim() !== ""))
  );
  if (unknown.length > 0) {
    return {
      message: `Unknown column ${unknown.map((name) => `"${name}"`).join(", ")}: the columns are ${
        JOB_CSV_COLUMNS.join(", ")
      }`,
    };
  }
  const repeated = columns.find((name, index) => name !== "" && columns.indexOf(name) !== index);
  if (repeated) return { message: `Column "${repeated}" appears twice` };
  const jobs = body.map((cells) => {
    const job: Record<string, unknown> = {};
    const skills: Record<string, string[]> = {};
    columns.forEach((name, index) => {
      const cell = guardedOff(cells[index] ?? "");
      if (cell.trim() === "" || !JOB_CSV_COLUMNS.includes(name)) return;
      const value = LIST_COLUMNS.has(name) ? listOf(cell) : cell;
      if ((SKILL_GROUPS as readonly string[]).includes(name)) skills[name] = value as string[];
      else job[name] = value;
    });
    if (Object.keys(skills).length > 0) job.skills = skills;
    return job;
  });
  return { jobs };
}

/** A cell as it was before the export's apostrophe kept it from being read as a formula. */
const guardedOff = (cell: string) =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;

/** A job's cells under JOB_CSV_COLUMNS, lists written as the upload reads them. */
export function jobCsvValues(job: Job): string[] {
  const fields = job as unknown as Record<string, unknown>;
  const skills = job.skills as Record<string, string[] | undefined>;
  return JOB_CSV_COLUMNS.map((column) => {
    const value = (SKILL_GROUPS as readonly string[]).includes(column)
      ? skills[column]
      : fields[column];
    if (PAY_COLUMNS.has(column) && value) return describePay(value as Pay);
    return Array.isArray(value) ? value.join(`${LIST_SEPARATOR} `) : String(value ?? "");
  });
}
