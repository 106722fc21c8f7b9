/**
 * The activity log: who changed what, when, from where. A record is added to the same atomic
 * operation as the change it describes (`Audit.add`), so no change is stored without its record and
 * no record without its change; a write retried after a conflict builds a new operation, so it
 * still leaves exactly one. Records expire on their own after the retention period.
 */
import { keys } from "./keys.ts";
import { getAll, kvValueSize } from "./atomic.ts";
import { DAY_MS, FAILED_SIGN_IN_RETENTION_DAYS } from "./constants.ts";
import {
  stampedAt,
  unversioned,
  type UpgradeCount,
  upgradeRecords,
  type Versioned,
} from "./schema-version.ts";

/**
 * The schema version every stored activity record carries (see kv/schema-version.ts). Version 2 is
 * version 1 with its version written in; `deno task db:migrate` stamps older records.
 */
export const ACTIVITY_SCHEMA_VERSION = 2;

export const ACTIVITY_ACTIONS = [
  "job.create",
  "job.duplicate",
  "job.update",
  "job.status",
  "job.delete",
  "jobs.bulk_upload",
  "jobs.lifecycle",
  "admin.create",
  "admin.activate",
  "admin.deactivate",
  "admin.permissions",
  "admin.two_factor_off",
  "admin.delete",
  "profile.update",
  "auth.sign_in",
  "auth.sign_out",
  "auth.sign_in_failed",
  "auth.password_reset",
  "auth.browser_confirmed",
  "settings.update",
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who acted: an admin (id and name at the time), or the system (`id` null). */
export interface Actor {
  id: string | null;
  name: string;
}

export const SYSTEM_ACTOR: Actor = { id: null, name: "system" };

export interface ActivityTarget {
  kind: "job" | "jobs" | "admin";
  /** The job's or admin's `_id`; null for several jobs. */
  id: string | null;
  /** The job number (`JB-1001`) of a job target, by which a job's history is found. */
  jobId?: string;
  /** What a person reads: a job's role and company, an admin's name. */
  label: string;
}

export interface ActivityRecord {
  id: string;
  at: string;
  actor: Actor;
  action: ActivityAction;
  target: ActivityTarget | null;
  /** What changed, such as `{ before, after }` of the fields an edit changed. */
  change: Record<string, unknown> | null;
  /** The client address of the request; null for the hourly lifecycle. */
  address: string | null;
}

export interface ActivityQuery {
  page: number;
  limit: number;
  adminId?: string;
  action?: ActivityAction;
  jobId?: string;
}

export interface ActivityPage {
  records: ActivityRecord[];
  /**
   * `totalRecords` counts the matching records up to `ACTIVITY_COUNT_LIMIT` (a long log is not read
   * to its end for a number): past it, the count stops there and `hasNext` still tells of more.
   */
  pagination: {
    currentPage: number;
    limit: number;
    totalRecords: number;
    totalPages: number;
    hasPrev: boolean;
    hasNext: boolean;
  };
}

/** The most matching records a page's count reads, beyond the page itself. */
export const ACTIVITY_COUNT_LIMIT = 10_000;

/** A record must fit one KV value (64 KiB) beside anything else: long texts are cut to fit. */
const RECORD_BYTES = 48 * 1024;

/** Cuts every string longer than `max` characters, marking where. */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === "string") {
    return value.length > max ? `${value.slice(0, max)}… [cut from ${value.length}]` : value;
  }
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, cutStrings(item, max)]),
    );
  }
  return value;
}

/**
 * The record as stored: its change shortened until the whole fits a KV value with room. V8 takes at
 * most nine bytes for a character of JSON (a one-digit number as a double), so a short record skips
 * the costlier exact measure.
 */
function fitted(record: ActivityRecord): ActivityRecord {
  if (JSON.stringify(record).length * 9 <= RECORD_BYTES) return record;
  let max = 4096;
  let fitting = record;
  while (kvValueSize(fitting) > RECORD_BYTES && max >= 16) {
    fitting = { ...record, change: cutStrings(record.change, max) as Record<string, unknown> };
    max = Math.floor(max / 2);
  }
  return fitting;
}

/** The fields whose values differ, before and after; null when none does. */
export function changedFields<T extends object>(
  before: T,
  after: T,
  ignore: readonly (keyof T)[] = [],
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const changed = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((field) =>
    !ignore.includes(field as keyof T) && JSON.stringify(was[field]) !== JSON.stringify(is[field])
  );
  if (changed.length === 0) return null;
  return {
    before: Object.fromEntries(changed.map((field) => [field, was[field]])),
    after: Object.fromEntries(changed.map((field) => [field, is[field]])),
  };
}

/** When a record (or its job index entry) was written, from the time its id begins with. */
function writtenAt(key: Deno.KvKey): number | null {
  const id = key[0] === "activity" ? key[1] : key[0] === "activity_by_job" ? key[2] : null;
  return typeof id === "string" ? parseInt(id.slice(0, 9), 36) : null;
}

/**
 * For a restore: how long an activity entry has left to live (KV does not tell a dump when an entry
 * expires, so it is worked out again from when the record was written); undefined for other keys.
 */
export function activityExpiry(days: number, now: Date) {
  return (key: Deno.KvKey, value?: unknown): number | undefined => {
    const at = writtenAt(key);
    if (at === null) return undefined;
    const action = (value as Partial<ActivityRecord> | null)?.action;
    return Math.max(1, at + retentionDays(days, action) * DAY_MS - now.getTime());
  };
}

/**
 * How many days a record is kept: failed sign-ins (an address and perhaps a typed e-mail) no more
 * than FAILED_SIGN_IN_RETENTION_DAYS, everything else `days`.
 */
function retentionDays(days: number, action: string | undefined): number {
  return action === "auth.sign_in_failed" ? Math.min(days, FAILED_SIGN_IN_RETENTION_DAYS) : days;
}

/**
 * Brings every stored activity record to the current version (`deno task db:migrate`), keeping
 * the time it has left as a restore does.
 */
export function upgradeActivity(
  kv: Deno.Kv,
  retentionDays: number,
  now: Date,
): Promise<UpgradeCount> {
  const expiry = activityExpiry(retentionDays, now);
  return upgradeRecords<ActivityRecord>(
    kv,
    keys.activities(),
    ACTIVITY_SCHEMA_VERSION,
    (record, key) => ({
      value: stampedAt(record, ACTIVITY_SCHEMA_VERSION),
      expireIn: expiry(key),
    }),
  );
}

/**
 * Who is acting and from where, for one request. Stores take it as an optional argument and call
 * `add` with what they changed, inside the atomic operation that changes it.
 */
export class Audit {
  constructor(
    private log: ActivityLog,
    readonly actor: Actor,
    readonly address: string | null,
  ) {}

  /**
   * Adds a record (and its job index) to `op`; returns the record as stored. `jobIds` are further
   * jobs whose history shows it (the jobs a bulk upload created).
   */
  add(
    op: Deno.AtomicOperation,
    action: ActivityAction,
    target: ActivityTarget | null,
    change: Record<string, unknown> | null = null,
    jobIds: readonly string[] = [],
  ): ActivityRecord {
    return this.log.add(op, {
      actor: this.actor,
      address: this.address,
      action,
      target,
      change,
    }, jobIds);
  }
}

export class ActivityLog {
  constructor(
    private kv: Deno.Kv,
    private now: () => Date,
    private retentionDays: number,
  ) {}

  /** The last record id's time and sequence: ids from one process sort in the order written. */
  private last = { ms: 0, sequence: 0 };

  private recordId(now: Date): string {
    const ms = Math.max(now.getTime(), this.last.ms);
    this.last = { ms, sequence: ms === this.last.ms ? this.last.sequence + 1 : 0 };
    const sequence = this.last.sequence.toString(36).padStart(4, "0");
    return `${ms.toString(36).padStart(9, "0")}${sequence}-${crypto.randomUUID().slice(0, 8)}`;
  }

  by(actor: Actor, address: string | null): Audit {
    return new Audit(this, actor, address);
  }

  add(
    op: Deno.AtomicOperation,
    draft: Omit<ActivityRecord, "id" | "at">,
    jobIds: readonly string[] = [],
  ): ActivityRecord {
    const now = this.now();
    const record = fitted({ id: this.recordId(now), at: now.toISOString(), ...draft });
    const expireIn = retentionDays(this.retentionDays, draft.action) * DAY_MS;
    op.set(keys.activity(record.id), stampedAt(record, ACTIVITY_SCHEMA_VERSION), { expireIn });
    const indexed = record.target?.jobId ? [record.target.jobId, ...jobIds] : jobIds;
    for (const jobId of new Set(indexed)) {
      op.set(keys.jobActivityEntry(jobId, record.id), null, { expireIn });
    }
    return record;
  }

  /** Records an event that changes nothing else (a failed sign-in) in a write of its own. */
  async record(
    audit: Audit,
    action: ActivityAction,
    target: ActivityTarget | null,
    change: Record<string, unknown> | null = null,
  ): Promise<ActivityRecord> {
    const op = this.kv.atomic();
    const record = audit.add(op, action, target, change);
    await op.commit();
    return record;
  }

  /**
   * Newest first, filtered by admin, action and job, with the count of matching records (up to
   * `ACTIVITY_COUNT_LIMIT`) for numbered pages. A job's records come from its index; other filters
   * read the log from the newest record, so a page costs what lies before it plus the count.
   */
  async list(query: ActivityQuery): Promise<ActivityPage> {
    const offset = (query.page - 1) * query.limit;
    const matches = (record: ActivityRecord) =>
      (!query.adminId || record.actor.id === query.adminId) &&
      (!query.action || record.action === query.action);
    const found: ActivityRecord[] = [];
    const countUpTo = Math.max(ACTIVITY_COUNT_LIMIT, offset + query.limit + 1);
    let counted = 0;
    /** Counts a matching record and keeps it when it falls on the page; true once done. */
    const take = (record: Versioned<ActivityRecord> | null) => {
      if (!record || !matches(record)) return false;
      if (counted >= offset && counted < offset + query.limit) found.push(unversioned(record));
      counted++;
      return counted >= countUpTo;
    };
    if (query.jobId) {
      const ids: string[] = [];
      for await (
        const entry of this.kv.list({ prefix: keys.jobActivity(query.jobId) }, {
          reverse: true,
        })
      ) ids.push(entry.key[entry.key.length - 1] as string);
      const entries = await getAll<Versioned<ActivityRecord>>(
        this.kv,
        ids.map((id) => keys.activity(id)),
      );
      for (const entry of entries) if (take(entry.value)) break;
    } else {
      for await (
        const entry of this.kv.list<Versioned<ActivityRecord>>({ prefix: keys.activities() }, {
          reverse: true,
          batchSize: 500,
        })
      ) if (take(entry.value)) break;
    }
    const totalPages = Math.ceil(counted / query.limit);
    return {
      records: found,
      pagination: {
        currentPage: query.page,
        limit: query.limit,
        totalRecords: counted,
        totalPages,
        hasPrev: query.page > 1,
        hasNext: counted > offset + query.limit,
      },
    };
  }
}
