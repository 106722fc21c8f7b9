/**
 * Pages of job lists: the page arithmetic every list answers with, and the reading of one page
 * straight from a KV index in its order.
 */
import type { Job, JobStatus } from "../schemas.ts";
import type { StatusCounts } from "./records.ts";

export interface AdminListPage {
  jobs: Job[];
  pagination: Pagination;
  statusCounts: StatusCounts;
}

export interface Pagination {
  currentPage: number;
  totalJobs: number;
  totalPages: number;
  hasPrev: boolean;
  hasNext: boolean;
  limit: number;
}

export interface AdminListQuery {
  status: JobStatus | "all";
  page: number;
  limit: number;
  search?: string;
  company?: string;
  location?: string;
  sortBy?: "datePosted" | "movedToDumpAt";
  sortOrder?: "asc" | "desc";
}

export function paginate(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    currentPage: page,
    totalJobs: total,
    totalPages,
    hasPrev: page > 1,
    hasNext: page < totalPages,
    limit,
  };
}

/**
 * One page of a KV index in its key order (or reversed): the entries after `offset`, at most
 * `limit`. A batch is read whole even past the limit, so it never asks for more than the page needs.
 */
export async function readIndexPage<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  { reverse, offset, limit, consistency }: {
    reverse: boolean;
    offset: number;
    limit: number;
    consistency?: Deno.KvConsistencyLevel;
  },
): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  let index = 0;
  for await (
    const entry of kv.list<T>({ prefix }, {
      consistency,
      reverse,
      limit: offset + limit,
      batchSize: Math.min(offset + limit, 500),
    })
  ) {
    if (index++ >= offset) entries.push(entry);
  }
  return entries;
}
