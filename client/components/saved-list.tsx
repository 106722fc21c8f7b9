/**
 * `/saved`: the jobs saved in this browser and the ones viewed lately, with their current data
 * from the server. A job no longer active, or no longer there, shows as closed; any entry can be
 * removed.
 */
import { useEffect, useState } from "react";
import { HTTP_TIMEOUT_MS } from "../../kv/constants.ts";
import { removeEntry, type SavedEntry, type SavedListName, useSavedList } from "./saved-store.ts";

/** A job as `/api/saved-jobs` answers it. */
export interface CurrentJob {
  id: string;
  jobId: string;
  role: string;
  companyName: string;
  location: string;
  experience: string;
  employmentType: string;
  active: boolean;
}

async function currentJobs(ids: string): Promise<Map<string, CurrentJob>> {
  const response = await fetch(`/api/saved-jobs?ids=${encodeURIComponent(ids)}`, {
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`saved jobs not read: ${response.status}`);
  const { jobs } = await response.json() as { jobs: CurrentJob[] };
  return new Map(jobs.map((job) => [job.id, job]));
}

function SavedItem(
  { entry, job, list }: { entry: SavedEntry; job: CurrentJob | undefined; list: SavedListName },
) {
  // A job the server no longer has (deleted since) is closed too: its page is gone.
  const closed = job === undefined || !job.active;
  const role = job?.role ?? entry.role;
  return (
    <li className="saved-item">
      <div>
        <a href={`/jobs/${encodeURIComponent(entry.jobId)}`} className="saved-role">{role}</a>
        <p className="muted small">
          {[job?.companyName ?? entry.companyName, job?.location].filter(Boolean).join(" · ")}
        </p>
        {job?.active && <p className="muted small">{`${job.employmentType} · ${job.experience}`}
        </p>}
        {closed && <p className="saved-closed">Closed: no longer taking applications</p>}
      </div>
      <button
        type="button"
        className="btn btn-ghost"
        onClick={(event) => {
          // The button goes with its job: focus moves to the next job's Remove (or the one before,
          // or the list's heading) rather than falling to the page, lost to a keyboard or reader.
          const item = event.currentTarget.closest("li");
          const neighbour = item?.nextElementSibling ?? item?.previousElementSibling;
          (neighbour?.querySelector("button") ??
            item?.closest("section")?.querySelector<HTMLElement>("h2"))?.focus();
          removeEntry(list, entry.id);
        }}
        aria-label={`Remove ${role}`}
      >
        Remove
      </button>
    </li>
  );
}

function Section(
  { title, list, entries, jobs, empty }: {
    title: string;
    list: SavedListName;
    entries: readonly SavedEntry[];
    jobs: Map<string, CurrentJob>;
    empty: string;
  },
) {
  const id = `${list}-title`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id} className="panel-title" tabIndex={-1}>{`${title} (${entries.length})`}</h2>
      {entries.length === 0 ? <p className="muted">{empty}</p> : (
        <ul className="saved-list">
          {entries.map((entry) => (
            <SavedItem key={entry.id} entry={entry} job={jobs.get(entry.id)} list={list} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function SavedList() {
  const saved = useSavedList("saved");
  const viewed = useSavedList("viewed");
  const [jobs, setJobs] = useState<Map<string, CurrentJob> | null>(null);
  const [failed, setFailed] = useState(false);
  const ids = [...new Set([...saved, ...viewed].map((entry) => entry.id))].sort().join(",");

  useEffect(() => {
    let live = true;
    (ids ? currentJobs(ids) : Promise.resolve(new Map<string, CurrentJob>()))
      .then((found) => live && (setJobs(found), setFailed(false)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [ids]);

  if (!jobs) {
    return (
      <div className="panel">
        <p className="no-js-only">
          Saved jobs are kept in this browser, without an account, and showing them needs
          JavaScript. Turn JavaScript on to save jobs and see them here, or{" "}
          <a href="/jobs">browse the jobs</a>.
        </p>
        <p className="js-only muted" role="status">
          {failed ? "Your saved jobs could not be loaded. Reload to try again." : "Loading..."}
        </p>
      </div>
    );
  }
  return (
    <>
      <Section
        title="Saved Jobs"
        list="saved"
        entries={saved}
        jobs={jobs}
        empty="No saved jobs yet. Use Save Job on a job's page to keep it here."
      />
      <Section
        title="Recently Viewed"
        list="viewed"
        entries={viewed}
        jobs={jobs}
        empty="Jobs you open appear here."
      />
    </>
  );
}
