/**
 * The schema version every stored job record carries (see kv/schema-version.ts). A record written
 * before versions existed has no version field and counts as version 1; `deno task db:migrate`
 * upgrades older records. Jobs handed to the rest of the app never carry it.
 */
import type { Job } from "../schemas.ts";
import { withDerived } from "./derived.ts";
import { stampedAt, unversioned, type Versioned } from "../schema-version.ts";

/**
 * Version 2: the hiring link is stored in its canonical spelling and its claim among active jobs
 * is keyed by that spelling. Version 3: the claim is keyed without the scheme, `www.` and a
 * default port (kv/jobs/validate.ts), and the job carries its pay, work mode and role category.
 */
export const JOB_SCHEMA_VERSION = 3;

/** A job as KV holds it. */
export type StoredJob = Versioned<Job>;

/** The record to write for a job: the job stamped with the current version. */
export const stamped = (job: Job): StoredJob => stampedAt(job, JOB_SCHEMA_VERSION);

/**
 * The job a stored record holds, without its version. A record from before version 3 gets the
 * fields its text decides as it is read, so it is listed and filtered like the rest until
 * `deno task db:migrate` writes them.
 */
export function withoutVersion(record: StoredJob): Job {
  const job = unversioned(record);
  return (job as Partial<Job>).workMode === undefined ? withDerived(job) : job;
}
