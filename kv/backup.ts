/**
 * Backups: the whole database as JSON lines and back (`deno task db:dump` / `db:restore`).
 *
 * Each line of a dump is `{"key": [...], "value": ...}`. Values JSON cannot hold (Deno.KvU64
 * counters, bigint, Date, Uint8Array, Map, Set, undefined, non-finite numbers) are written as
 * one-property objects tagged `$kv:<type>`, so a restore gives back exactly what was dumped.
 *
 * A restore marks the database (`restore_in_progress`) before its first write and clears the mark
 * after its last. While the mark is there the server refuses to start (it would hand out job
 * numbers the rest of the dump holds) and a new restore of the same dump continues: every entry is
 * set again to its dumped value, so a restore that failed half-way can be run again to completion.
 *
 * KV does not tell a dump when an entry expires, so nothing written with an expiry may come back
 * without one: the tables that live two days at most are never dumped (a restored database starts
 * them anew), and a restore gives every other one at most the time it was written to live.
 */
import { keys } from "./keys.ts";
import { activityExpiry } from "./activity.ts";
import { alertExpiry } from "./alerts.ts";
import { sessionExpiry } from "./sessions.ts";
import {
  ATOMIC_BYTES_BUDGET,
  ATOMIC_KEY_BYTES_BUDGET,
  ATOMIC_MUTATIONS_BUDGET,
  kvKeySize,
  kvValueSize,
} from "./atomic.ts";

const TAG = "$kv:";

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Turns any value Deno KV stores into plain JSON, tagging what JSON cannot represent. */
export function encodeValue(value: unknown): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (value === undefined) return { [`${TAG}undefined`]: true };
  if (typeof value === "number") {
    return Number.isFinite(value) && !Object.is(value, -0)
      ? value
      : { [`${TAG}number`]: String(Object.is(value, -0) ? "-0" : value) };
  }
  if (typeof value === "bigint") return { [`${TAG}bigint`]: value.toString() };
  if (value instanceof Deno.KvU64) return { [`${TAG}u64`]: value.value.toString() };
  if (value instanceof Date) return { [`${TAG}date`]: encodeValue(value.getTime()) };
  if (value instanceof Uint8Array) return { [`${TAG}bytes`]: toBase64(value) };
  if (value instanceof ArrayBuffer) return { [`${TAG}buffer`]: toBase64(new Uint8Array(value)) };
  if (value instanceof RegExp) return { [`${TAG}regexp`]: [value.source, value.flags] };
  if (value instanceof Map) {
    return { [`${TAG}map`]: [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]) };
  }
  if (value instanceof Set) return { [`${TAG}set`]: [...value].map(encodeValue) };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value).map(([k, v]) => [k, encodeValue(v)]);
    // A plain object whose own keys look like tags is wrapped, so it can never be mistaken for one.
    return entries.some(([k]) => (k as string).startsWith(TAG))
      ? { [`${TAG}object`]: entries }
      : Object.fromEntries(entries);
  }
  throw new TypeError(`Cannot dump a value of type ${Object.prototype.toString.call(value)}`);
}

/** The inverse of encodeValue. */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeValue);
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0][0].startsWith(TAG)) {
    const [tag, data] = entries[0];
    switch (tag.slice(TAG.length)) {
      case "undefined":
        return undefined;
      case "number":
        return Number(data);
      case "bigint":
        return BigInt(data as string);
      case "u64":
        return new Deno.KvU64(BigInt(data as string));
      case "date":
        return new Date(decodeValue(data) as number);
      case "bytes":
        return fromBase64(data as string);
      case "buffer":
        return fromBase64(data as string).buffer;
      case "regexp":
        return new RegExp(...(data as [string, string]));
      case "map":
        return new Map(
          (data as [unknown, unknown][]).map(([k, v]) => [decodeValue(k), decodeValue(v)]),
        );
      case "set":
        return new Set((data as unknown[]).map(decodeValue));
      case "object":
        return Object.fromEntries(
          (data as [string, unknown][]).map(([k, v]) => [k, decodeValue(v)]),
        );
    }
    throw new TypeError(`Unknown tag ${tag} in dump`);
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, decodeValue(v)]));
}

/** A failure the person running the task can fix; printed as one line, exit code 1. */
export class TaskError extends Error {}

/**
 * What a dump leaves out unless asked for: the key that signs admin tokens, the one-time main-admin
 * secret, and live sessions. With the signing key a dump would be enough to mint a main-admin token.
 */
const SECRET_PREFIXES: readonly Deno.KvKey[] = [
  keys.config("jwt_secret"),
  keys.config("main_admin_secret"),
  keys.sessions(),
  keys.sessionsOfAllAdmins(),
];

/**
 * What no dump ever holds: the tables that live two days at most, which a restored database simply
 * starts anew (restored, they would live for good), among them the visitor salts (with a day's
 * salt, its hashed visitor addresses can be turned back into addresses by trying them all); and the
 * catalogue's snapshot, made again from the jobs by the first server that starts on the restored
 * database (its chunks' expiry would not survive a restore).
 */
const NEVER_DUMPED: readonly Deno.KvKey[] = [
  ...keys.shortLivedTables(),
  keys.snapshotHead(),
  keys.snapshotAllChunks(),
  keys.snapshotLease(),
];

/**
 * Job alerts, left out unless asked for: their subscribers' e-mail addresses and searches, the
 * hashes of their mails' link tokens, the per-address and per-client counts, and the count of
 * confirmed alerts (which a database restored without them must not claim). A backup for the
 * jobs and the portal needs none of it; the per-day totals of mails sent hold no address and stay.
 */
const ALERT_PREFIXES: readonly Deno.KvKey[] = keys.alertTables();

const under = (prefixes: readonly Deno.KvKey[], key: Deno.KvKey) =>
  prefixes.some((prefix) =>
    prefix.length <= key.length && prefix.every((part, i) => part === key[i])
  );

export interface DumpOptions {
  /** Also write the token-signing key, the main-admin secret and live sessions. */
  withSecrets?: boolean;
  /** Also write the job alerts: personal data (subscribers' e-mail addresses). */
  withAlerts?: boolean;
}

export interface DumpResult {
  /** Entries written. */
  entries: number;
  /** Entries of job alerts left out (none when asked for them). */
  alertEntriesLeftOut: number;
}

/** Writes the entries of the database as JSON lines. */
export async function dumpDatabase(
  kv: Deno.Kv,
  output: WritableStream<Uint8Array>,
  { withSecrets = false, withAlerts = false }: DumpOptions = {},
): Promise<DumpResult> {
  const writer = output.getWriter();
  const encoder = new TextEncoder();
  let count = 0;
  let alertEntriesLeftOut = 0;
  let buffered = "";
  try {
    for await (const entry of kv.list({ prefix: [] }, { batchSize: 1000 })) {
      if (under(NEVER_DUMPED, entry.key) || (!withSecrets && under(SECRET_PREFIXES, entry.key))) {
        continue;
      }
      if (!withAlerts && under(ALERT_PREFIXES, entry.key)) {
        alertEntriesLeftOut++;
        continue;
      }
      buffered += JSON.stringify({
        key: encodeValue(entry.key),
        value: encodeValue(entry.value),
      }) + "\n";
      count++;
      if (buffered.length > 1 << 16) {
        await writer.write(encoder.encode(buffered));
        buffered = "";
      }
    }
    if (buffered) await writer.write(encoder.encode(buffered));
    await writer.close();
  } finally {
    writer.releaseLock();
  }
  return { entries: count, alertEntriesLeftOut };
}

async function* lines(input: ReadableStream<Uint8Array<ArrayBuffer>>): AsyncGenerator<string> {
  let rest = "";
  for await (const text of input.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + text).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

/** Why the server and the seed task refuse a database that a restore has not finished. */
export const RESTORE_UNFINISHED =
  "a restore into this database has not finished; run `deno task db:restore` again with the same dump";

/** True while a restore into this database has not finished. */
export async function restoreUnfinished(kv: Deno.Kv): Promise<boolean> {
  return (await kv.get(keys.restoreInProgress())).versionstamp !== null;
}

export interface RestoreOptions {
  /** ACTIVITY_RETENTION_DAYS: how long the activity log keeps a record. */
  activityRetentionDays: number;
  /** The restore's time, from which the time restored entries have left is counted. */
  now?: Date;
}

/**
 * How long a restored entry has left to live, by its table's own rule: activity records, job alerts
 * and sessions keep the time they had left, known browsers get their full time again (see each
 * rule). Undefined keeps an entry for good, as jobs, admins, counters and settings are.
 */
function restoredExpiry(activityRetentionDays: number, now: Date) {
  const activity = activityExpiry(activityRetentionDays, now);
  const alerts = alertExpiry(now);
  const sessions = sessionExpiry(now);
  return (key: Deno.KvKey, value: unknown) =>
    activity(key, value) ?? alerts(key, value) ?? sessions(key, value);
}

export interface RestoreResult {
  /** Entries written. */
  entries: number;
  /** True when this run continued a restore that had not finished. */
  resumed: boolean;
}

/**
 * Reads a dump into an empty database, or into one where a restore of it did not finish, in
 * atomic writes that stay inside every KV limit: mutations, key bytes (KV allows 80 KiB of keys per
 * write, and a dump sorts long hiring-link keys together) and total bytes, each value measured as
 * KV stores it.
 */
export async function restoreDatabase(
  kv: Deno.Kv,
  input: ReadableStream<Uint8Array<ArrayBuffer>>,
  { activityRetentionDays, now = new Date() }: RestoreOptions,
): Promise<RestoreResult> {
  const expiry = restoredExpiry(activityRetentionDays, now);
  const resumed = await restoreUnfinished(kv);
  if (!resumed) {
    for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) {
      await input.cancel();
      throw new TaskError("The database is not empty; restore only into an empty database");
    }
    const marked = await kv.atomic().check({ key: keys.restoreInProgress(), versionstamp: null })
      .set(keys.restoreInProgress(), new Date().toISOString()).commit();
    if (!marked.ok) throw new TaskError("Another restore into this database has just started");
  }
  let op = kv.atomic();
  let mutations = 0;
  let keyBytes = 0;
  let bytes = 0;
  let entries = 0;
  let lineNumber = 0;
  let firstLine = 0;
  const flush = async () => {
    if (mutations === 0) return;
    try {
      await op.commit();
    } catch (error) {
      throw new TaskError(
        `Lines ${firstLine}-${lineNumber} could not be written: ${(error as Error).message}`,
      );
    }
    op = kv.atomic();
    mutations = keyBytes = bytes = 0;
  };
  for await (const line of lines(input)) {
    lineNumber++;
    if (!line.trim()) continue;
    let entry: { key: Deno.KvKey; value: unknown };
    try {
      const parsed = JSON.parse(line);
      entry = { key: decodeValue(parsed.key) as Deno.KvKey, value: decodeValue(parsed.value) };
      if (!Array.isArray(entry.key) || entry.key.length === 0) throw new Error("no key");
    } catch (error) {
      throw new TaskError(`Line ${lineNumber} is not a dump entry: ${(error as Error).message}`);
    }
    const keySize = kvKeySize(entry.key);
    // KV counts each key twice towards an atomic write's total size (measured: values + 2 × keys).
    const size = kvValueSize(entry.value) + 2 * keySize;
    if (
      mutations + 1 > ATOMIC_MUTATIONS_BUDGET || keyBytes + keySize > ATOMIC_KEY_BYTES_BUDGET ||
      bytes + size > ATOMIC_BYTES_BUDGET
    ) await flush();
    if (mutations === 0) firstLine = lineNumber;
    const expireIn = expiry(entry.key, entry.value);
    op.set(entry.key, entry.value, expireIn === undefined ? undefined : { expireIn });
    mutations++;
    keyBytes += keySize;
    bytes += size;
    entries++;
  }
  await flush();
  await kv.delete(keys.restoreInProgress());
  return { entries, resumed };
}
