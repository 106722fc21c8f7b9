/**
 * The job list's query string: read leniently (a bad value is dropped, never an error page) and
 * written back in one canonical form, which is also the page's cache key and canonical URL.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../../kv/schemas.ts";
import type { FilterValues } from "../../client/components/search-forms.tsx";

export interface ListQuery extends FilterValues {
  page: number;
}

const TEXT_FIELDS = ["keywords", "location", "role"] as const;
/** The API's limit on filter text. */
const MAX_TEXT = 200;
const MAX_PAGE = 1_000_000;

function oneOf<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? value as T : undefined;
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  const query: ListQuery = { page: 1 };
  for (const field of TEXT_FIELDS) {
    const value = params.get(field)?.trim().slice(0, MAX_TEXT);
    if (value) query[field] = value;
  }
  query.experience = oneOf(EXPERIENCE_OPTIONS, params.get("experience")?.trim() ?? "");
  query.employmentType = oneOf(EMPLOYMENT_TYPES, params.get("employmentType")?.trim() ?? "");
  if (params.get("sortBy") === "datePosted") query.sortBy = "datePosted";
  const page = Number(params.get("page"));
  if (Number.isInteger(page) && page > 1 && page <= MAX_PAGE) query.page = page;
  return query;
}

/** The canonical query string (with its `?`, or empty): filters in a fixed order, page 1 left out. */
export function listSearch(query: ListQuery, page = query.page): string {
  const params = new URLSearchParams();
  for (const field of [...TEXT_FIELDS, "experience", "employmentType", "sortBy"] as const) {
    const value = query[field];
    if (value) params.set(field, value);
  }
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function hasFilters(query: ListQuery): boolean {
  return Boolean(
    query.keywords || query.location || query.role || query.experience || query.employmentType,
  );
}
