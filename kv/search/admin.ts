/**
 * The Manage Jobs search: every job in any status by role, company, location and job ID, on the
 * same engine as the public search. It is built once per process and follows job changes as the
 * public catalogue does, so an admin's search costs a query, not an index of every job.
 */
import { JOB_STATUSES, type JobStatus } from "../schemas.ts";
import { grown } from "./postings.ts";
import { SearchIndex } from "./index.ts";
import { FIELD } from "./fields.ts";
import { locationGroups } from "./places.ts";
import { parseKeywords } from "./query.ts";
import { topOf } from "./top.ts";

/** What the admin search knows of a job. */
export interface AdminEntry {
  id: string;
  jobId: string;
  role: string;
  companyName: string;
  location: string;
  status: JobStatus;
  posted: number;
  /** When it went to dump (0 when it never did). */
  moved: number;
}

export interface AdminSearch {
  search?: string;
  company?: string;
  location?: string;
  status: JobStatus | "all";
  /** The list's order: date posted, or (the dump list) date moved to dump. */
  sortBy: "datePosted" | "movedToDumpAt";
  newestFirst: boolean;
  offset: number;
  limit: number;
}

export class AdminIndex {
  private readonly index = new SearchIndex(false);
  private status = new Uint8Array(0);
  private moved = new Float64Array(0);

  put(entry: AdminEntry): void {
    this.index.put({
      id: entry.id,
      posted: entry.posted,
      role: entry.role,
      companyName: entry.companyName,
      location: entry.location,
      jobId: entry.jobId,
    });
    const doc = this.index.span - 1;
    this.status = grown(this.status, doc + 1, doc);
    this.moved = grown(this.moved, doc + 1, doc);
    this.status[doc] = JOB_STATUSES.indexOf(entry.status);
    this.moved[doc] = entry.moved;
    if (this.index.wasteful) this.compact();
  }

  remove(id: string): void {
    this.index.remove(id);
  }

  private compact(): void {
    const ids = this.index.ids;
    const status = new Map<string, number>();
    const moved = new Map<string, number>();
    ids.forEach((id, doc) => {
      if (!this.index.alive[doc]) return;
      status.set(id, this.status[doc]);
      moved.set(id, this.moved[doc]);
    });
    this.index.compact();
    this.status = Uint8Array.from(this.index.ids, (id) => status.get(id)!);
    this.moved = Float64Array.from(this.index.ids, (id) => moved.get(id)!);
  }

  /** One page of the matching jobs' ids in the list's order, and how many match. */
  find(query: AdminSearch): { ids: string[]; total: number } {
    const matches = adminMatches(this.index, query);
    const wanted = query.status === "all" ? -1 : JOB_STATUSES.indexOf(query.status);
    const found = wanted === -1 ? matches : matches.filter((doc) => this.status[doc] === wanted);
    const time = query.sortBy === "movedToDumpAt" ? this.moved : this.index.posted;
    const { ids } = this.index;
    const sign = query.newestFirst ? 1 : -1;
    const before = (a: number, b: number) => {
      const x = found[a];
      const y = found[b];
      return sign * (time[x] - time[y]) > 0 ||
        (time[x] === time[y] && (sign > 0 ? ids[x] > ids[y] : ids[x] < ids[y]));
    };
    const page = topOf(found.length, (at) => at, query.offset + query.limit, before)
      .slice(query.offset);
    return { ids: page.map((at) => ids[found[at]]), total: found.length };
  }
}

/**
 * The admin list's search: every word in the role, company, location or job ID, the company box's
 * words in the company, the location box's in the location. Job numbers ascending: the list's order.
 */
function adminMatches(
  index: SearchIndex,
  query: { search?: string; company?: string; location?: string },
): Uint32Array {
  // A match is read before the next one: the company's first, as marks.
  const company = index.match(parseKeywords(query.company, false).terms, FIELD.company);
  const inCompany = company && new Uint8Array(index.span);
  if (company) { for (const doc of company.docs) inCompany![doc] = 1; }
  const everywhere = index.match(
    parseKeywords(query.search, false).terms,
    FIELD.role | FIELD.company | FIELD.location | FIELD.jobId,
  );
  const located = index.located(locationGroups(query.location));
  const candidates = everywhere?.docs ?? index.liveDocs();
  return candidates.filter((doc) =>
    index.alive[doc] === 1 && (!inCompany || inCompany[doc] === 1) &&
    (!located || located[doc] === 1)
  ).sort();
}
