/**
 * The schema version every stored job record carries. A record written before versions existed
 * has no version field and counts as version 1; `deno task db:migrate` upgrades older records.
 * The version stays inside the data layer: jobs handed to the rest of the app never carry it.
 */
import type { Job } from "../schemas.ts";

/**
 * Version 2: the hiring link is stored in its canonical spelling and its claim among active jobs
 * is keyed by that spelling.
 */
export const JOB_SCHEMA_VERSION = 2;

/** A job as KV holds it. */
export type StoredJob = Job & { schemaVersion?: number };

/** The record to write for a job: the job stamped with the current version. */
export function stamped(job: Job): StoredJob {
  return { ...job, schemaVersion: JOB_SCHEMA_VERSION };
}

/** The job a stored record holds, without the version the rest of the app has no use for. */
export function withoutVersion(record: StoredJob): Job {
  if (!("schemaVersion" in record)) return record;
  const { schemaVersion: _version, ...job } = record;
  return job;
}
