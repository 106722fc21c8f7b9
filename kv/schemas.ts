/**
 * The entities of SPEC section 3 as zod schemas: one source of truth shared by the API, the KV layer
 * and the admin forms.
 */
// A namespace import, not `{ z }`: browser bundles then leave out zod's locales (27 KB gzipped, not 93).
import * as z from "zod";
import { MIN_ADMIN_PASSWORD } from "./constants.ts";

export const EXPERIENCE_OPTIONS = [
  "0-1",
  "1-2",
  "2-3",
  "3+",
  "4+",
  "5+",
  "6+",
  "intern",
  "2026 passout",
  "2025 passout",
  "2027 passout",
] as const;
export type Experience = (typeof EXPERIENCE_OPTIONS)[number];

export const EMPLOYMENT_TYPES = [
  "Full-Time",
  "Part-Time",
  "Contract",
  "Internship",
  "Freelance",
] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

export const JOB_STATUSES = ["active", "dump", "inactive"] as const;
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

/** Fields a job cannot be saved without (SPEC section 5), in the order the message names them. */
export const REQUIRED_JOB_FIELDS = [
  "companyName",
  "role",
  "location",
  "experience",
  "description",
  "requiredDegree",
  "hiringLink",
] as const;

export const TEXT_LIMITS = {
  companyName: 200,
  role: 200,
  location: 200,
  description: 20_000,
  requiredDegree: 2_000,
  estPackage: 100,
  url: 2_048,
  skill: 100,
  listEntries: 50,
} as const;

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

const text = (max: number) =>
  z.string().trim().max(max, `must be at most ${max.toLocaleString("en-US")} characters`);

/** Entries are trimmed; empty ones and repeats within the list are ignored (SPEC section 5). */
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

const optionalText = (max: number) =>
  z.union([text(max), z.null()]).optional().transform((value) => value || undefined);

const optionalUrl = z.union([z.literal(""), httpUrl, z.null()]).optional().transform((value) =>
  value || undefined
);

/** What an admin sends to create or update a job. Unknown fields are dropped. */
export const jobInputSchema = z.object({
  companyName: text(TEXT_LIMITS.companyName).min(1),
  companyLogo: optionalUrl,
  role: text(TEXT_LIMITS.role).min(1),
  location: text(TEXT_LIMITS.location).min(1),
  experience: z.enum(EXPERIENCE_OPTIONS, {
    error: `must be one of ${EXPERIENCE_OPTIONS.join(", ")}`,
  }),
  employmentType: z.enum(EMPLOYMENT_TYPES, {
    error: `must be one of ${EMPLOYMENT_TYPES.join(", ")}`,
  }).default("Full-Time"),
  description: text(TEXT_LIMITS.description).min(1),
  requiredDegree: text(TEXT_LIMITS.requiredDegree).min(1),
  hiringLink: hiringLinkSchema,
  estPackage: optionalText(TEXT_LIMITS.estPackage),
  skills: skillsSchema.default({
    languages: [],
    technologies: [],
    frameworks: [],
    databases: [],
    tools: [],
    others: [],
  }),
  keywords: stringList.default([]),
});
type ParsedJobInput = z.infer<typeof jobInputSchema>;
/** A validated job body; the optional fields may be absent altogether. */
export type JobInput =
  & Omit<ParsedJobInput, "companyLogo" | "estPackage">
  & Partial<Pick<ParsedJobInput, "companyLogo" | "estPackage">>;

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

/** Names the required fields that are absent or blank, for 'Please fill in: ...'. */
export function missingJobFields(input: unknown): string[] {
  const record = (input && typeof input === "object" && !Array.isArray(input))
    ? input as Record<string, unknown>
    : {};
  return REQUIRED_JOB_FIELDS.filter((field) => {
    const value = record[field];
    return typeof value !== "string" || value.trim() === "";
  });
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
  return { ok: true, job: parsed.data };
}

/** One readable sentence for the first problem zod found, naming the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

export const jobStatusSchema = z.object({ status: z.enum(JOB_STATUSES) });

export const PERMISSIONS = [
  "canCreateJobs",
  "canDeleteJobs",
  "canViewAnalytics",
  "canManageAdmins",
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type Permissions = Record<Permission, boolean>;

export const ADMIN_ROLES = ["main_admin", "admin"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Defaults of the Create New Admin form (SPEC section 5). */
export const DEFAULT_PERMISSIONS: Permissions = {
  canCreateJobs: true,
  canDeleteJobs: true,
  canViewAnalytics: true,
  canManageAdmins: false,
};

export const ALL_PERMISSIONS: Permissions = {
  canCreateJobs: true,
  canDeleteJobs: true,
  canViewAnalytics: true,
  canManageAdmins: true,
};

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
}

/** An admin as the API answers it. */
export type Admin = Omit<AdminRecord, "passwordHash">;

export const emailSchema = z.string({ error: "Email is required" }).trim().toLowerCase()
  .min(1, "Email is required").max(254, "Email is too long").pipe(
    z.email({ error: "Please enter a valid email" }),
  );

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(
    1_024,
    "Password is too long",
  ),
});

const username = z.string({ error: "Username is required" }).trim().min(1, "Username is required")
  .max(100, "Username must be at most 100 characters");
const newPassword = z.string({ error: "Password is required" }).min(1, "Password is required").min(
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
