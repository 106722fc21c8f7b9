/** A bulk upload sent as CSV (`content-type: text/csv`): read into the jobs a JSON upload sends. */
import type { Context } from "hono";
import { parse } from "csv-parse/sync";
import { fail } from "../../server/errors.ts";
import { jobsFromCsvRows } from "../../kv/jobs/csv.ts";

export function isCsv(c: Context): boolean {
  return (c.req.header("content-type") ?? "").toLowerCase().startsWith("text/csv");
}

/** The upload's `{ jobs }`; a file that is not CSV, or whose header is wrong, is a 400. */
export async function readCsvJobs(c: Context): Promise<{ jobs: unknown[] }> {
  const text = await c.req.text();
  let rows: string[][];
  try {
    // Quoted cells may hold commas, quotes and line breaks; a row may leave trailing cells out.
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    fail(400, `Invalid CSV format: ${error instanceof Error ? error.message : "unreadable"}`);
  }
  const result = jobsFromCsvRows(rows);
  if ("message" in result) fail(400, result.message);
  return result;
}
