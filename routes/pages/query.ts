/**
 * The job list's query string: read leniently (a bad value is dropped, never an error page) and
 * written back in one canonical form, which is also the page's cache key and canonical URL.
 */
import { type FilterParam, PUBLIC_FILTERS, type PublicFilter } from "../../kv/job-fields.ts";
import { type FilterValues, hasFilterChoice } from "../../client/components/search-forms.tsx";

export interface ListQuery extends FilterValues {
  page: number;
}

const TEXT_FIELDS = ["keywords", "location"] as const;
/** The API's limits: a filter's text, and the search boxes' (a pasted job title fits). */
const MAX_TEXT = 200;
const MAX_SEARCH_TEXT = 500;
const MAX_PAGE = 1_000_000;

const text = (params: URLSearchParams, name: string, max = MAX_TEXT) =>
  params.get(name)?.trim().slice(0, max) || undefined;

/** `filters` are the public filters of the job field table. */
export function parseListQuery(
  params: URLSearchParams,
  filters: readonly PublicFilter[] = PUBLIC_FILTERS,
): ListQuery {
  const query: ListQuery = { page: 1 };
  for (const field of TEXT_FIELDS) {
    const value = text(params, field, MAX_SEARCH_TEXT);
    if (value) query[field] = value;
  }
  // A filter with options takes only one of them; a free-text one, like the search box, any text.
  for (const { param, options } of filters) {
    const value = text(params, param);
    if (value && (!options || (options as readonly string[]).includes(value))) {
      query[param as FilterParam] = value;
    }
  }
  if (params.get("sortBy") === "datePosted") query.sortBy = "datePosted";
  const page = Number(params.get("page"));
  if (Number.isInteger(page) && page > 1 && page <= MAX_PAGE) query.page = page;
  return query;
}

/** The canonical query string (with its `?`, or empty): filters in a fixed order, page 1 left out. */
export function listSearch(query: ListQuery, page = query.page): string {
  const params = new URLSearchParams();
  for (const field of [...TEXT_FIELDS, ...PUBLIC_FILTERS.map(({ param }) => param), "sortBy"]) {
    const value = query[field as keyof FilterValues];
    if (value) params.set(field, value);
  }
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function hasFilters(query: ListQuery): boolean {
  return Boolean(query.keywords || query.location || hasFilterChoice(query));
}
