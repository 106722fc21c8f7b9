/**
 * Save Job and the header's Saved link: the saved jobs live in the browser (saved-store.ts). Both
 * are islands, so they wake when the visitor uses the page; a page that is only read runs none of
 * this. Waking, the Save Job button also puts its job first among the recently viewed.
 */
import { useEffect } from "react";
import { noteViewed, type SavedEntry, toggleSaved, useSavedList } from "./saved-store.ts";
import { toast } from "./toast.tsx";
import { SAVED_JOBS_MAX } from "../../kv/constants.ts";

/** What the visitor reads after pressing Save Job. */
const SAID = {
  saved: "Saved. Find it under Saved.",
  removed: "Removed from your saved jobs.",
  full: `You can keep ${SAVED_JOBS_MAX} saved jobs: remove one under Saved to save this one.`,
};

export interface SaveButtonProps {
  job: Omit<SavedEntry, "at">;
  className: string;
}

export function SaveButton({ job, className }: SaveButtonProps) {
  const saved = useSavedList("saved").some((entry) => entry.id === job.id);
  useEffect(() => noteViewed(job), [job]);
  return (
    <button
      type="button"
      className={`${className} save-button ico ${saved ? "ico-saved" : "ico-save"}`}
      aria-pressed={saved}
      onClick={() => {
        const now = toggleSaved(job);
        toast(SAID[now], now === "full" ? "error" : "success");
      }}
    >
      Save Job
      <span className="no-js-only small">(needs JavaScript)</span>
    </button>
  );
}

export function SavedLink({ current }: { current: boolean }) {
  const count = useSavedList("saved").length;
  return (
    <a href="/saved" className="nav-link saved-link" aria-current={current ? "page" : undefined}>
      Saved
      {count > 0 && (
        <span className="saved-count">
          {count}
          <span className="sr-only">{count === 1 ? " job" : " jobs"}</span>
        </span>
      )}
    </a>
  );
}
