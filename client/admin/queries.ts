/**
 * Query keys per screen and parameters. Every job read sits under "jobs" and every admin read under
 * "admins", so a mutation invalidates the whole family it changed and no list or count goes stale.
 * The client itself lives here so every module reaches the one cache.
 */
import { QueryClient, queryOptions } from "@tanstack/react-query";
import { api, tokenStore } from "./api.ts";
import { adminSettings } from "./settings.ts";
import { profileKey } from "./session.ts";
import type { Admin, AdminJobList, DashboardSummary, JobList, StatusCounts } from "./types.ts";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 15_000 },
  },
});

export const queryKeys = {
  jobs: () => ["jobs"] as const,
  jobList: (params: Record<string, unknown>) => ["jobs", "list", params] as const,
  dumpList: (page: number) => ["jobs", "dump", page] as const,
  recentJobs: () => ["jobs", "recent"] as const,
  job: (id: string) => ["jobs", "one", id] as const,
  admins: () => ["admins"] as const,
  activity: (params: Record<string, unknown>) => ["activity", params] as const,
  dashboard: (days: number) => ["analytics", "dashboard", days] as const,
  analytics: (report: string, days: number) => ["analytics", report, days] as const,
  jobInsight: (id: string, days: number) => ["analytics", "job", id, days] as const,
  alertTotals: (days: number) => ["alerts", "totals", days] as const,
};

/** After any job write: lists, counts, the dump list, the dashboard's recent jobs and reports. */
export async function jobsChanged(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.jobs() }),
    queryClient.invalidateQueries({ queryKey: ["analytics"] }),
    queryClient.invalidateQueries({ queryKey: ["activity"] }),
  ]);
}

export interface JobListSearch {
  status: keyof StatusCounts;
  page: number;
  search?: string;
  company?: string;
  location?: string;
}

/**
 * Manage Jobs: a page of `adminPageSize` jobs, the dump tab by time in the dump, the others by date
 * posted.
 */
export function jobListQuery({ status, page, search, company, location }: JobListSearch) {
  const params = {
    page,
    limit: adminSettings().adminPageSize,
    status,
    sortBy: status === "dump" ? "movedToDumpAt" : "datePosted",
    sortOrder: "desc",
    search,
    company,
    location,
  };
  return queryOptions({
    queryKey: queryKeys.jobList(params),
    queryFn: () => api.get<AdminJobList>("/jobs/admin/all", params),
  });
}

export function dumpListQuery(page: number) {
  return queryOptions({
    queryKey: queryKeys.dumpList(page),
    queryFn: () =>
      api.get<JobList>("/jobs/admin/dump", {
        page,
        limit: adminSettings().dumpPageSize,
      }),
  });
}

export function dashboardQuery(days: number) {
  return queryOptions({
    queryKey: queryKeys.dashboard(days),
    queryFn: () => api.get<DashboardSummary>("/analytics/dashboard/summary", { days }),
  });
}

/** The dashboard's newest jobs, which every admin may read. */
export function recentJobsQuery() {
  return queryOptions({
    queryKey: queryKeys.recentJobs(),
    queryFn: () => api.get<Pick<AdminJobList, "jobs">>("/jobs/admin/recent"),
  });
}

export function adminsQuery() {
  return queryOptions({
    queryKey: queryKeys.admins(),
    queryFn: () => api.get<{ admins: Admin[] }>("/admin/all"),
  });
}

/**
 * The signed-in admin as the session last read it, for route loaders: they start a screen's reads
 * alongside its code only once the session is known, so a first visit or a signed-out one makes
 * no call the screen would not make.
 */
export function knownAdmin(): Admin | undefined {
  const token = tokenStore.get();
  return token ? queryClient.getQueryData<Admin>([...profileKey, token]) : undefined;
}
