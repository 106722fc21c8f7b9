/**
 * Jobs as CSV: a bulk upload sent as `content-type: text/csv`, read into the jobs a JSON upload
 * sends; and Manage Jobs' export of the jobs a filter shows.
 */
import type { Context } from "hono";
import { parse } from "csv-parse/sync";
import { fail } from "../../server/errors.ts";
import type { Services } from "../../server/context.ts";
import {
  cellSeparatorOf,
  EXPORT_ONLY_COLUMNS,
  JOB_CSV_COLUMNS,
  jobCsvValues,
  jobsFromCsvRows,
  NOT_UTF8,
  textOfFile,
} from "../../kv/jobs/csv.ts";
import type { AdminListQuery } from "../../kv/jobs/paging.ts";
import type { Job, JobWithAnalytics } from "../../kv/schemas.ts";
import { CSV_BOM, csvCell } from "./analytics.ts";

export function isCsv(c: Context): boolean {
  return (c.req.header("content-type") ?? "").toLowerCase().startsWith("text/csv");
}

/** The upload's `{ jobs }`; a file that is not CSV, or whose header is wrong, is a 400. */
export async function readCsvJobs(c: Context): Promise<{ jobs: unknown[] }> {
  const text = textOfFile(new Uint8Array(await c.req.arrayBuffer()));
  if (text === null) fail(400, NOT_UTF8);
  let rows: string[][];
  try {
    // Quoted cells may hold commas, quotes and line breaks; a row may leave trailing cells out. A
    // row of blank cells is how a spreadsheet writes a row it once held: it is no job.
    rows = parse(text, {
      bom: true,
      delimiter: cellSeparatorOf(text),
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
    });
  } catch (error) {
    fail(400, `Invalid CSV format: ${error instanceof Error ? error.message : "unreadable"}`);
  }
  const result = jobsFromCsvRows(rows);
  if ("message" in result) fail(400, result.message);
  return result;
}

/** Jobs read per step of an export: the file streams out as it is read, never held whole. */
const EXPORT_PAGE = 200;

const EXPORT_COLUMNS = [...EXPORT_ONLY_COLUMNS, ...JOB_CSV_COLUMNS];

function exportRow(job: JobWithAnalytics): string {
  const cells = [
    job.jobId,
    job.status,
    job.datePosted,
    job.analytics?.views ?? 0,
    job.analytics?.clicks ?? 0,
    ...jobCsvValues(job),
  ];
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** Every job the filter finds, newest first, one CSV row each, formula-safe. */
export function exportJobsCsv(
  { jobs }: Services,
  filter: Pick<AdminListQuery, "status" | "search" | "company" | "location">,
  fileName: string,
): Response {
  const encoder = new TextEncoder();
  let pages: AsyncGenerator<Job[]> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!pages) {
        pages = jobs.exportPages(filter, EXPORT_PAGE);
        controller.enqueue(encoder.encode(`${CSV_BOM}${EXPORT_COLUMNS.join(",")}\r\n`));
        return;
      }
      const next = await pages.next();
      if (next.done) return controller.close();
      const rows = await jobs.withAnalytics(next.value);
      controller.enqueue(encoder.encode(rows.map(exportRow).join("")));
    },
    async cancel() {
      await pages?.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    },
  });
}
