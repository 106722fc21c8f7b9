/**
 * Deno Deploy's distances, simulated from outside the product: loaded with `deno run --preload`,
 * it wraps the KV handle main.ts opens so that every strong read waits EDGE_STRONG_MS (100), every
 * commit EDGE_COMMIT_MS (150) and every eventual read EDGE_EVENTUAL_MS (3), as a region far from
 * KV's primary would. Its watch reports other processes' writes too, as Deploy's does (SQLite's
 * own sees only its process's): it reads the watched keys every 20 ms, uncounted. It counts reads
 * and Deploy's read units (4 KiB of key and value per entry, at least one) and writes the counts
 * to EDGE_KV_STATS every 100 ms for the bench to read.
 */
import { serialize } from "node:v8";

const delay = (name: string, fallback: number) => Number(Deno.env.get(name) ?? fallback);
const STRONG_MS = delay("EDGE_STRONG_MS", 100);
const COMMIT_MS = delay("EDGE_COMMIT_MS", 150);
const EVENTUAL_MS = delay("EDGE_EVENTUAL_MS", 3);
const WATCH_POLL_MS = 20;
const statsFile = Deno.env.get("EDGE_KV_STATS");

export interface EdgeStats {
  strongReads: number;
  eventualReads: number;
  commits: number;
  /** Entries read, and Deploy's read units for them (4 KiB each, rounded up per entry). */
  entries: number;
  readUnits: number;
  readBytes: number;
}

const stats: EdgeStats = {
  strongReads: 0,
  eventualReads: 0,
  commits: 0,
  entries: 0,
  readUnits: 0,
  readBytes: 0,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const encoder = new TextEncoder();

function sizeOf(entry: Deno.KvEntryMaybe<unknown>): number {
  const key = encoder.encode(JSON.stringify(entry.key)).length;
  const value = entry.value;
  if (value === null) return key;
  if (value instanceof Uint8Array) return key + value.byteLength;
  if (value instanceof Deno.KvU64) return key + 8;
  return key + serialize(value).byteLength;
}

function counted(entries: Deno.KvEntryMaybe<unknown>[]): void {
  for (const entry of entries) {
    const bytes = sizeOf(entry);
    stats.entries++;
    stats.readBytes += bytes;
    stats.readUnits += Math.max(1, Math.ceil(bytes / 4096));
  }
}

/** Waits as a read of this consistency would, and counts it. */
async function read(options?: { consistency?: Deno.KvConsistencyLevel }): Promise<void> {
  if (options?.consistency === "eventual") {
    stats.eventualReads++;
    await sleep(EVENTUAL_MS);
  } else {
    stats.strongReads++;
    await sleep(STRONG_MS);
  }
}

function slowList(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  options: Deno.KvListOptions = {},
): AsyncIterableIterator<Deno.KvEntry<unknown>> & { cursor: string } {
  const inner = kv.list(selector, options);
  const batch = Math.min(options.batchSize ?? 500, options.limit ?? Infinity);
  let taken = 0;
  const iterator = {
    get cursor() {
      return inner.cursor;
    },
    async next(): Promise<IteratorResult<Deno.KvEntry<unknown>>> {
      // Each batch is one trip to KV.
      if (taken % batch === 0) await read(options);
      const result = await inner.next();
      if (!result.done) {
        taken++;
        counted([result.value]);
      }
      return result;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator as AsyncIterableIterator<Deno.KvEntry<unknown>> & { cursor: string };
}

/** A watch that sees every process's writes: the keys read every WATCH_POLL_MS, uncounted. */
function pollingWatch(
  kv: Deno.Kv,
  watched: Deno.KvKey[],
): ReadableStream<Deno.KvEntryMaybe<unknown>[]> {
  let last = "";
  let stopped = false;
  return new ReadableStream({
    async pull(controller) {
      while (!stopped) {
        const entries = await kv.getMany(watched);
        const stamps = entries.map((entry) => entry.versionstamp).join();
        if (stamps !== last) {
          last = stamps;
          controller.enqueue(entries);
          return;
        }
        await sleep(WATCH_POLL_MS);
      }
    },
    cancel() {
      stopped = true;
    },
  });
}

function slowed(kv: Deno.Kv): Deno.Kv {
  const atomic = kv.atomic.bind(kv);
  const delayedAtomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      stats.commits++;
      await sleep(COMMIT_MS);
      return await commit();
    };
    return op;
  };
  // The product wraps `atomic` on the handle it gets (to retry busy commits): its wrapper is kept
  // here, around the delayed one, rather than on the handle under this proxy.
  let wrappedAtomic: (() => Deno.AtomicOperation) | null = null;
  return new Proxy(kv, {
    set(target, property, value) {
      if (property !== "atomic") return Reflect.set(target, property, value);
      wrappedAtomic = value;
      return true;
    },
    get(target, property) {
      switch (property) {
        case "get":
          return async (key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) => {
            await read(options);
            const entry = await target.get(key, options);
            counted([entry]);
            return entry;
          };
        case "getMany":
          return async (
            keys: Deno.KvKey[],
            options?: { consistency?: Deno.KvConsistencyLevel },
          ) => {
            await read(options);
            const entries = await target.getMany(keys, options);
            counted(entries);
            return entries;
          };
        case "list":
          return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) =>
            slowList(target, selector, options);
        case "watch":
          return (keys: Deno.KvKey[]) => pollingWatch(target, keys);
        case "atomic":
          return wrappedAtomic ?? delayedAtomic;
        default: {
          const value = Reflect.get(target, property);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}

const openKv = Deno.openKv.bind(Deno);
Object.defineProperty(Deno, "openKv", {
  value: async (path?: string) => slowed(await openKv(path)),
});

if (statsFile) {
  let written = "";
  const timer = setInterval(() => {
    const text = JSON.stringify(stats);
    if (text === written) return;
    written = text;
    Deno.writeTextFileSync(`${statsFile}.tmp`, text);
    Deno.renameSync(`${statsFile}.tmp`, statsFile);
  }, 100);
  Deno.unrefTimer(timer);
}
