/** Jobs for the public site's tests, with the status and posting date each test needs. */
import type { TestApp } from "../helpers/server.ts";
import { sampleJob } from "../helpers/server.ts";
import { newId } from "../../kv/atomic.ts";
import {
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  type Job,
  type JobInput,
  type JobStatus,
  TEXT_LIMITS,
} from "../../kv/schemas.ts";
import { keys } from "../../kv/keys.ts";

export interface JobSpec extends Partial<JobInput> {
  status?: JobStatus;
  /** When it was posted; later specs default to newer dates so list order is known. */
  datePosted?: string;
}

const BASE = Date.parse("2026-03-05T10:00:00.000Z");

/** Writes the jobs in one go; the n-th spec is posted n minutes after the first unless given. */
export async function seedJobs(t: TestApp, specs: JobSpec[]): Promise<Job[]> {
  return await t.services.jobs.importJobs(
    specs.map(({ status = "active", datePosted, ...input }, i) => {
      const posted = datePosted ?? new Date(BASE + i * 60_000).toISOString();
      return {
        ...sampleJob(input),
        _id: newId(),
        status,
        datePosted: posted,
        movedToDumpAt: status === "active" ? null : posted,
        createdAt: posted,
        updatedAt: posted,
      };
    }),
  );
}

/** Sets a job's view total as counting writes it: with `analytics_writes` bumped in the same write. */
export async function setViews(t: TestApp, job: Job, views: number): Promise<void> {
  await t.kv.atomic().set(keys.jobCounter(job._id, "views"), new Deno.KvU64(BigInt(views)))
    .sum(keys.analyticsWrites(), 1n).commit();
}

export async function get(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const response = await t.app.request(path, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The numbers of the page links shown. */
export function pageNumbers(html: string): number[] {
  return [...html.matchAll(/aria-label="Page (\d+)"/g)].map((match) => Number(match[1]));
}

/** The JSON data of every `<script type=...>` element of that type. */
export function scriptData(html: string, type: string): unknown[] {
  const pattern = new RegExp(
    `<script type="${type.replace("+", "\\+")}"[^>]*>(.*?)</script>`,
    "gs",
  );
  return [...html.matchAll(pattern)].map((match) => JSON.parse(match[1]));
}

/** The card (`<article>`) that contains `text`. */
export function cardOf(html: string, text: string): string {
  // The cards come after the filter panel, whose dropdowns name companies too.
  const at = html.indexOf(text, html.indexOf("<article"));
  if (at < 0) throw new Error(`no card with ${text}`);
  return html.slice(html.lastIndexOf("<article", at), html.indexOf("</article>", at));
}

/** The roles of the cards shown, in order: each card is headed by its role, a link to the job. */
export function cardRoles(html: string): string[] {
  return [...html.matchAll(/<h3[^>]*><a href="\/jobs\/[^"]+">([^<]+)<\/a><\/h3>/g)].map((m) =>
    m[1]
  );
}

/** One unbroken word of exactly `length` characters. */
export const word = (start: string, length: number) =>
  (start + "x".repeat(length)).slice(0, length);

const LONG_URL = `https://careers.example.com/${"a".repeat(TEXT_LIMITS.url - 28)}`;
export const LONG_COMPANY = word("Supercalifragilistic", TEXT_LIMITS.companyName);
export const LONG_ROLE = word("PrincipalDistributedSystems", TEXT_LIMITS.role);
const LONG_LOCATION = word("Thiruvananthapuram", TEXT_LIMITS.location);
const LONG_SKILL = word("KubernetesOperator", TEXT_LIMITS.skill);

/** A job with every text as long as the schema allows, long unbroken words included. */
export const LONGEST_JOB: JobSpec = {
  companyName: LONG_COMPANY,
  role: LONG_ROLE,
  location: LONG_LOCATION,
  description: `Read more at ${LONG_URL}\n\n${"word ".repeat(3_000)}`,
  requiredDegree: word("BachelorOfTechnology", TEXT_LIMITS.requiredDegree),
  estPackage: word("12-18LPA", TEXT_LIMITS.estPackage),
  skills: {
    languages: [LONG_SKILL, "Go"],
    technologies: [LONG_SKILL + "2"],
    frameworks: [LONG_SKILL],
    databases: [],
    tools: [],
    others: [],
  },
};

/**
 * Every public page a visitor can reach, with LONGEST_JOB (`jobId`) among the jobs: the home, the
 * list, searches and filters at their longest, the job page and a job that does not exist.
 */
export function longestPaths(jobId: string): string[] {
  return [
    "/",
    "/jobs",
    `/jobs?keywords=${word("Keyword", 200)}`,
    `/jobs?role=${encodeURIComponent(LONG_ROLE)}`,
    `/jobs?${new URLSearchParams({
      keywords: word("Engineer ", 200),
      location: word("Thiruvananthapuram", 200),
      role: word("Engineer", 200),
      experience: EXPERIENCE_OPTIONS.at(-1)!,
      employmentType: EMPLOYMENT_TYPES.at(-1)!,
      sortBy: "datePosted",
    })}`,
    "/jobs?page=2",
    `/jobs/${jobId}`,
    "/jobs/JB-999999",
  ];
}
