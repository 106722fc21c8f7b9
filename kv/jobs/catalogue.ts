/**
 * The public catalogue: the active jobs held in memory for one revision of the job data, with
 * their search index, sorted lists and filter options, following each change in place.
 */
import { CARD_DESCRIPTION_CUT } from "../constants.ts";
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS, type Job } from "../schemas.ts";
import {
  type FilterValues,
  filterValuesOf,
  PUBLIC_FILTERS,
  ROLE_CATEGORIES,
} from "../job-fields.ts";
import { yearlyTop } from "./pay.ts";
import { withDerived } from "./derived.ts";
import { SearchIndex } from "../search/index.ts";
import type { IndexedDoc } from "../search/fields.ts";
import { exportIndex, indexFromState, type IndexState } from "../search/index-state.ts";
import type { AdminIndex } from "../search/admin.ts";
import { type Facets, MAX_ROLE_OPTIONS, searchJobs } from "../search/search.ts";
import { similarJobs } from "../search/similar.ts";
import { topK } from "../search/top.ts";
import { type Loosenable, looserSearch } from "../search/looser.ts";
import { adminEntry, timeOf } from "./records.ts";
import { paginate, type Pagination } from "./paging.ts";
import type { StoredJob } from "./version.ts";

/** A public search: the table's filters (`FilterValues`: role, work mode, ...) and the rest. */
export interface PublicSearchQuery extends FilterValues {
  page: number;
  limit: number;
  keywords?: string;
  location?: string;
  /** A company's name, in any case. */
  company?: string;
  /** Rupees a year the top of the pay must reach. */
  payMin?: number;
  /** Days: only jobs posted this recently. */
  postedWithin?: number;
  /** When the Date posted windows end; now when absent. */
  now?: number;
  /** Relevance (the default) ranks keyword matches; without keywords it is newest first. */
  sortBy?: "relevance" | "datePosted" | "companyName" | "role" | "pay";
  sortOrder?: "asc" | "desc";
}

export interface FilterOptions {
  roles: string[];
  locations: string[];
  companies: string[];
  experienceOptions: string[];
  employmentTypes: string[];
  categories: string[];
}

/**
 * A job as the lists show it: its description cut to what a card shows, its repeated texts (a
 * company, a city, a skill) shared with every other job holding them. The whole record is read
 * from KV where it is shown whole (the job's page, the API, the feed).
 */
export type ListedJob = Job;

/** What the jobs like `job` are found by (`similarJobs`): its role and skills. */
export const similarBy = (job: Job) => ({
  id: job._id,
  role: job.role,
  skills: Object.values(job.skills).flat(),
});

/** Characters of a description a list keeps: one more than a card shows, so the card still cuts. */
const LISTED_DESCRIPTION = CARD_DESCRIPTION_CUT + 1;

interface CachedJob {
  job: ListedJob;
  /** The versionstamp of the record the job was taken from: a read older than it is stale. */
  stamp: string;
}

/** One copy of each repeated text of the catalogue (and of each repeated list of texts). */
class SharedTexts {
  private texts = new Map<string, string>();
  private lists = new Map<string, string[]>();

  /** Distinct texts and lists of texts held. */
  get size(): number {
    return this.texts.size + this.lists.size;
  }

  text<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const known = this.texts.get(value);
    if (known !== undefined) return known as T;
    this.texts.set(value, value);
    return value;
  }

  list(values: string[]): string[] {
    const key = values.join("\u0000");
    let known = this.lists.get(key);
    if (!known) {
      known = values.map((value) => this.text(value));
      this.lists.set(key, known);
    }
    return known;
  }

  /** The job as a list holds it (without the record's schema version). */
  listed(job: StoredJob): ListedJob {
    const { schemaVersion: _version, ...fields } = job;
    // Cut by characters as a card counts them; most text has no pair of UTF-16 halves to respect.
    const start = job.description.slice(0, LISTED_DESCRIPTION * 2);
    const cut = /[\uD800-\uDBFF]/.test(start)
      ? Array.from(start).slice(0, LISTED_DESCRIPTION).join("")
      : start.slice(0, LISTED_DESCRIPTION);
    const skills = {} as Job["skills"];
    for (const [group, values] of Object.entries(job.skills)) {
      skills[group as keyof Job["skills"]] = this.list(values);
    }
    return {
      ...fields,
      companyName: this.text(job.companyName),
      companyLogo: this.text(job.companyLogo),
      role: this.text(job.role),
      location: this.text(job.location),
      experience: this.text(job.experience),
      employmentType: this.text(job.employmentType),
      description: this.text(cut),
      requiredDegree: this.text(job.requiredDegree),
      estPackage: this.text(job.estPackage),
      status: this.text(job.status),
      skills,
      keywords: this.list(job.keywords),
    };
  }
}

/** What the search index takes from a job. */
export function indexedJob(job: Job): IndexedDoc {
  return {
    id: job._id,
    posted: timeOf(job.datePosted),
    role: job.role,
    companyName: job.companyName,
    location: job.location,
    skills: [...Object.values(job.skills).flat(), ...job.keywords],
    description: `${job.description}\n${job.requiredDegree}`,
    ...filterValuesOf(job),
    payTop: yearlyTop(job.pay),
  };
}

/** A catalogue as plain data, for a snapshot (kv/jobs/snapshot.ts). */
export interface CatalogState {
  revision: number;
  /** The listed jobs, in the order of the index's job numbers. */
  jobs: ListedJob[];
  stamps: string[];
  index: IndexState;
}

/**
 * The minute a search's Date posted windows end at: answers are kept per revision of the jobs, so
 * their windows move once a minute, not at every request; the minute goes in each answer's cache
 * key. "Last 24 hours" is then never more than a minute off (on the hour, a job posted 24 hours and
 * 59 minutes before was in it).
 */
export function postedClock(now = Date.now()): number {
  return now - now % 60_000;
}

/** A list in date order with no words or filters: KV's date-ordered index answers it alone. */
export function plainList(query: PublicSearchQuery): boolean {
  const { keywords, location, company, payMin, postedWithin } = query;
  const sortBy = query.sortBy ?? "relevance";
  return !keywords?.trim() && !location?.trim() &&
    PUBLIC_FILTERS.every(({ param }) => !query[param]) &&
    company === undefined && payMin === undefined && !postedWithin &&
    (sortBy === "relevance" || sortBy === "datePosted");
}

/** A page of the public search, with the counts of each dropdown's options. */
export interface SearchPage {
  jobs: Job[];
  pagination: Pagination;
  facets: Facets;
  /** Whether no job has every word searched for, and these have the most of them. */
  partial: boolean;
  /**
   * The last moment (ms) the page holds for: at a later minute one of its jobs, or of the jobs its
   * Date posted counts count, has left a window (`SearchAnswer.until`).
   */
  until: number;
}

/** The active jobs held in memory for public reads, valid for one revision of `jobs_meta`. */
export class ActiveCatalog {
  readonly byId = new Map<string, CachedJob>();
  /** Each active job's id by its job ID (the one in its page's URL). */
  private readonly idByJobId = new Map<string, string>();
  private newestFirst: CachedJob[] | null = null;
  private sorted = new Map<string, CachedJob[]>();
  private options: FilterOptions | null = null;
  /** The search index of these jobs, following every change (put, remove) in place. */
  private index = new SearchIndex();
  private texts = new SharedTexts();

  constructor(public revision: number) {}

  /** The admin search over jobs in every status, built at the first admin search. */
  admin: Promise<AdminIndex> | null = null;

  /**
   * Takes in a job's whole record and the versionstamp it was read with: the index reads all its
   * text, the list keeps what lists show.
   */
  put(stored: Job, stamp = "") {
    // A record from before pay, work mode and category gets them as it is read (see version.ts).
    const job = (stored as Partial<Job>).workMode === undefined ? withDerived(stored) : stored;
    const listed = this.texts.listed(job);
    this.byId.set(job._id, { job: listed, stamp });
    this.idByJobId.set(listed.jobId, job._id);
    this.index.put(indexedJob(job));
  }

  /** Follows a change: the job's record as it is now (with its stamp), or null when deleted. */
  apply(id: string, job: Job | null, stamp = "") {
    if (job?.status === "active") this.put(job, stamp);
    else {
      const gone = this.byId.get(id)?.job.jobId;
      if (gone !== undefined) this.idByJobId.delete(gone);
      this.byId.delete(id);
      this.index.remove(id);
    }
    this.admin?.then((admin) => job ? admin.put(adminEntry(job)) : admin.remove(id));
  }

  invalidate() {
    this.newestFirst = null;
    this.sorted.clear();
    this.options = null;
    // Removed and replaced jobs stay in the index as dead entries, and their texts in the shared
    // table; once they outnumber the live ones, dropping them halves memory and work.
    if (this.index.wasteful) {
      this.index.compact();
      this.texts = new SharedTexts();
      for (const cached of this.byId.values()) cached.job = this.texts.listed(cached.job);
    }
  }

  /** The versionstamp this catalogue's copy of an active job was read with. */
  stampOf(id: string): string | undefined {
    return this.byId.get(id)?.stamp;
  }

  /**
   * What a snapshot keeps: the listed jobs and their stamps in the index's order, and the index.
   * The caller keeps the catalogue unchanged until this resolves (it pauses now and then).
   */
  async exportState(pause?: () => Promise<void>): Promise<CatalogState> {
    const index = await exportIndex(this.index, pause);
    const cached = index.ids.map((id) => this.byId.get(id)!);
    return {
      revision: this.revision,
      jobs: cached.map(({ job }) => job),
      stamps: cached.map(({ stamp }) => stamp),
      index,
    };
  }

  /**
   * The catalogue a snapshot describes. Its jobs are taken as they are: the snapshot already
   * stores each repeated text and list once, so they are shared as a loaded catalogue's are.
   */
  static fromState(state: CatalogState): ActiveCatalog {
    const catalog = new ActiveCatalog(state.revision);
    catalog.index = indexFromState(state.index);
    state.jobs.forEach((job, i) => {
      catalog.byId.set(job._id, { job, stamp: state.stamps[i] });
      catalog.idByJobId.set(job.jobId, job._id);
    });
    return catalog;
  }

  /** The id of the active job with this job ID, when there is one. */
  idOf(jobId: string): string | undefined {
    return this.idByJobId.get(jobId);
  }

  /** Distinct texts the lists hold: they follow the live jobs, not every edit ever made. */
  get sharedTexts(): number {
    return this.texts.size;
  }

  /** Active jobs, newest first (ties by id so the order is stable across processes). */
  list(
    sortBy: "datePosted" | "companyName" | "role" = "datePosted",
    order: "asc" | "desc" = "desc",
  ) {
    const name = `${sortBy}:${order}`;
    let list = this.sorted.get(name);
    if (list) return list;
    if (!this.newestFirst) {
      this.newestFirst = [...this.byId.values()].sort((a, b) =>
        timeOf(b.job.datePosted) - timeOf(a.job.datePosted) || (b.job._id < a.job._id ? -1 : 1)
      );
    }
    if (sortBy === "datePosted") {
      list = order === "desc" ? this.newestFirst : [...this.newestFirst].reverse();
    } else {
      const collator = new Intl.Collator("en", { sensitivity: "base" });
      const sign = order === "asc" ? 1 : -1;
      list = [...this.newestFirst].sort((a, b) =>
        sign * collator.compare(a.job[sortBy], b.job[sortBy])
      );
    }
    this.sorted.set(name, list);
    return list;
  }

  /** One page of a search, in the asked order, with the counts of each dropdown's options. */
  page(query: PublicSearchQuery): SearchPage {
    const sortBy = query.sortBy ?? "relevance";
    const answer = searchJobs(this.index, {
      keywords: query.keywords,
      location: query.location,
      ...filterValuesOf(query),
      company: query.company,
      payMin: query.payMin,
      postedWithin: query.postedWithin,
      now: query.now,
      order: sortBy === "relevance"
        ? "relevance"
        : sortBy === "pay"
        ? query.sortOrder === "asc" ? "lowestPay" : "pay"
        : query.sortOrder === "asc"
        ? "oldest"
        : "newest",
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const jobOf = (id: string) => this.byId.get(id)!.job;
    let jobs: Job[];
    if (sortBy === "companyName" || sortBy === "role") {
      const collator = new Intl.Collator("en", { sensitivity: "base" });
      const sign = query.sortOrder === "asc" ? 1 : -1;
      const offset = (query.page - 1) * query.limit;
      jobs = Array.from(answer.docs, (doc) => jobOf(this.index.ids[doc])).sort((a, b) =>
        sign * collator.compare(a[sortBy], b[sortBy]) ||
        timeOf(b.datePosted) - timeOf(a.datePosted) || (b._id < a._id ? -1 : 1)
      ).slice(offset, offset + query.limit);
    } else jobs = answer.ids.map(jobOf);
    return {
      jobs,
      pagination: paginate(query.page, query.limit, answer.total),
      facets: answer.facets,
      partial: answer.partial,
      until: answer.until,
    };
  }

  looser(query: Loosenable): { search: Loosenable; total: number } | null {
    return looserSearch(this.index, query);
  }

  /** Active jobs in the same role or sharing skills, most in common first, `job` excluded. */
  similar(job: Job, limit: number): Job[] {
    return similarJobs(this.index, similarBy(job), limit).map((id) => this.byId.get(id)!.job);
  }

  /**
   * The dropdowns' values: the most common roles, locations and companies (at most
   * MAX_ROLE_OPTIONS each, in name order), so the answer stays small however many jobs there are.
   * A company is one option however its jobs write it, as the company filter matches it.
   */
  filterOptions(): FilterOptions {
    if (this.options) return this.options;
    const { facets } = searchJobs(this.index, { order: "newest", offset: 0, limit: 0 });
    const jobs = [...this.byId.values()];
    this.options = {
      roles: facets.roles.map(([role]) => role),
      locations: mostCommon(jobs.map(({ job }) => job.location)),
      companies: facets.companies.map(([company]) => company),
      experienceOptions: [...EXPERIENCE_OPTIONS],
      employmentTypes: [...EMPLOYMENT_TYPES],
      categories: [...ROLE_CATEGORIES],
    };
    return this.options;
  }
}

/** The MAX_ROLE_OPTIONS values that occur most often, in name order. */
function mostCommon(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const names = [...counts.keys()];
  const top = topK(
    names.map((_, i) => i),
    MAX_ROLE_OPTIONS,
    (a, b) =>
      counts.get(names[a])! > counts.get(names[b])! ||
      (counts.get(names[a]) === counts.get(names[b]) && names[a] < names[b]),
  );
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  return top.map((i) => names[i]).sort(collator.compare);
}
