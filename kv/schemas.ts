/**
 * The entities (jobs, admins) as zod schemas: one source of truth shared by the API, the KV layer
 * and the admin forms.
 */
// A namespace import, not `{ z }`: browser bundles then leave out zod's locales, most of zod's size
// (docs/decisions/010-the-sign-in-page-is-a-page.md).
import * as z from "zod";
import { MAX_EMAIL_LENGTH, MIN_ADMIN_PASSWORD } from "./constants.ts";
import {
  draftFields,
  JOB_FIELDS,
  type JobFieldSpec,
  type JobFieldTable,
  missingFields,
  requiredFields,
  TEXT_LIMITS,
} from "./job-fields.ts";
import { MAX_YEARLY_PAY, type Pay, PAY_PERIODS, readDescribedPay, readPay } from "./jobs/pay.ts";
import { type DerivedFields, withDerived } from "./jobs/derived.ts";
import { EXPIRY_MESSAGE, STORED_EXPIRY } from "./jobs/expiry.ts";
import {
  DEFAULT_PERMISSIONS,
  type Permission,
  PERMISSIONS,
  type Permissions,
} from "./permissions.ts";

export type { Permission, Permissions };

export {
  EMPLOYMENT_TYPES,
  type EmploymentType,
  type Experience,
  EXPERIENCE_OPTIONS,
  TEXT_LIMITS,
} from "./job-fields.ts";

/** The statuses of the spec's lifecycle: public, waiting for review, closed. */
export const LIFECYCLE_STATUSES = ["active", "dump", "inactive"] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];
/**
 * Every status a job can have: the lifecycle's, and a draft, which is its recruiter's alone until
 * published: never public, claiming no hiring link, outside the lifecycle.
 */
export const JOB_STATUSES = [...LIFECYCLE_STATUSES, "draft"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const SKILL_GROUPS = [
  "languages",
  "technologies",
  "frameworks",
  "databases",
  "tools",
  "others",
] as const;
export type SkillGroup = (typeof SKILL_GROUPS)[number];

/** Display names of the skill groups, in the order the job detail page shows them. */
export const SKILL_GROUP_LABELS: Record<SkillGroup, string> = {
  languages: "Programming Languages",
  technologies: "Technologies",
  frameworks: "Frameworks",
  databases: "Databases",
  tools: "Tools",
  others: "Other Skills",
};

/** Fields a job cannot be saved without, in the order the 'Please fill in' message names them. */
export const REQUIRED_JOB_FIELDS = requiredFields(JOB_FIELDS);

/**
 * Only http(s) links to a host may be stored: anything else (javascript:, data:) could run in a
 * visitor's page. The scheme must be followed by `//` (`https:evil.example.com` parses, but names
 * a host only by the parser's guess), and no white space or control character may hide in it.
 */
export function isHttpUrl(value: string): boolean {
  // deno-lint-ignore no-control-regex
  if (!/^https?:\/\//i.test(value) || /[\s\u0000-\u001f\u007f-\u009f]/.test(value)) return false;
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === "https:" || protocol === "http:") && hostname.replace(/\.$/, "") !== "";
}

/** Letters, digits and `-._~`: percent-encoding them changes nothing, so it is undone. */
function decodeUnreserved(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escape.toUpperCase();
  });
}

/**
 * The one spelling a hiring link is stored, shown and compared in, or null when it is not a usable
 * http(s) link. Spellings of one page meet: scheme and host case, a default port, a trailing dot
 * on the host or slash on the path, an empty `?`, the fragment, percent-encoded letters, digits and
 * `-._~`, and `utm_*` campaign parameters. Other paths and queries stay distinct.
 */
export function canonicalHiringLink(value: string): string | null {
  const link = value.trim();
  if (!isHttpUrl(link)) return null;
  const url = new URL(link);
  url.hash = "";
  url.hostname = url.hostname.replace(/\.$/, "");
  const query = url.search.slice(1).split("&")
    .filter((part) => part !== "" && !/^utm_/i.test(decodeUnreserved(part)))
    .map(decodeUnreserved).join("&");
  const path = decodeUnreserved(url.pathname).replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}${query ? `?${query}` : ""}`;
}

const httpUrl = z.string().trim().max(TEXT_LIMITS.url, "URL is too long").refine(
  isHttpUrl,
  "must be a valid http or https URL",
);

/** A hiring link, given back in its canonical spelling. */
export const hiringLinkSchema = z.string().trim().max(TEXT_LIMITS.url, "URL is too long")
  .transform((value, context) => {
    const link = canonicalHiringLink(value);
    if (link !== null) return link;
    context.addIssue({
      code: "custom",
      message: "must be a valid http or https URL (scheme://host, no spaces or control characters)",
    });
    return z.NEVER;
  });

/**
 * Characters that change how text around them looks without being seen: C0 and C1 controls (NUL,
 * ESC, ...) and the bidirectional embeddings, overrides and isolates, which can make a job's text
 * read differently from what it holds.
 */
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, less the line breaks and tabs a text of several lines may hold. */
const INVISIBLE_IN_LINES =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * A one-line text: line breaks (the Unicode line and paragraph separators too) and tabs become
 * spaces, other invisible characters are removed.
 */
export function oneLineText(value: string): string {
  return value.replace(/[\t\n\r\v\f\u2028\u2029]/g, " ").replace(INVISIBLE, "");
}

const atMost = (max: number) => `must be at most ${max.toLocaleString("en-US")} characters`;

/** A one-line field: invisible characters removed, then trimmed; `min` characters at least. */
const text = (max: number, min = 0) =>
  z.string().transform(oneLineText).pipe(z.string().trim().min(min).max(max, atMost(max)));

/** A field of several lines: newlines and tabs are kept, any other control character refused. */
const lines = (max: number, min = 0) =>
  z.string().trim().min(min).max(max, atMost(max)).refine(
    (value) => !INVISIBLE_IN_LINES.test(value),
    "must not contain control characters (such as NUL or ESC) or bidirectional override characters",
  );

/** Entries are trimmed; empty ones and repeats within the list are ignored. */
export function cleanList(values: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const entry = value.trim();
    if (entry) seen.add(entry);
  }
  return [...seen];
}

const stringList = z.array(text(TEXT_LIMITS.skill)).max(
  TEXT_LIMITS.listEntries,
  `must have at most ${TEXT_LIMITS.listEntries} entries`,
).transform(cleanList);

export const skillsSchema = z.object(
  Object.fromEntries(SKILL_GROUPS.map((group) => [group, stringList.default([])])) as Record<
    SkillGroup,
    z.ZodDefault<typeof stringList>
  >,
);
export type Skills = Record<SkillGroup, string[]>;

/** Absent, null and blank all mean "not given". */
const optional = <T extends z.ZodType<string>>(schema: T) =>
  z.union([z.literal(""), schema, z.null()]).optional().transform((value) => value || undefined);

const rupees = z.number({ error: "must be a number of rupees" }).int("must be whole rupees")
  .min(0, "must not be negative").max(MAX_YEARLY_PAY, "is too large").nullable();

const PAY_TEXT_MESSAGE =
  'must be a pay such as "8-12 LPA", "from ₹6,00,000 a year" or "₹25,000 a month"';

/** A pay range set by hand: at least one end, the lower end first. */
export const paySchema: z.ZodType<Pay> = z.object({
  min: rupees,
  max: rupees,
  period: z.enum(PAY_PERIODS, { error: `period must be one of ${PAY_PERIODS.join(", ")}` }),
  currency: z.literal("INR", { error: "currency must be INR" }).default("INR"),
}).refine((pay) => pay.min !== null || pay.max !== null, "needs a minimum or a maximum")
  .refine(
    (pay) => pay.min === null || pay.max === null || pay.min <= pay.max,
    "the minimum must not be above the maximum",
  );

const EMPTY_SKILLS = Object.fromEntries(
  SKILL_GROUPS.map((group) => [group, []]),
) as unknown as Skills;

/** A field's check, from its kind in the field table. */
function fieldSchema(spec: JobFieldSpec): z.ZodType {
  switch (spec.kind) {
    case "text": {
      const kind = spec.rows ? lines : text;
      return spec.required ? kind(spec.max, 1) : optional(kind(spec.max));
    }
    case "enum": {
      const value = z.enum(spec.options, { error: `must be one of ${spec.options.join(", ")}` });
      if (spec.default !== undefined) return value.default(spec.default as never);
      // Blank or null is "not given"; anything else must be an option, named in the message.
      return spec.required ? value : z.preprocess(
        (given) => (given === "" || given === null ? undefined : given),
        value.optional(),
      );
    }
    case "url": {
      const value = spec.canonical ? hiringLinkSchema : httpUrl;
      // Blank or null is "not given"; anything else must be an option, named in the message.
      return spec.required ? value : z.preprocess(
        (given) => (given === "" || given === null ? undefined : given),
        value.optional(),
      );
    }
    case "list":
      return stringList.default([]);
    case "skills":
      return skillsSchema.default(EMPTY_SKILLS);
    case "pay":
      // A spreadsheet's cell writes the pay as text ("8-12 LPA", "₹25,000 a month"), as the
      // export writes it.
      return z.preprocess((given, ctx) => {
        if (typeof given !== "string") return given ?? undefined;
        if (given.trim() === "") return undefined;
        const pay = readDescribedPay(given) ?? readPay(given);
        if (!pay) ctx.addIssue({ code: "custom", message: PAY_TEXT_MESSAGE });
        return pay ?? undefined;
      }, paySchema.optional());
    case "date":
      // The route turns the admin's day into the stored form (expiryInput) or leaves it refused.
      return z.preprocess(
        (given) => (given === "" || given === null ? undefined : given),
        z.string({ error: EXPIRY_MESSAGE }).regex(STORED_EXPIRY, EXPIRY_MESSAGE).optional(),
      );
  }
}

/** The value a field of this kind holds once checked. */
type ValueOf<Spec> = Spec extends { kind: "enum"; options: readonly (infer Option)[] } ? Option
  : Spec extends { kind: "skills" } ? Skills
  : Spec extends { kind: "list" } ? string[]
  : Spec extends { kind: "pay" } ? Pay
  : string;

/** The fields a checked job always has: required ones, ones with a default, and the lists. */
type Present<Table> = {
  [Name in keyof Table]: Table[Name] extends
    { required: true } | { default: string } | { kind: "list" | "skills" } ? Name : never;
}[keyof Table];

/** A checked job body of a field table; the optional fields may be absent altogether. */
export type JobInputOf<Table> =
  & { [Name in Present<Table>]: ValueOf<Table[Name]> }
  & { [Name in Exclude<keyof Table, Present<Table>>]?: ValueOf<Table[Name]> };

/** The check of a job body built from a field table. Unknown fields are dropped. */
export function jobInputSchemaOf<Table extends JobFieldTable>(
  fields: Table,
): z.ZodType<JobInputOf<Table>> {
  return z.object(
    Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, fieldSchema(spec)])),
  ) as unknown as z.ZodType<JobInputOf<Table>>;
}

/** What an admin sends to create or update a job. */
export const jobInputSchema = jobInputSchemaOf(JOB_FIELDS);
/**
 * A validated job body, with the fields its text decides (pay, work mode, role category); the
 * optional fields may be absent altogether.
 */
export type JobInput = JobInputOf<typeof JOB_FIELDS> & DerivedFields;

/** A job as stored. Dates are ISO 8601 strings so the record survives JSON (db:dump) unchanged. */
export interface Job extends JobInput {
  _id: string;
  jobId: string;
  status: JobStatus;
  datePosted: string;
  movedToDumpAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface JobAnalytics {
  views: number;
  clicks: number;
}

/** A job as the API answers it. */
export interface JobWithAnalytics extends Job {
  analytics: JobAnalytics;
}

/** How a draft is checked: see `draftFields`. */
export const DRAFT_FIELDS = draftFields(JOB_FIELDS);
const draftInputSchema = jobInputSchemaOf(DRAFT_FIELDS);

/** A draft's blank required fields, stored as empty texts until it is published. */
const BLANK_REQUIRED = Object.fromEntries(REQUIRED_JOB_FIELDS.map((field) => [field, ""]));

/** Names the required fields that are absent or blank, for 'Please fill in: ...'. */
export function missingJobFields(input: unknown): string[] {
  return missingFields(input, JOB_FIELDS);
}

export type JobValidation =
  | { ok: true; job: JobInput }
  | { ok: false; message: string };

/**
 * Validates one job body's fields: the 'Please fill in' message first, then the first schema
 * problem. Whether the whole job fits in storage is `validateJob` in kv/jobs/validate.ts (server only).
 */
export function validateJobInput(input: unknown): JobValidation {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, message: "Job must be a JSON object" };
  }
  const missing = missingJobFields(input);
  if (missing.length) return { ok: false, message: `Please fill in: ${missing.join(", ")}` };
  const parsed = jobInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: describeIssue(parsed.error) };
  return { ok: true, job: withDerived(parsed.data) };
}

/**
 * Validates a draft's fields: the role is needed, other required fields may be blank (stored as
 * empty texts, so only a draft ever holds a blank one), and what is given must be valid.
 */
export function validateDraftInput(input: unknown): JobValidation {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, message: "Job must be a JSON object" };
  }
  const missing = missingFields(input, DRAFT_FIELDS);
  if (missing.length) return { ok: false, message: `Please fill in: ${missing.join(", ")}` };
  const parsed = draftInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: describeIssue(parsed.error) };
  const given = Object.entries(parsed.data as Record<string, unknown>)
    .filter(([, value]) => value !== undefined);
  const job = { ...BLANK_REQUIRED, ...Object.fromEntries(given) };
  return { ok: true, job: withDerived(job as JobInputOf<typeof JOB_FIELDS>) };
}

/** One readable sentence for the first problem zod found, naming the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.join(".");
  // A message that already names its field ("Email must be...") is not named twice.
  const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, "");
  const named = path && letters(issue.message).startsWith(letters(path));
  return path && !named ? `${path}: ${issue.message}` : issue.message;
}

/** The status call moves a job within the lifecycle; a job becomes a draft only when created as one. */
export const jobStatusSchema = z.object({
  status: z.enum(LIFECYCLE_STATUSES, { error: "must be active, dump or inactive" }),
});

export const ADMIN_ROLES = ["main_admin", "admin"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** An admin as stored; `passwordHash` never leaves the KV layer. */
export interface AdminRecord {
  _id: string;
  username: string;
  email: string;
  passwordHash: string;
  role: AdminRole;
  permissions: Permissions;
  isActive: boolean;
  lastLogin: string | null;
  createdAt: string;
  updatedAt: string;
  /** Two-factor sign-in (server/totp.ts); absent until the admin starts to set it up. */
  twoFactor?: TwoFactor;
}

export interface TwoFactor {
  /** The TOTP secret in base32. */
  secret: string;
  /** False while the secret waits for its first code. */
  enabled: boolean;
  /** SHA-256 of each recovery code not yet used. */
  recoveryCodes: string[];
  /** The last 30-second step a code was accepted for: no code signs in twice. */
  lastStep: number;
}

/** An admin as the API answers it: no hash, no secret, only whether two-factor sign-in is on. */
export type Admin = Omit<AdminRecord, "passwordHash" | "twoFactor"> & {
  twoFactorEnabled: boolean;
};

export const emailSchema = z.string({ error: "Email is required" }).trim().toLowerCase()
  .min(1, "Email is required").max(MAX_EMAIL_LENGTH, "Email is too long").pipe(
    z.email({ error: "Please enter a valid email" }),
  );

export const loginSchema = z.object({
  email: emailSchema,
  /** A current authenticator code or a recovery code, when two-factor sign-in is on. */
  totp: z.string().trim().max(64, "The code is too long").optional(),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(
    1_024,
    "Password is too long",
  ),
});

const username = z.string({ error: "Username is required" }).transform(oneLineText).pipe(
  z.string().trim().min(1, "Username is required").max(
    100,
    "Username must be at most 100 characters",
  ),
);
/** A new admin password: the specification's length rule and message. */
export const newPassword = z.string({ error: "Password is required" }).min(
  1,
  "Password is required",
).min(
  MIN_ADMIN_PASSWORD,
  `Password must be at least ${MIN_ADMIN_PASSWORD} characters`,
).max(1_024, "Password is too long");

export const permissionsSchema = z.object(
  Object.fromEntries(PERMISSIONS.map((name) => [name, z.boolean().optional()])) as Record<
    Permission,
    z.ZodOptional<z.ZodBoolean>
  >,
);

export const registerAdminSchema = z.object({
  username,
  email: emailSchema,
  password: newPassword,
  permissions: permissionsSchema.default({}).transform((given): Permissions => ({
    ...DEFAULT_PERMISSIONS,
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  })),
});

export const createMainAdminSchema = z.object({
  username,
  email: emailSchema,
  password: newPassword,
  secretKey: z.string({ error: "secretKey is required" }).min(1, "secretKey is required").max(
    1_024,
  ),
});

export const updateProfileSchema = z.object({
  username: username.optional(),
  email: emailSchema.optional(),
  password: newPassword.optional(),
  currentPassword: z.string().max(1_024).optional(),
}).refine((body) => body.username || body.email || body.password, {
  message: "Nothing to update: send username, email or password",
}).refine((body) => !(body.password || body.email) || body.currentPassword, {
  message: "Current password is required to change the e-mail or password",
  path: ["currentPassword"],
});

export const adminStatusSchema = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});
