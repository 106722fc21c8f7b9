/**
 * Query keys per screen and parameters. Every job read sits under "jobs" and every admin read under
 * "admins", so a mutation invalidates the whole family it changed and no list or count goes stale.
 */
import type { QueryClient } from "@tanstack/react-query";

export const queryKeys = {
  jobs: () => ["jobs"] as const,
  jobList: (params: Record<string, unknown>) => ["jobs", "list", params] as const,
  dumpList: (page: number) => ["jobs", "dump", page] as const,
  recentJobs: () => ["jobs", "recent"] as const,
  job: (id: string) => ["jobs", "one", id] as const,
  admins: () => ["admins"] as const,
  dashboard: (days: number) => ["analytics", "dashboard", days] as const,
  analytics: (report: string, days: number) => ["analytics", report, days] as const,
};

/** After any job write: lists, counts, the dump list, the dashboard's recent jobs and reports. */
export async function jobsChanged(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.jobs() }),
    queryClient.invalidateQueries({ queryKey: ["analytics"] }),
  ]);
}
