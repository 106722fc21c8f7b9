/** The shapes of the API answers the admin screens read. */
import type { Admin, JobWithAnalytics, Permission } from "../../kv/schemas.ts";
import type { Pagination } from "../../kv/jobs/paging.ts";
import type { StatusCounts } from "../../kv/jobs/records.ts";

export type { Admin, JobWithAnalytics as Job, Pagination, Permission, StatusCounts };
// Every report's shape, as the readers in kv/analytics/ answer it: a new report adds no line here.
export type * from "../../kv/analytics/types.ts";

export interface JobList {
  jobs: JobWithAnalytics[];
  pagination: Pagination;
}

export interface AdminJobList extends JobList {
  statusCounts: StatusCounts;
}

export interface JobAnswer {
  message: string;
  job: JobWithAnalytics;
}

export interface DuplicateCheck {
  isDuplicate: boolean;
  existingJob: JobWithAnalytics | null;
}

/** One row of a bulk upload that was not created, and why. */
export interface BulkRowProblem {
  index: number;
  message: string;
  /** The row's role and company, where it has them. */
  role?: string;
  companyName?: string;
}

export interface BulkAnswer {
  message: string;
  summary: { created: number; duplicates: number; errors: number };
  created: { index: number; _id: string; jobId: string; role: string; companyName: string }[];
  duplicates: BulkRowProblem[];
  errors: BulkRowProblem[];
}

/** `GET /api/admin/alerts`: job alert totals, for the main admin. */
export interface AlertTotals {
  confirmed: number;
  days: { day: string; sent: number; failed: number; confirmed: number }[];
}
