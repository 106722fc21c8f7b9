/**
 * Schema versions of stored records, and the walk `deno task db:migrate` makes over one kind of
 * record. Every record kind (jobs, admin accounts, sessions, activity records) is written with its
 * kind's current `schemaVersion` and has it removed when read, so the version never leaves `kv/`; a
 * record written before versions existed has none and counts as version 1.
 *
 * Values that are not records carry no version: pointers and index entries (an id, a start time,
 * null) are rewritten with the record they point to, analytics counters are plain `Deno.KvU64`
 * numbers, and sign-in failure counts live for one 15-minute window.
 */
import { retrying } from "./atomic.ts";

/** A record as KV holds it. */
export type Versioned<T> = T & { schemaVersion?: number };

/** The version a stored record was written at. */
export const versionOf = (record: { schemaVersion?: number }): number => record.schemaVersion ?? 1;

/** The record to write: `record` stamped with `version`. */
export function stampedAt<T extends object>(record: T, version: number): Versioned<T> {
  return { ...record, schemaVersion: version };
}

/** The record a stored value holds, without the version the rest of the app has no use for. */
export function unversioned<T extends object>(record: Versioned<T>): T {
  if (!("schemaVersion" in record)) return record;
  const { schemaVersion: _version, ...rest } = record;
  return rest as T;
}

/** What upgrading one kind of record did. */
export interface UpgradeCount {
  /** Records read. */
  scanned: number;
  /** Records rewritten at the current version. */
  upgraded: number;
  /** Records already at the current version, left untouched. */
  current: number;
}

/** An older record's replacement, and how long it has left to live when the kind expires. */
export interface Upgraded<T> {
  value: Versioned<T>;
  expireIn?: number;
}

/** Records read from KV at a time while walking a kind. */
export const UPGRADE_BATCH = 200;

/**
 * Rewrites every record under `prefix` below `version`, each alone in one atomic write checked
 * against the record as read, so the walk can run beside a live server, be stopped at any point and
 * run again: a record another run (or a write of the app) brought to the version is left as it is.
 */
export async function upgradeRecords<T extends object>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  version: number,
  upgrade: (record: T, key: Deno.KvKey) => Upgraded<T>,
): Promise<UpgradeCount> {
  const count: UpgradeCount = { scanned: 0, upgraded: 0, current: 0 };
  for await (
    const entry of kv.list<Versioned<T>>({ prefix }, { batchSize: UPGRADE_BATCH })
  ) {
    count.scanned++;
    if (versionOf(entry.value) >= version) {
      count.current++;
      continue;
    }
    const outcome = await retrying(async () => {
      const latest = await kv.get<Versioned<T>>(entry.key);
      if (!latest.value) return "gone";
      if (versionOf(latest.value) >= version) return "current";
      const { value, expireIn } = upgrade(unversioned(latest.value), entry.key);
      const op = kv.atomic().check(latest).set(entry.key, value, { expireIn });
      return (await op.commit()).ok ? "upgraded" : undefined;
    });
    if (outcome === "upgraded") count.upgraded++;
    else if (outcome === "current") count.current++;
  }
  return count;
}
