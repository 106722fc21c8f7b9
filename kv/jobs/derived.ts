/**
 * The fields a job's own text decides unless the admin sets them: its pay (read from the package),
 * its work mode (from the location) and its role category (from the role and skills). Filled in
 * when a job is written and for stored jobs by `deno task db:migrate`. Pure, for the admin form.
 */
import { REMOTE, type RoleCategory, type WorkMode } from "../job-fields.ts";
import { categoryOf } from "./category.ts";
import { type Pay, readPay } from "./pay.ts";

export type DerivedFields = {
  pay: Pay | null;
  workMode: WorkMode;
  category: RoleCategory;
};

/** What the derived fields are read from, and the values the admin set. */
export interface DerivedSource {
  location: string;
  role: string;
  estPackage?: string;
  payOverride?: Pay;
  workMode?: WorkMode;
  category?: RoleCategory;
  skills: Record<string, string[]>;
  keywords?: string[];
}

/**
 * Hybrid said outright, or as some days of the week from home or in the office ("2 days WFH", "3
 * days WFO a week"; five or six in the office is an office job) or part of the time remote
 * ("Partially remote").
 */
const HYBRID =
  /\bhybrid\b|\b[1-4]\s*days?\b[\w\s/-]{0,12}?\b(?:wfh|wfo|work[\s-]+from[\s-]+(?:home|office)|from[\s-]+(?:home|office)|in[\s-]+office|remote|on-?site)\b|\bpart(?:ial)?ly[\s-]+remote\b/i;

/**
 * "Hybrid - Pune" and "Mumbai - 2 days WFH" are Hybrid; "Remote", "Work from home", "Home based"
 * (`REMOTE`) are Remote.
 */
export function workModeOf(location: string): WorkMode {
  return HYBRID.test(location) ? "Hybrid" : REMOTE.test(location) ? "Remote" : "On-site";
}

/** The job with its derived fields: the admin's values where set, else read from its text. */
export function withDerived<T extends DerivedSource>(job: T): T & DerivedFields {
  return {
    ...job,
    pay: job.payOverride ?? readPay(job.estPackage),
    workMode: job.workMode ?? workModeOf(job.location),
    category: job.category ??
      categoryOf(job.role, [...Object.values(job.skills).flat(), ...(job.keywords ?? [])]),
  };
}
