/** The shapes of the API answers the admin screens read (the API contract of issue 5). */
import type { Admin, JobWithAnalytics, Permission } from "../../kv/schemas.ts";
import type { Pagination, StatusCounts } from "../../kv/jobs.ts";

export type { Admin, JobWithAnalytics as Job, Pagination, Permission, StatusCounts };

export interface JobList {
  jobs: JobWithAnalytics[];
  pagination: Pagination;
}

export interface AdminJobList extends JobList {
  statusCounts: StatusCounts;
}

export interface JobAnswer {
  message: string;
  job: JobWithAnalytics;
}

export interface DuplicateCheck {
  isDuplicate: boolean;
  existingJob: JobWithAnalytics | null;
}

export interface BulkAnswer {
  message: string;
  summary: { created: number; duplicates: number; errors: number };
}

export interface DailyAnalytics {
  date: string;
  websiteVisits: number;
  uniqueVisitors: unknown[];
  jobViews: { jobId: string; count: number }[];
  jobClicks: { jobId: string; count: number }[];
}

export interface Overview {
  totalVisits: number;
  totalUniqueVisitors: number;
  totalJobViews: number;
  totalJobClicks: number;
}

export interface Dashboard extends Overview {
  conversionRate: number;
  dailyAnalytics: DailyAnalytics[];
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

export interface CompanyStat {
  company: string;
  views: number;
  clicks: number;
  conversionRate: number;
}

export interface Trend {
  date: string;
  websiteVisits: number;
  uniqueVisitors: number;
  totalJobViews: number;
  totalJobClicks: number;
  deviceInfo: { desktop: number; mobile: number; tablet: number };
  browserInfo: { chrome: number; firefox: number; safari: number; edge: number; others: number };
}

export interface Trends {
  trends: Trend[];
  summary: {
    avgDailyVisits: number;
    avgDailyUniqueVisitors: number;
    avgDailyJobViews: number;
    conversionRate: number;
  };
}
