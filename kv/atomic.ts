/** Helpers for multi-key writes: retry on conflict, ids, and the KV size limits. */
import { deserialize, serialize } from "node:v8";
import { encodeHex } from "../server/hex.ts";

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

/** A 24-hex identifier (seconds then random), sortable by creation time like a MongoDB ObjectId. */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, "0");
  return seconds + encodeHex(crypto.getRandomValues(new Uint8Array(8)));
}

/** Deno KV allows 800 KiB and 1000 mutations per atomic write; stay well inside both. */
export const ATOMIC_BYTES_BUDGET = 600 * 1024;
export const ATOMIC_MUTATIONS_BUDGET = 900;
/** Deno KV refuses a value whose V8 serialisation is longer than this. */
export const KV_VALUE_BYTES = 65_536;

/**
 * The bytes Deno KV counts for a value: its V8 serialisation, the same bytes `node:v8` gives
 * (tested against KV's own refusal). A value is measured as it will be once read back, because
 * every later rewrite starts from that copy and it can be larger than the first write: V8 reads
 * arrays back as holey, and serialises those with an index before every element.
 */
export function valueSize(value: unknown): number {
  return serialize(deserialize(serialize(value))).byteLength;
}

/** Splits a list into chunks of at most `size` (getMany takes 10 keys). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Reads many keys, 10 at a time as getMany allows, in parallel. */
export async function getAll<T>(
  kv: Deno.Kv,
  keyList: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const parts = await Promise.all(chunk(keyList, 10).map((part) => kv.getMany<T[]>(part)));
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
