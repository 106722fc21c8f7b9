/**
 * The job fields, declared once. Each entry names a field of a job: how the admin form and the
 * 'Please fill in: ...' message call it, what kind of value it holds, whether a job needs it, where
 * the admin form shows it and, for a public filter, how /jobs and /api/jobs offer it. The job
 * schema (kv/schemas.ts), the admin job form and the public filters are built from this table.
 * Pure data (its one import is a type), so the browser bundles take it as it is.
 */
import type { Facets } from "./search/search.ts";

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

/** How the job is worked: at the office, partly at home, or from anywhere. */
export const WORK_MODES = ["On-site", "Hybrid", "Remote"] as const;
export type WorkMode = (typeof WORK_MODES)[number];

/**
 * The ways a location or a seeker says a job is done from anywhere, as its JobPosting's
 * TELECOMMUTE says: one list, so a job's work mode, its JobPosting and a search read them alike.
 */
export const REMOTE_SPELLINGS: readonly string[] = [
  "remote",
  "remotely",
  "work from home",
  "wfh",
  "anywhere",
  "work from anywhere",
  "wfa",
  "home based",
  "telecommute",
  "telecommuting",
];

/**
 * A location saying the job is done from anywhere (`REMOTE_SPELLINGS`, spaces or hyphens), and not
 * saying it is not: "Not remote - Pune", "No WFH, Mumbai", "Onsite - remote not allowed".
 */
export const REMOTE = new RegExp(
  `(?<!\\b(?:not|no|non)[\\s-]+)\\b(?:${
    REMOTE_SPELLINGS.map((spelling) => spelling.replaceAll(" ", "[\\s-]+")).join("|")
  })\\b(?![\\s-]+not\\b)`,
  "i",
);

/** The fixed role categories every job is placed in, so every job can be reached by one. */
export const ROLE_CATEGORIES = [
  "Engineering",
  "Data & AI",
  "Design",
  "Product",
  "QA & Testing",
  "DevOps & Cloud",
  "Security",
  "Marketing",
  "Sales",
  "Customer Support",
  "Operations",
  "Finance & Accounting",
  "HR",
  "Legal",
  "Healthcare",
  "Education",
  "Content & Writing",
  "Hospitality",
  "Skilled Trades",
  "Other",
] as const;
export type RoleCategory = (typeof ROLE_CATEGORIES)[number];

/**
 * The word seekers type for a category's jobs (`healthcare jobs`, `hr jobs`, `finance jobs`): the
 * search index gives it to every job of the category, as a word of its description, so a job that
 * never says it is found too. A category named by words many other jobs use (engineering, data,
 * support, operations) has none: `engineer` must not find every developer
 * (docs/decisions/048-categories-a-seeker-browses-and-types.md).
 */
export const CATEGORY_WORDS: Partial<Record<RoleCategory, string>> = {
  "Healthcare": "healthcare",
  "Finance & Accounting": "finance",
  "Education": "education",
  "HR": "hr",
  "Sales": "sales",
  "Marketing": "marketing",
  "Legal": "legal",
  "Hospitality": "hospitality",
};

/**
 * The categories Indian seekers mean by "IT jobs" (work at or for software companies); every other
 * category is what they call non-IT.
 */
export const IT_CATEGORIES: readonly RoleCategory[] = [
  "Engineering",
  "Data & AI",
  "Design",
  "Product",
  "QA & Testing",
  "DevOps & Cloud",
  "Security",
];

/** The Salary filter's bands, in lakhs a year: "3 LPA and up" and so on. */
export const SALARY_BANDS = [3, 6, 10, 15, 25, 50] as const;

/** The Date posted filter's windows, in days. */
export const POSTED_WITHIN = [1, 3, 7, 14, 30] as const;

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

/** The admin job form's sections, in the order the form shows them. */
export const FORM_SECTIONS = [
  { id: "basic", legend: "Basic Information" },
  { id: "details", legend: "Job Details" },
  { id: "skills", legend: "Skills & Keywords" },
] as const;
export type FormSectionId = (typeof FORM_SECTIONS)[number]["id"];

/** What a field holds, which decides its check and its control in the admin form. */
export type FieldKind =
  /** Trimmed text up to `max` characters; `rows` makes the form's control a text area. */
  | { kind: "text"; max: number; rows?: number; placeholder?: string }
  /** One of `options`; a placeholder option reads `placeholder` while none is chosen. */
  | { kind: "enum"; options: readonly [string, ...string[]]; placeholder?: string }
  /** An http(s) link; `canonical` stores it in the one spelling duplicates are found by. */
  | { kind: "url"; canonical?: boolean }
  /** A list of short entries (trimmed, empties and repeats dropped). */
  | { kind: "list" }
  /** The skill lists, one per skill group. */
  | { kind: "skills" }
  /** A pay range set by hand: when given it replaces the one read from the package text. */
  | { kind: "pay" }
  /**
   * A calendar day from tomorrow to a year ahead in the site's time zone, stored as the end of
   * that day (kv/jobs/expiry.ts); `help` is the form's line under the control.
   */
  | { kind: "date"; help: string };

/** A public filter on /jobs and /api/jobs; its query parameter is the field's name. */
export interface FilterSpec {
  /** The dropdown's label. */
  label: string;
  /** The first option, which filters nothing. */
  all: string;
  /** The search engine's facet that counts the jobs each option gives. */
  facet: keyof Facets;
  /**
   * Kept out of the filter panel: the parameter still filters (old links keep working), another
   * dropdown offers the choice.
   */
  linkOnly?: true;
}

export type JobFieldSpec = FieldKind & {
  /** How the admin form and the 'Please fill in: ...' message name the field. */
  label: string;
  /** A job cannot be saved without it: blank or absent, it is named in 'Please fill in: ...'. */
  required?: boolean;
  /** Taken when the field is left out. */
  default?: string;
  /** Where the admin form shows it: its section and its place there (smaller first). */
  form: { section: FormSectionId; order: number };
  filter?: FilterSpec;
};

export type JobFieldTable = Record<string, JobFieldSpec>;

/** Every job field, in the order the schema checks them and the required message names them. */
export const JOB_FIELDS = {
  companyName: {
    kind: "text",
    max: TEXT_LIMITS.companyName,
    label: "Company Name",
    required: true,
    form: { section: "basic", order: 1 },
  },
  companyLogo: { kind: "url", label: "Company Logo URL", form: { section: "basic", order: 2 } },
  role: {
    kind: "text",
    max: TEXT_LIMITS.role,
    label: "Role",
    required: true,
    form: { section: "basic", order: 3 },
    filter: { label: "Role", all: "All Roles", facet: "roles", linkOnly: true },
  },
  category: {
    kind: "enum",
    options: ROLE_CATEGORIES,
    placeholder: "From the role and skills",
    label: "Role Category",
    form: { section: "basic", order: 10 },
    filter: { label: "Role Category", all: "All Roles", facet: "categories" },
  },
  location: {
    kind: "text",
    max: TEXT_LIMITS.location,
    label: "Location",
    required: true,
    form: { section: "basic", order: 4 },
  },
  workMode: {
    kind: "enum",
    options: WORK_MODES,
    placeholder: "From the location",
    label: "Work Mode",
    form: { section: "basic", order: 9 },
    filter: { label: "Work Mode", all: "All Work Modes", facet: "workModes" },
  },
  experience: {
    kind: "enum",
    options: EXPERIENCE_OPTIONS,
    placeholder: "Select experience",
    label: "Experience",
    required: true,
    form: { section: "basic", order: 5 },
    filter: { label: "Experience Level", all: "All Experience", facet: "experience" },
  },
  employmentType: {
    kind: "enum",
    options: EMPLOYMENT_TYPES,
    label: "Employment Type",
    default: "Full-Time",
    form: { section: "basic", order: 6 },
    filter: { label: "Employment Type", all: "All Types", facet: "employmentTypes" },
  },
  description: {
    kind: "text",
    max: TEXT_LIMITS.description,
    rows: 6,
    label: "Job Description",
    required: true,
    form: { section: "details", order: 1 },
  },
  requiredDegree: {
    kind: "text",
    max: TEXT_LIMITS.requiredDegree,
    rows: 3,
    label: "Required Degree",
    required: true,
    form: { section: "details", order: 2 },
  },
  hiringLink: {
    kind: "url",
    canonical: true,
    label: "Hiring Link",
    required: true,
    form: { section: "basic", order: 8 },
  },
  estPackage: {
    kind: "text",
    max: TEXT_LIMITS.estPackage,
    placeholder: "8-12 LPA",
    label: "Estimated Package (₹)",
    form: { section: "basic", order: 7 },
  },
  payOverride: {
    kind: "pay",
    label: "Pay",
    form: { section: "basic", order: 7.5 },
  },
  expiresAt: {
    kind: "date",
    label: "Expiry Date",
    help: "Optional. After this day the job closes on its own; from tomorrow to a year ahead.",
    form: { section: "basic", order: 11 },
  },
  skills: { kind: "skills", label: "Skills", form: { section: "skills", order: 1 } },
  keywords: { kind: "list", label: "Keywords", form: { section: "skills", order: 2 } },
} as const satisfies JobFieldTable;

/** The name of a field a job cannot be saved without. */
export type RequiredField<T> = {
  [Name in keyof T & string]: T[Name] extends { required: true } ? Name : never;
}[keyof T & string];

/** The names of the fields a job cannot be saved without, in the order the message names them. */
export function requiredFields<T extends JobFieldTable>(fields: T): RequiredField<T>[] {
  return Object.keys(fields).filter((name) => fields[name].required) as RequiredField<T>[];
}

/** Names the required fields that are absent or blank, for 'Please fill in: ...'. */
export function missingFields<T extends JobFieldTable>(
  input: unknown,
  fields: T,
): RequiredField<T>[] {
  const record = (input && typeof input === "object" && !Array.isArray(input))
    ? input as Record<string, unknown>
    : {};
  return requiredFields(fields).filter((field) => {
    const value = record[field];
    return typeof value !== "string" || value.trim() === "";
  });
}

/**
 * The table a draft is checked by: only the role is needed (a recruiter finds the draft by it);
 * every other field may be left blank until the job is published, and what is filled in must be
 * valid as for any job.
 */
export function draftFields<T extends JobFieldTable>(fields: T): JobFieldTable {
  return Object.fromEntries(
    Object.entries(fields).map((
      [name, spec],
    ) => [name, name === "role" || !spec.required ? spec : { ...spec, required: false }]),
  );
}

export interface FormSection {
  id: FormSectionId;
  legend: string;
  /** The section's fields, in the order the form shows them. */
  fields: { name: string; spec: JobFieldSpec }[];
}

/** The admin job form's sections with their fields, as the form renders them. */
export function formSections(fields: JobFieldTable): FormSection[] {
  return FORM_SECTIONS.map(({ id, legend }) => ({
    id,
    legend,
    fields: Object.entries(fields)
      .filter(([, spec]) => spec.form.section === id)
      .sort(([, a], [, b]) => a.form.order - b.form.order)
      .map(([name, spec]) => ({ name, spec })),
  }));
}

export interface PublicFilter<Param extends string = string> extends FilterSpec {
  /** The query parameter, which is the field's name. */
  param: Param;
  /** The values it may take, or null when it is free text (matched as the search engine does). */
  options: readonly [string, ...string[]] | null;
}

/** The query parameters of a table's public filters. */
export type FilterParamOf<T> = {
  [Name in keyof T & string]: T[Name] extends { filter: FilterSpec } ? Name : never;
}[keyof T & string];
export type FilterParam = FilterParamOf<typeof JOB_FIELDS>;

/** The public filters, in the order /jobs shows their dropdowns. */
export function publicFilters<T extends JobFieldTable>(
  fields: T,
): PublicFilter<FilterParamOf<T>>[] {
  return Object.entries(fields).flatMap(([param, spec]) =>
    spec.filter
      ? [{
        ...spec.filter,
        param: param as FilterParamOf<T>,
        options: spec.kind === "enum" ? spec.options : null,
      }]
      : []
  );
}

export const PUBLIC_FILTERS = publicFilters(
  JOB_FIELDS,
) as (PublicFilter & { param: FilterParam })[];

/** Letters and digits only, in lower case: `remote`, `full time` and `on site` name an option. */
const plain = (value: string) => value.toLowerCase().replace(/[^a-z0-9+]/g, "");

/**
 * The option `value` names however it is written (`remote`, `full time`, `on site`: a hand-typed
 * link or an API call), if any.
 */
export const optionNamed = (options: readonly string[], value: string): string | undefined =>
  options.includes(value)
    ? value
    // An option of figures only is written one way: `-1` is no day, nor `12` the 1-2 years.
    : options.find((option) => /\p{L}/u.test(option) && plain(option) === plain(value));

/** A value, or none, for each public filter: a job's, a search's. */
export type FilterValues = { [Param in FilterParam]?: string };

/** The public filters' values of a job or a query, each by its parameter, and nothing else. */
export function filterValuesOf(source: FilterValues): FilterValues {
  const values: FilterValues = {};
  for (const { param } of PUBLIC_FILTERS) values[param] = source[param];
  return values;
}
