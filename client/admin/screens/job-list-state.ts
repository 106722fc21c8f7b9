/**
 * Manage Jobs' state beside its list: the rows picked for a bulk action, deleting one job or the
 * picked ones behind a confirmation, and exporting the jobs in view as CSV.
 */
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../api.ts";
import { saveFile } from "../download.ts";
import { type JobListSearch, jobsChanged } from "../queries.ts";
import { plural } from "../ui.tsx";
import type { Job } from "../types.ts";

/** How many roles a list of jobs names before it says "and N more". */
const ROLES_NAMED = 3;

/** "Engineer at Acme, Designer at Globex and 4 more". */
export function listOfRoles(jobs: Job[], named = ROLES_NAMED): string {
  const names = jobs.slice(0, named).map((job) => `${job.role} at ${job.companyName}`);
  const more = jobs.length - names.length;
  return more > 0 ? `${names.join(", ")} and ${more} more` : names.join(", ");
}

/**
 * The Manage Jobs view (tab, page, filters) that a job's editor or insight was opened from, kept in
 * that history entry: Cancel, a save and the way back return the admin to the rows they were
 * working through, not to the first page of the active tab. Opened any other way (an address, a
 * reload of the list's default view), it is the default view.
 */
export function useListFrom(): Partial<JobListSearch> {
  const from = useLocation({ select: (location) => location.state.jobList });
  return from ?? {};
}

export type Selection = ReturnType<typeof useSelection>;

/**
 * The rows picked for a bulk action. A selection only ever covers rows in view: it belongs to the
 * page, tab and filters it was made on (`viewKey`) and is empty on any other from the same render,
 * and what it acts on is the picked rows still in the list, so no job the admin cannot see gets
 * deleted. A refetch of the same view (another tab's edit, the window's focus) keeps the picks.
 */
export function useSelection(jobs: Job[], viewKey: string) {
  const [picked, setPicked] = useState({ viewKey, ids: new Set<string>() });
  // Another view starts empty, and stays so if the admin comes back to this one.
  if (picked.viewKey !== viewKey) setPicked({ viewKey, ids: new Set() });
  const selected = picked.viewKey === viewKey ? picked.ids : new Set<string>();
  const select = (ids: Set<string>) => setPicked({ viewKey, ids });
  const selectedJobs = jobs.filter((job) => selected.has(job._id));
  const allSelected = jobs.length > 0 && selectedJobs.length === jobs.length;
  return {
    selectedJobs,
    allSelected,
    has: (id: string) => selected.has(id),
    toggle: (id: string) => {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      select(next);
    },
    toggleAll: () => select(allSelected ? new Set() : new Set(jobs.map((job) => job._id))),
    clear: () => select(new Set()),
  };
}

export type JobDeletes = ReturnType<typeof useJobDeletes>;

/** Deleting one job or the selection, each once the admin confirms it. */
export function useJobDeletes(selection: Selection) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<Job | "selected" | null>(null);
  const deleteOne = useMutation({
    mutationFn: (job: Job) => api.delete(`/jobs/${job._id}`),
    onSuccess: () => toast.success("Job deleted successfully"),
    onError: () => toast.error("Error deleting job"),
    onSettled: () => jobsChanged(queryClient),
  });
  const deleteMany = useMutation({
    mutationFn: (targets: Job[]) =>
      Promise.allSettled(targets.map((job) => api.delete(`/jobs/${job._id}`))),
    onSuccess: (results, targets) => {
      const failed = targets.filter((_, index) => results[index].status === "rejected");
      const deleted = targets.length - failed.length;
      if (failed.length === 0) toast.success(`${deleted} jobs deleted successfully`);
      else if (deleted === 0) toast.error("Error deleting jobs");
      else {
        toast.error(
          `${plural(deleted, "job")} deleted; could not delete ${
            listOfRoles(failed, failed.length)
          }`,
        );
      }
      selection.clear();
    },
    onSettled: () => jobsChanged(queryClient),
  });
  return {
    confirming,
    askOne: (job: Job) => setConfirming(job),
    askSelected: () => {
      if (selection.selectedJobs.length === 0) return toast.error("Please select jobs to delete");
      setConfirming("selected");
    },
    confirm: () => {
      if (confirming === "selected") deleteMany.mutate(selection.selectedJobs);
      else if (confirming) deleteOne.mutate(confirming);
      setConfirming(null);
    },
    cancel: () => setConfirming(null),
    /** While deletes run: asking again would send the same deletes twice. */
    busy: deleteOne.isPending || deleteMany.isPending,
  };
}

/** Exporting the jobs of the tab and filters in view, every page of them. */
export function useJobExport(search: JobListSearch) {
  const [exporting, setExporting] = useState(false);
  const exportList = async () => {
    setExporting(true);
    try {
      const { status: tab, search: text, company, location } = search;
      const day = new Date().toISOString().slice(0, 10);
      saveFile(
        await api.blob("/jobs/admin/export", { status: tab, search: text, company, location }),
        `careeredge-jobs-${tab}-${day}.csv`,
      );
      toast.success("Jobs exported as CSV");
    } catch {
      toast.error("Error exporting jobs");
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportList };
}
