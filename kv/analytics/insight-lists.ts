/**
 * The insight lists, each a report of a period read as one list (`InsightReports` in
 * kv/analytics/insight.ts): its shape, its name (served at `/api/analytics/{name}`) and its tab's
 * label. This module imports nothing: the admin app's router and tabs read it at run time.
 */

/** Visits that entered the site over a period, by referrer group, utm_source and utm_campaign. */
export interface SourcesReport {
  days: number;
  from: string;
  to: string;
  /** Every visit that came from outside the site (or from nowhere: Direct / None). */
  visits: number;
  sources: { source: string; visits: number }[];
  utmSources: { value: string; visits: number }[];
  utmCampaigns: { value: string; visits: number }[];
}

/** What seekers searched for over a period, each term once per visitor a day. */
export interface SearchesReport {
  days: number;
  from: string;
  to: string;
  /** Every counted search, the `(other)` ones included. */
  searches: number;
  /** Terms by searches, most first; `results` is how many jobs the term found when last searched. */
  top: { query: string; searches: number; results: number }[];
  /** Terms by searches that found no job, most first. */
  zeroResults: { query: string; searches: number }[];
  /** Searches of terms arriving after a day already held its most distinct terms. */
  otherSearches: number;
}

/**
 * The insight lists: reports of a period read as one list each (`InsightReports`, the period's
 * days and a number of rows), each served at `/api/analytics/{name}` and shown on the Analytics
 * tab of that name by its panel (`client/admin/screens/analytics-insight.tsx`).
 */
export interface InsightLists {
  sources: SourcesReport;
  searches: SearchesReport;
}
export type InsightList = keyof InsightLists;
/** Each insight list's tab label: the admin app's router and tabs read this (analytics-tabs.ts). */
export const INSIGHT_LISTS = {
  sources: "Sources",
  searches: "Searches",
} as const satisfies Record<InsightList, string>;
export const INSIGHT_LIST_NAMES = Object.keys(INSIGHT_LISTS) as InsightList[];
