/**
 * Recording a day's counts by dimension: where visits came from (`sources`, `utm_source`,
 * `utm_campaign`) and what seekers searched for (`searches`). Each dimension admits a fixed number
 * of distinct values a day (`DIMENSION_LIMITS`); a value arriving after that is counted under
 * `OTHER`, so a day's keys stay bounded whatever the traffic sends. Admission is checked against the
 * day's count of values in the same atomic write that adds the counts, so processes sharing the
 * database never admit more between them. Searches are counted once per visitor a day, claimed with
 * a marker in that same write.
 */
import { keys } from "../keys.ts";
import { chunk, getAll, retrying } from "../atomic.ts";
import type { PublicSearchQuery } from "../jobs/catalogue.ts";
import { SEARCH_TERMS_PER_DAY, VISITOR_DATA_TTL_MS } from "../constants.ts";
import { isNamedSource, OTHER, searchTerm } from "./sources.ts";

/** What the insight reports count a day by value, each kept apart. */
export const DIMENSIONS = ["sources", "utm_source", "utm_campaign", "searches"] as const;
export type Dimension = typeof DIMENSIONS[number];

/**
 * Distinct values a day holds of each dimension before the rest is counted as `OTHER`. Named
 * referrer groups are a few; a day with more than 100 referring hosts or 50 campaigns is a long tail
 * no one reads; the search terms are a product figure, which the search report states.
 */
export const DIMENSION_LIMITS: Record<Dimension, number> = {
  sources: 100,
  utm_source: 50,
  utm_campaign: 50,
  searches: SEARCH_TERMS_PER_DAY,
};

/** One value's counts to add to a day. */
export interface DimensionRow {
  dimension: Dimension;
  value: string;
  /** Added to the value's counts: `n` (visits, searches) and any other field. */
  add: Record<string, number>;
  /** Written as they are (the latest figure wins): a search's `results`. */
  latest?: Record<string, number>;
  /** For a count once per visitor a day: the marker that says it was counted. */
  marker?: Deno.KvKey;
}

/** With one check for the day's count of values, at most the self-hosted KV's 10 checks a write. */
const ROWS_PER_WRITE = 9;

/**
 * Adds `rows` to `day`. Returns, by dimension and value, the value each row was counted under
 * (itself, or `OTHER` once the day is full), for rows that were counted (a visitor's second search
 * of a term that day is not).
 */
export async function recordDimensions(
  kv: Deno.Kv,
  day: string,
  rows: DimensionRow[],
  committed: (rows: DimensionRow[]) => void = () => {},
): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  const byDimension = Map.groupBy(rows, (row) => row.dimension);
  for (const [dimension, list] of byDimension) {
    for (const part of chunk(list, ROWS_PER_WRITE)) {
      const result = await retrying(() => writeRows(kv, day, dimension, part));
      for (const [value, as] of result) stored.set(`${dimension}\n${value}`, as);
      committed(part);
    }
  }
  return stored;
}

/** One attempt at one write; undefined when another write got in between. */
async function writeRows(
  kv: Deno.Kv,
  day: string,
  dimension: Dimension,
  rows: DimensionRow[],
): Promise<Map<string, string> | undefined> {
  const present = rows.map((row) => keys.analyticsDimDay(day, dimension, row.value, "n"));
  const markers = rows.flatMap((row) => row.marker ? [row.marker] : []);
  const countKey = keys.analyticsDimCount(day, dimension);
  const entries = await getAll<unknown>(kv, [countKey, ...present, ...markers]);
  const count = entries[0] as Deno.KvEntryMaybe<number>;
  const known = entries.slice(1, 1 + rows.length);
  const seen = new Map(entries.slice(1 + rows.length).map((entry) => [keyText(entry.key), entry]));
  const op = kv.atomic();
  const result = new Map<string, string>();
  let admitted = count.value ?? 0;
  const fresh = new Set<string>();
  rows.forEach((row, i) => {
    if (row.marker) {
      const marker = seen.get(keyText(row.marker))!;
      if (marker.versionstamp !== null) return;
      op.check(marker).set(row.marker, null, { expireIn: VISITOR_DATA_TTL_MS });
    }
    let value = row.value;
    if (known[i].versionstamp === null && value !== OTHER && !fresh.has(value)) {
      if (admitted < DIMENSION_LIMITS[dimension]) {
        admitted++;
        fresh.add(value);
      } else value = OTHER;
    }
    result.set(row.value, value);
    for (const [field, amount] of Object.entries(row.add)) {
      if (amount) op.sum(keys.analyticsDimDay(day, dimension, value, field), BigInt(amount));
    }
    for (const [field, amount] of Object.entries(value === OTHER ? {} : row.latest ?? {})) {
      op.set(keys.analyticsDimDay(day, dimension, value, field), new Deno.KvU64(BigInt(amount)));
    }
  });
  if (result.size === 0) return result;
  if (fresh.size) op.check(count).set(countKey, admitted);
  op.sum(keys.analyticsDayTotal(day, "writes"), 1n).sum(keys.analyticsWrites(), 1n);
  return (await op.commit()).ok ? result : undefined;
}

/** A day's visits by source, utm_source and utm_campaign, keyed `dimension` newline `value`. */
export type SourceCounts = Map<string, number>;

/**
 * Adds a day's visits by source; returns the name each referrer group is kept under (a host past
 * the day's limit is `OTHER`). What each write commits is taken out of `counts`, so when a later
 * write fails, `counts` holds exactly what is still to be written.
 */
export async function recordSources(
  kv: Deno.Kv,
  day: string,
  counts: SourceCounts,
): Promise<Map<string, string>> {
  const rows = [...counts].map(([key, n]): DimensionRow => {
    const [dimension, value] = key.split("\n", 2) as [Dimension, string];
    return { dimension, value, add: { n } };
  });
  const stored = await recordDimensions(kv, day, rows, (part) => {
    for (const row of part) counts.delete(`${row.dimension}\n${row.value}`);
  });
  return new Map(
    [...stored].filter(([key]) => key.startsWith("sources\n")).map((
      [key, as],
    ) => [key.slice("sources\n".length), as]),
  );
}

/** The name a job view's source is kept under: as the day's sources keep it, else named or OTHER. */
export function jobSourceName(group: string, stored: Map<string, string>): string {
  return stored.get(group) ?? (isNamedSource(group) ? group : OTHER);
}

/** How a public search counts under a dimension, once per visitor a day (`SEARCH_COUNTS`). */
interface SearchCount {
  /** The search's query parameter the value is read from, normalised as a term (`searchTerm`). */
  parameter: string;
  /**
   * The search of the value alone, when how many jobs it finds is kept beside it: `results` (as
   * last searched) and `zero` (searches that found nothing).
   */
  alone?: (value: string) => Partial<PublicSearchQuery>;
}

/**
 * What a public search counts, by dimension: the traffic counter reads each from every search
 * (server/counter.ts), so counting something more of a search is an entry here.
 */
export const SEARCH_COUNTS = {
  searches: { parameter: "keywords", alone: (term) => ({ keywords: term }) },
} as const satisfies Partial<Record<Dimension, SearchCount>>;
export type SearchDimension = keyof typeof SEARCH_COUNTS;
const SEARCH_DIMENSIONS = Object.keys(SEARCH_COUNTS) as SearchDimension[];

/** What a search asks that is counted, each as `dimension` newline `value`. */
export function searchedOf(parameter: (name: string) => string | undefined): string[] {
  return SEARCH_DIMENSIONS.flatMap((dimension) => {
    const value = searchTerm(parameter(SEARCH_COUNTS[dimension].parameter));
    return value ? [`${dimension}\n${value}`] : [];
  });
}

/** A `searchedOf` item's dimension and value, and the search of the value alone if it has one. */
export function searchedParts(searched: string) {
  const at = searched.indexOf("\n");
  const dimension = searched.slice(0, at) as SearchDimension;
  const value = searched.slice(at + 1);
  const count: SearchCount = SEARCH_COUNTS[dimension];
  return { dimension, value, alone: count.alone?.(value) };
}

/** One visitor's search under one dimension; `results` for a dimension that keeps them. */
export interface Search {
  visitor: string;
  dimension: SearchDimension;
  value: string;
  results?: number;
}

/** Counts each visitor's value of a search once that day. */
export async function recordSearches(kv: Deno.Kv, day: string, searches: Search[]): Promise<void> {
  await recordDimensions(
    kv,
    day,
    searches.map(({ visitor, dimension, value, results }): DimensionRow => ({
      dimension,
      value,
      add: results === undefined ? { n: 1 } : { n: 1, zero: results === 0 ? 1 : 0 },
      latest: results === undefined ? undefined : { results },
      marker: keys.analyticsSearched(day, visitor, dimension, value),
    })),
  );
}

function keyText(key: Deno.KvKey): string {
  return JSON.stringify(key);
}
