/**
 * The job list's query string: read leniently (a bad value is dropped, never an error page) and
 * written back in one canonical form, which is also the page's cache key and canonical URL.
 */
import {
  type FilterParam,
  optionNamed,
  POSTED_WITHIN,
  PUBLIC_FILTERS,
  type PublicFilter,
} from "../../kv/job-fields.ts";
import { pageFilterQuery } from "../api/jobs.ts";
import { LAKH } from "../../kv/search/codes.ts";
import { MAX_FILTER_TEXT, MAX_SEARCH_TEXT } from "../../kv/constants.ts";
import type { Loosenable } from "../../kv/search/looser.ts";
import {
  type FilterValues,
  hasFilterChoice,
  PAGE_FILTERS,
} from "../../client/components/search-forms.tsx";

export interface ListQuery extends FilterValues {
  page: number;
}

const TEXT_FIELDS = ["keywords", "location"] as const;
const MAX_PAGE = 1_000_000;

/** The page offers the Date posted windows; other values are dropped. */
const POSTED_VALUES: readonly string[] = POSTED_WITHIN.map(String);

/**
 * A pay filter in whole rupees a year, read as the API and the alerts read it: the dropdown offers
 * bands, and an alert's or a hand-written link may ask any figure (written back without leading
 * zeros); one the API would refuse is dropped.
 */
function payFilter(value: string | null): string | undefined {
  const read = pageFilterQuery.payMin.safeParse(value ?? undefined);
  return read.success && read.data !== undefined ? String(read.data) : undefined;
}

/**
 * A pay filter in words: "10 LPA and up", or the rupees when not a round figure of lakhs; 0 lets
 * in every job that states a pay.
 */
export function salaryInWords(rupees: string): string {
  const value = Number(rupees);
  if (value === 0) return "Pay stated";
  return value % (LAKH / 100) === 0
    ? `${value / LAKH} LPA and up`
    : `₹${value.toLocaleString("en-IN")} a year and up`;
}

/** A Date posted window in words: "Last 24 hours", "Last 7 days". */
export const postedInWords = (days: string) => days === "1" ? "Last 24 hours" : `Last ${days} days`;

const text = (params: URLSearchParams, name: string, max = MAX_FILTER_TEXT) =>
  cutToFit(params.get(name)?.trim() ?? "", max) || undefined;

/**
 * At most `max` characters of `text`, counted as the API's checks count them (code points, so an
 * emoji is one): before the first word that does not fit whole, or within one word longer than that.
 */
export function cutToFit(text: string, max: number): string {
  if (text.length <= max) return text;
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  const start = characters.slice(0, max + 1).join("");
  const space = start.search(/\s+\S*$/);
  return space > 0 ? start.slice(0, space) : characters.slice(0, max).join("");
}

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
    const chosen = value && options ? optionNamed(options, value) : value;
    if (chosen) query[param as FilterParam] = chosen;
  }
  const payMin = payFilter(params.get("payMin"));
  if (payMin) query.payMin = payMin;
  const postedWithin = params.get("postedWithin");
  if (postedWithin && POSTED_VALUES.includes(postedWithin)) query.postedWithin = postedWithin;
  const company = text(params, "company");
  if (company) query.company = company;
  const sortBy = params.get("sortBy");
  if (sortBy === "datePosted" || sortBy === "pay") query.sortBy = sortBy;
  const page = Number(params.get("page"));
  if (Number.isInteger(page) && page > 1 && page <= MAX_PAGE) query.page = page;
  return query;
}

/** The canonical query string (with its `?`, or empty): filters in a fixed order, page 1 left out. */
export function listSearch(query: ListQuery, page = query.page): string {
  const params = new URLSearchParams();
  const fields = [
    ...TEXT_FIELDS,
    ...[...PUBLIC_FILTERS, ...PAGE_FILTERS].map(({ param }) => param),
    "sortBy",
  ];
  for (const field of fields) {
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

/** The search a list query asks for: its numbers as numbers. */
export function searchOf(query: ListQuery): Loosenable {
  const { page: _page, sortBy: _sortBy, payMin, postedWithin, ...rest } = query;
  return {
    ...rest,
    payMin: payMin ? Number(payMin) : undefined,
    postedWithin: postedWithin ? Number(postedWithin) : undefined,
  };
}

/** A search (a looser one, say) written back as a list query of its first page. */
export function listQueryOf(search: Loosenable, sortBy?: ListQuery["sortBy"]): ListQuery {
  const { payMin, postedWithin, now: _now, order: _order, ...rest } = search as Loosenable & {
    order?: string;
  };
  return {
    ...rest,
    page: 1,
    sortBy,
    payMin: payMin === undefined ? undefined : String(payMin),
    postedWithin: postedWithin ? String(postedWithin) : undefined,
  };
}

/**
 * A query string without its campaign tags (`utm_*`), and the tags apart, each as written. The
 * tags are the traffic counter's to read; the page is the same with or without them, so they are
 * neither part of the canonical URL nor dropped by its redirect.
 */
export function withoutTags(search: string): { search: string; tags: string } {
  if (!/[?&]utm_/i.test(search)) return { search, tags: "" };
  const parts = search.replace(/^\?/, "").split("&");
  const isTag = (part: string) => /^utm_/i.test(part);
  const rest = parts.filter((part) => !isTag(part)).join("&");
  return { search: rest ? `?${rest}` : "", tags: parts.filter(isTag).join("&") };
}
