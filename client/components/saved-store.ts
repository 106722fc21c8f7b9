/**
 * Saved and recently viewed jobs, kept in this browser's localStorage (no account needed) and in
 * step across its tabs through storage events. Each entry keeps what a list needs to name the job
 * even after the job is gone; its current data comes from `/api/saved-jobs`.
 */
import { useSyncExternalStore } from "react";
import { SAVED_JOBS_MAX, VIEWED_JOBS_MAX } from "../../kv/constants.ts";

export interface SavedEntry {
  /** The job's `_id`. */
  id: string;
  /** The number in its page's URL. */
  jobId: string;
  role: string;
  companyName: string;
  /** When it was saved or last viewed (ISO 8601). */
  at: string;
}

export type SavedListName = "saved" | "viewed";

const STORAGE_KEYS: Record<SavedListName, string> = {
  saved: "careeredge:saved-jobs",
  viewed: "careeredge:viewed-jobs",
};
const LIMITS: Record<SavedListName, number> = { saved: SAVED_JOBS_MAX, viewed: VIEWED_JOBS_MAX };
const NONE: readonly SavedEntry[] = Object.freeze([]);
/** This tab's own writes, which storage events (fired in the other tabs only) do not announce. */
const LOCAL_CHANGE = "careeredge:saved-change";

const isEntry = (value: unknown): value is SavedEntry => {
  const entry = value as SavedEntry;
  return typeof entry === "object" && entry !== null &&
    ["id", "jobId", "role", "companyName", "at"].every((field) =>
      typeof entry[field as keyof SavedEntry] === "string"
    );
};

/** The text each list was last read from, and what it gave: one array per content. */
const read = new Map<SavedListName, { text: string | null; entries: readonly SavedEntry[] }>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be switched off; then nothing is kept, and nothing breaks.
    return null;
  }
}

/** The list as stored, newest first; anything malformed in it is left out. */
export function entriesOf(name: SavedListName): readonly SavedEntry[] {
  const text = storage()?.getItem(STORAGE_KEYS[name]) ?? null;
  const last = read.get(name);
  if (last && last.text === text) return last.entries;
  let entries: readonly SavedEntry[] = NONE;
  try {
    const parsed: unknown = text ? JSON.parse(text) : [];
    if (Array.isArray(parsed)) entries = parsed.filter(isEntry).slice(0, LIMITS[name]);
  } catch {
    entries = NONE;
  }
  read.set(name, { text, entries });
  return entries;
}

function write(name: SavedListName, entries: SavedEntry[]) {
  try {
    storage()?.setItem(STORAGE_KEYS[name], JSON.stringify(entries.slice(0, LIMITS[name])));
  } catch {
    // A full or disabled storage keeps what it had.
  }
  dispatchEvent(new Event(LOCAL_CHANGE));
}

const without = (name: SavedListName, id: string) =>
  entriesOf(name).filter((entry) => entry.id !== id);

/**
 * Saves the job, or unsaves it when saved; answers what it is now, or "full" when the list holds
 * its most already (nothing is dropped to make room: the visitor chooses what goes).
 */
export function toggleSaved(job: Omit<SavedEntry, "at">): "saved" | "removed" | "full" {
  const entries = entriesOf("saved");
  if (entries.some((entry) => entry.id === job.id)) {
    write("saved", without("saved", job.id));
    return "removed";
  }
  if (entries.length >= SAVED_JOBS_MAX) return "full";
  write("saved", [{ ...job, at: new Date().toISOString() }, ...entries]);
  return "saved";
}

export function removeEntry(name: SavedListName, id: string) {
  write(name, without(name, id));
}

/** Puts the job first among the recently viewed. */
export function noteViewed(job: Omit<SavedEntry, "at">) {
  if (entriesOf("viewed")[0]?.id === job.id) return;
  write("viewed", [{ ...job, at: new Date().toISOString() }, ...without("viewed", job.id)]);
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values(STORAGE_KEYS).includes(event.key)) onChange();
  };
  addEventListener("storage", onStorage);
  addEventListener(LOCAL_CHANGE, onChange);
  return () => {
    removeEventListener("storage", onStorage);
    removeEventListener(LOCAL_CHANGE, onChange);
  };
}

/**
 * The list, kept current. The server has none, so the first render after hydration matches the
 * server's HTML and the stored list shows right after.
 */
export function useSavedList(name: SavedListName): readonly SavedEntry[] {
  return useSyncExternalStore(subscribe, () => entriesOf(name), () => NONE);
}
