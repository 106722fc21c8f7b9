/** Helpers for multi-key writes: retry on conflict, ids, and the KV size limits. */
import { deserialize, serialize } from "node:v8";
import { encodeHex } from "./hex.ts";

/** Thrown when an atomic write keeps conflicting; the API maps it to 503, never a silent loss. */
export class ConflictError extends Error {
  constructor() {
    super("The database is busy, please try again");
  }
}

/**
 * Runs an optimistic read-check-write step until it commits. `attempt` returns `undefined` when its
 * commit lost a race (the caller re-reads and tries again) and any other value when it is done.
 */
export async function retrying<T>(attempt: () => Promise<T | undefined>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
    // Jittered back-off so that many writers racing for one key spread out instead of colliding again.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 + i * 2)));
  }
  throw new ConflictError();
}

/** A count that starts again `windowMs` after its first event, and is gone then. */
export interface WindowCount {
  count: number;
  /** Epoch ms. */
  resetAt: number;
}

/** Adds `change` (at least down to 0) to the count kept under `key`; the count as it is now. */
export function countInWindow(
  kv: Deno.Kv,
  key: Deno.KvKey,
  windowMs: number,
  now: Date,
  change = 1,
): Promise<WindowCount> {
  return retrying(async () => {
    const entry = await kv.get<WindowCount>(key);
    const at = now.getTime();
    const current = entry.value && entry.value.resetAt > at
      ? entry.value
      : { count: 0, resetAt: at + windowMs };
    const next = { count: Math.max(0, current.count + change), resetAt: current.resetAt };
    const result = await kv.atomic().check(entry).set(key, next, {
      expireIn: Math.max(1, next.resetAt - at),
    }).commit();
    return result.ok ? next : undefined;
  });
}

/** A 24-hex identifier (seconds then random), sortable by creation time like a MongoDB ObjectId. */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, "0");
  return seconds + encodeHex(crypto.getRandomValues(new Uint8Array(8)));
}

/** Deno KV allows 800 KiB and 1000 mutations per atomic write; stay well inside both. */
/** Read options for a nearby replica's copy, which may be a moment behind the primary. */
export const EVENTUAL = { consistency: "eventual" } as const;

export const ATOMIC_BYTES_BUDGET = 600 * 1024;
export const ATOMIC_MUTATIONS_BUDGET = 900;
/** Deno KV refuses a value whose stored size (`kvValueSize`) is larger than this. */
export const KV_VALUE_BYTES = 65_536;
/** Deno KV refuses a key whose encoding (`kvKeySize`) is longer than this. */
export const KV_KEY_BYTES = 2_048;

/** Deno KV allows 80 KiB of key bytes (checks and mutations together) per atomic write. */
export const ATOMIC_KEY_BYTES_BUDGET = 72 * 1024;

const utf8 = new TextEncoder();
const PLAIN_ASCII = /^[ -~]*$/;

/** Bytes of an encoded key part's content: a zero byte is escaped as two. */
function escapedLength(bytes: Uint8Array): number {
  let length = bytes.length;
  for (const byte of bytes) if (byte === 0) length++;
  return length;
}

/**
 * The size of a key as KV encodes it (the measure of its 2 KiB key limit and of the key bytes of an
 * atomic write): strings and bytes take a type byte, their content and a terminator; numbers nine
 * bytes; booleans one; a bigint at most two bytes beyond its magnitude.
 */
export function kvKeySize(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) {
    // Printable ASCII (ids, job numbers, most links) is one byte a character.
    if (typeof part === "string") {
      size += 2 + (PLAIN_ASCII.test(part) ? part.length : escapedLength(utf8.encode(part)));
    } else if (part instanceof Uint8Array) size += 2 + escapedLength(part);
    else if (typeof part === "number") size += 9;
    else if (typeof part === "boolean") size += 1;
    else if (typeof part === "bigint") {
      size += 2 + Math.ceil((part < 0n ? -part : part).toString(16).length / 2);
    } else throw new TypeError(`KV keys cannot hold a ${typeof part}`);
  }
  return size;
}

/**
 * The size of a value as KV stores it (the measure of its 64 KiB value limit): raw bytes for a
 * Uint8Array, eight bytes for a Deno.KvU64, otherwise V8's serialisation, in which a string with any
 * character above U+00FF takes two bytes a character.
 */
export function kvValueSize(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Deno.KvU64) return 8;
  return serialize(value).byteLength;
}

/**
 * The size a record will have once read back from KV, which every later rewrite of it starts from:
 * V8 reads arrays back holey and serialises those with an index before every element, so the copy
 * read back can be larger than the value first written (about 2.5 bytes a list entry).
 */
export function readBackSize(value: unknown): number {
  return kvValueSize(deserialize(serialize(value)));
}

/** Splits a list into chunks of at most `size` (getMany takes 10 keys). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** How many keys one `getMany` reads at most. */
export const GET_MANY_KEYS = 10;

/** Reads many keys, 10 at a time as getMany allows, in parallel. */
export async function getAll<T>(
  kv: Deno.Kv,
  keyList: Deno.KvKey[],
  options?: { consistency?: Deno.KvConsistencyLevel },
): Promise<Deno.KvEntryMaybe<T>[]> {
  const parts = await Promise.all(
    chunk(keyList, GET_MANY_KEYS).map((part) => kv.getMany<T[]>(part, options)),
  );
  return parts.flat();
}

/**
 * Wraps a read so that concurrent callers share one: each caller gets a read that began after it
 * asked (one arriving while a read is under way waits for the next, which may not have missed a
 * write), yet under load a single read serves every caller that arrived meanwhile.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = () => {
    const current = read().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  return () => {
    if (!running) return start();
    const next = () => (queued = null, start());
    queued ??= running.then(next, next);
    return queued;
  };
}

/** `sharedRead` per key (such as one session): callers of one key share, other keys do not wait. */
export function sharedReadByKey<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  let readers = new Map<string, () => Promise<T>>();
  return (key) => {
    let reader = readers.get(key);
    if (!reader) {
      // Readers are small; starting over now and then bounds them (a caller may then read alone).
      if (readers.size >= 10_000) readers = new Map();
      reader = sharedRead(() => read(key));
      readers.set(key, reader);
    }
    return reader();
  };
}
