/**
 * Whether a job can be stored: its fields (through the schema), its hiring link's claim key and
 * its record's size within KV's limits, with room for every later state of the job; and the
 * hiring link's claim key itself, which makes two spellings of one link the same link.
 */
import { keys } from "../keys.ts";
import { KV_KEY_BYTES, KV_VALUE_BYTES, kvKeySize, newId, readBackSize } from "../atomic.ts";
import {
  canonicalHiringLink,
  type Job,
  type JobInput,
  type JobValidation,
  validateDraftInput,
  validateJobInput,
} from "../schemas.ts";
import { stamped } from "./version.ts";
import { expiryTime } from "./expiry.ts";
import { JOB_FIELDS, missingFields } from "../job-fields.ts";

/**
 * The key a hiring link claims among active jobs: its canonical spelling without the scheme, a
 * leading `www.` or a default port, since `http://www.acme.example/jobs/1` and
 * `https://acme.example/jobs/1` are one posting. A link stored before links were checked so
 * strictly, and not usable now, keeps its own trimmed spelling.
 */
export function normaliseHiringLink(link: string): string {
  const canonical = canonicalHiringLink(link);
  if (canonical === null) return link.trim();
  return canonical.replace(/^https?:\/\//, "").replace(/^www\./, "").replace(
    /^([^/?]*):(?:80|443)(?=[/?]|$)/,
    "$1",
  );
}

/** The claim key of version 2 records: the canonical spelling, scheme and all. */
export function versionTwoLinkKey(link: string): string {
  return canonicalHiringLink(link) ?? link.trim();
}

/** Why a hiring link's claim key cannot be stored (KV's key limit, in encoded bytes), or null. */
export function linkKeyProblem(link: string): string | null {
  const size = kvKeySize(keys.jobByLink(normaliseHiringLink(link)));
  if (size <= KV_KEY_BYTES) return null;
  const most = KV_KEY_BYTES - kvKeySize(keys.jobByLink(""));
  return `hiringLink: is too long: ${
    (size - kvKeySize(keys.jobByLink(""))).toLocaleString("en-US")
  } bytes once encoded, at most ${
    most.toLocaleString("en-US")
  } (a character beyond ASCII or a space counts several)`;
}

/** What an admin reads when a hiring link is already held by an active job. */
export function duplicateMessage(existing: Job): string {
  return `Duplicate hiring link! This link is already used by "${existing.role}" at ${existing.companyName}`;
}

/**
 * Room left in every job record for what later rewrites may add beyond the system fields at their
 * longest: a field added to the record later (a schema version, say), and the byte or so of
 * alignment V8 may put before each text holding a character beyond U+00FF (about 360 texts at most).
 */
const JOB_RECORD_HEADROOM = 2_048;
/** The most a job's record may take when written with its content, as KV measures values. */
export const JOB_RECORD_BYTES = KV_VALUE_BYTES - JOB_RECORD_HEADROOM;

const LONGEST_DATE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)).toISOString();
/** The fields the store sets, each at the longest it can become in any later state of the job. */
export const LONGEST_SYSTEM_FIELDS = {
  _id: newId(),
  jobId: `JB-${Number.MAX_SAFE_INTEGER}`,
  status: "inactive",
  datePosted: LONGEST_DATE,
  movedToDumpAt: LONGEST_DATE,
  createdAt: LONGEST_DATE,
  updatedAt: LONGEST_DATE,
} satisfies Record<Exclude<keyof Job, keyof JobInput>, string>;

const bytes = (count: number) => `${count.toLocaleString("en-US")} bytes`;

/** Names the largest content fields, so a too-large job says what to shorten. */
function tooLarge(job: JobInput | Job, size: number, limit: number): string {
  const largest = Object.entries(job)
    .filter(([name]) => !(name in LONGEST_SYSTEM_FIELDS))
    .map(([name, value]) => ({ name, size: readBackSize(value) }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 3);
  return `Job is too large to store: ${bytes(size)}, at most ${bytes(limit)}. Shorten ${
    largest.map((field) => `${field.name} (${bytes(field.size)})`).join(", ")
  }. A text holding a character such as ₹, € or ’ takes 2 bytes a character.`;
}

/**
 * Why a job's content cannot be stored, or null when it can: its hiring link's key must fit, and
 * the record is measured as KV measures it, with every system field at its longest and headroom
 * kept, so each later status change, edit or lifecycle move of the job fits too.
 */
export function jobSizeProblem(job: JobInput | Job): string | null {
  const linkProblem = linkKeyProblem(job.hiringLink);
  if (linkProblem) return linkProblem;
  const size = readBackSize({ ...job, ...LONGEST_SYSTEM_FIELDS });
  return size > JOB_RECORD_BYTES ? tooLarge(job, size, JOB_RECORD_BYTES) : null;
}

/** Why this exact record cannot be written (a record stored before sizes were measured so). */
export function recordSizeProblem(job: Job): string | null {
  const linkProblem = job.status === "active" ? linkKeyProblem(job.hiringLink) : null;
  if (linkProblem) return linkProblem;
  const size = readBackSize(stamped(job));
  return size > KV_VALUE_BYTES ? tooLarge(job, size, KV_VALUE_BYTES) : null;
}

/** Validates a job body for create, edit or bulk: its fields, then whether it fits in storage. */
export function validateJob(input: unknown): JobValidation {
  return fits(validateJobInput(input));
}

/** Validates a draft's body as `validateJob` does, with its relaxed fields (`validateDraftInput`). */
export function validateDraft(input: unknown): JobValidation {
  return fits(validateDraftInput(input));
}

function fits(validation: JobValidation): JobValidation {
  if (!validation.ok) return validation;
  const problem = jobSizeProblem(validation.job);
  return problem ? { ok: false, message: problem } : validation;
}

/** A stored job's content: what an admin gave, without the fields the store sets. */
export function contentOf(job: Job): JobInput {
  return Object.fromEntries(
    Object.entries(job).filter(([name]) => !(name in LONGEST_SYSTEM_FIELDS)),
  ) as unknown as JobInput;
}

/**
 * Why a draft cannot be published at `now`, or null: it must pass every check a created job
 * does, and an expiry date given while it was a draft must not have passed since.
 */
export function publishProblem(draft: Job, now: Date): string | null {
  const content = contentOf(draft);
  // Publishing is pressed in a list, away from the form: the fields are named as the form does.
  const missing = missingFields(content, JOB_FIELDS);
  if (missing.length) {
    return `Please fill in: ${missing.map((field) => JOB_FIELDS[field].label).join(", ")}`;
  }
  const validation = validateJob(content);
  if (!validation.ok) return validation.message;
  if (draft.expiresAt && expiryTime(draft.expiresAt) <= now.getTime()) {
    return "The expiry date has passed: choose a later day or clear it, then publish";
  }
  return null;
}
