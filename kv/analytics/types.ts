/**
 * The vocabulary traffic analytics shares between recording and reports: device and browser
 * names, a job's name as top lists keep it, the totals of a day and the shapes of every report.
 */
import { type Browser, BROWSER_NAMES, type Device, DEVICE_NAMES } from "../constants.ts";
import type { Job } from "../schemas.ts";
import { stampedAt, type Versioned } from "../schema-version.ts";

export type { Browser, Device };
// The insight lists import nothing, so the admin app reads their names and labels at run time.
export * from "./insight-lists.ts";
export const DEVICES = Object.keys(DEVICE_NAMES) as Device[];
export const BROWSERS = Object.keys(BROWSER_NAMES) as Browser[];

/** Zero for every name of `names`. */
export function zeroed<K extends string>(names: readonly K[]): Record<K, number> {
  return Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;
}
export type CountKind = "views" | "clicks";

/** What top lists show of a job, kept under its own key so a deleted job still has a name. */
export interface JobRef {
  _id: string;
  jobId: string;
  role: string;
  companyName: string;
}

export function jobRef(job: Pick<Job, "_id" | "jobId" | "role" | "companyName">): JobRef {
  return { _id: job._id, jobId: job.jobId, role: job.role, companyName: job.companyName };
}

/**
 * The schema version every stored job name carries (see kv/schema-version.ts). Version 2 is
 * version 1 with its version written in; `deno task db:migrate` stamps older names.
 */
export const JOB_REF_SCHEMA_VERSION = 2;

/** The record to write for a job's name. */
export const storedJobRef = (ref: JobRef): Versioned<JobRef> =>
  stampedAt(ref, JOB_REF_SCHEMA_VERSION);

export interface DayTotals {
  visits: number;
  uniques: number;
  views: number;
  clicks: number;
  devices: Record<Device, number>;
  browsers: Record<Browser, number>;
  /** Bumped by every write to the day: a cache of the day is good while this is unchanged. */
  writes: number;
}

export function emptyTotals(): DayTotals {
  return {
    visits: 0,
    uniques: 0,
    views: 0,
    clicks: 0,
    devices: zeroed(DEVICES),
    browsers: zeroed(BROWSERS),
    writes: 0,
  };
}

/** Clicks per 100 views, to two decimals; 0 without views. */
export function conversionRate(clicks: number, views: number): number {
  return views > 0 ? Math.round((clicks / views) * 10_000) / 100 : 0;
}

/** A daily average over the whole period, rounded. */
export function dailyAverage(total: number, days: number): number {
  return Math.round(total / days);
}

export interface Totals {
  totalVisits: number;
  totalUniqueVisitors: number;
  totalJobViews: number;
  totalJobClicks: number;
}

export interface DashboardDay {
  date: string;
  websiteVisits: number;
  /** How many unique visitors the day had. */
  uniqueVisitors: number;
  jobViews: { jobId: string; count: number }[];
  jobClicks: { jobId: string; count: number }[];
}

export interface Dashboard extends Totals {
  conversionRate: number;
  dailyAnalytics: DashboardDay[];
}

/**
 * The dashboard's figures without its per-job lists, each day's views and clicks summed: what the
 * admin app's dashboard shows, a few hundred bytes where the whole dashboard is megabytes.
 */
export interface DashboardSummary extends Totals {
  conversionRate: number;
  daily: {
    date: string;
    websiteVisits: number;
    uniqueVisitors: number;
    jobViews: number;
    jobClicks: number;
  }[];
}

export interface TopJob {
  _id: string;
  jobId: string;
  role: string;
  companyName: string;
  views: number;
  clicks: number;
  conversionRate: number;
}

export interface TopCompany {
  company: string;
  views: number;
  clicks: number;
  conversionRate: number;
}

export interface TrendDay {
  date: string;
  websiteVisits: number;
  uniqueVisitors: number;
  totalJobViews: number;
  totalJobClicks: number;
  deviceInfo: Record<Device, number>;
  browserInfo: Record<Browser, number>;
}

export interface TrendSummary {
  avgDailyVisits: number;
  avgDailyUniqueVisitors: number;
  avgDailyJobViews: number;
  conversionRate: number;
}

export interface Trends {
  trends: TrendDay[];
  summary: TrendSummary;
}

export interface AnalyticsExport {
  days: number;
  from: string;
  to: string;
  totals: Totals & { conversionRate: number };
  summary: TrendSummary;
  daily: TrendDay[];
  topJobs: TopJob[];
  topCompanies: TopCompany[];
}

/**
 * Views and clicks of one day: entry i is name number `ids[i]` of its KindCache. Shared by caches:
 * never mutate.
 */

/** One job's traffic over a period: views and clicks a day, and where its views came from. */
export interface JobInsight {
  job: { _id: string; jobId: string; role: string; companyName: string; status: string };
  days: number;
  from: string;
  to: string;
  views: number;
  clicks: number;
  conversionRate: number;
  daily: { date: string; views: number; clicks: number }[];
  sources: { source: string; views: number }[];
}

/** The period's totals from its days. */
export function totalsOf(daily: { totals: DayTotals }[]): Totals {
  const totals = { totalVisits: 0, totalUniqueVisitors: 0, totalJobViews: 0, totalJobClicks: 0 };
  for (const { totals: day } of daily) {
    totals.totalVisits += day.visits;
    totals.totalUniqueVisitors += day.uniques;
    totals.totalJobViews += day.views;
    totals.totalJobClicks += day.clicks;
  }
  return totals;
}

/** The period's daily averages and conversion rate. */
export function summaryOf(totals: Totals, days: number): TrendSummary {
  return {
    avgDailyVisits: dailyAverage(totals.totalVisits, days),
    avgDailyUniqueVisitors: dailyAverage(totals.totalUniqueVisitors, days),
    avgDailyJobViews: dailyAverage(totals.totalJobViews, days),
    conversionRate: conversionRate(totals.totalJobClicks, totals.totalJobViews),
  };
}
