/**
 * The catalogue's snapshot in KV: what the public catalogue and its search index need (listed jobs,
 * never whole records, and the index's posting lists), packed and gzipped into chunks within KV's
 * value limit, under a head record that names the revision, the chunks and their hash. A cold
 * process loads it in a few reads and catches up from the change log, instead of reading every
 * active job. Whatever is wrong with a snapshot (missing, torn, corrupt, of another format or
 * another search code) is detected, and the caller loads the catalogue whole.
 */
import { deserialize, serialize } from "node:v8";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { keys } from "../keys.ts";
import { encodeHex } from "../hex.ts";
import { ActiveCatalog, type CatalogState, type ListedJob } from "./catalogue.ts";
import { generateJob, seededRandom } from "../demo/generate.ts";
import { BOUND_PHRASES, ROLES, SKILLS, WHOLE_WORDS } from "../search/vocabulary-data.ts";
import { REMOTE } from "../job-fields.ts";
import { CITIES, statesByName } from "../regions.ts";

/** Bumped whenever the packed layout below changes. */
const SNAPSHOT_FORMAT = 1;
/** Bytes of one chunk: under KV's 64 KiB value limit. */
const CHUNK_BYTES = 60_000;
/** Chunks written in one atomic operation: 720 KB, within KV's 800 KiB. */
const CHUNKS_PER_WRITE = 12;
/** How long one process may hold the right to write the snapshot. */
const LEASE_MS = 5 * 60_000;
/**
 * Chunks expire on their own, so those of a writer that died before naming them in the head never
 * stay; a snapshot this old is found torn, and the catalogue is loaded whole and snapshotted again.
 */
const CHUNK_TTL_MS = 30 * 24 * 3_600_000;

export interface SnapshotHead {
  format: number;
  /** The search code's fingerprint: a snapshot of other code would answer other results. */
  fingerprint: string;
  revision: number;
  id: string;
  chunks: number;
  bytes: number;
  sha256: string;
  writtenAt: string;
  /** The snapshot this one replaced: kept for readers still reading it, removed by the next. */
  previous: { id: string; chunks: number } | null;
}

/** A column of the listed jobs: texts by number in a shared table, lists of them, or as they are. */
type Column =
  | { kind: "text"; refs: Int32Array }
  | { kind: "list"; refs: Int32Array }
  | { kind: "group"; groups: Record<string, Int32Array> }
  | { kind: "raw"; values: unknown[] };

interface PackedJobs {
  count: number;
  texts: string[];
  lists: Int32Array[];
  columns: [string, Column][];
}

const ABSENT = -2;
const NULL = -1;

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");
const isGroup = (value: unknown): value is Record<string, string[]> =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.values(value).every(isTextList);

/**
 * The listed jobs by column, every distinct text and list of texts stored once: 100,000 jobs
 * share a few thousand companies, places and skill lists.
 */
async function packJobs(jobs: ListedJob[], pause: () => Promise<void>): Promise<PackedJobs> {
  const texts: string[] = [];
  const textNumbers = new Map<string, number>();
  const lists: Int32Array[] = [];
  const listNumbers = new Map<string, number>();
  const text = (value: string) => {
    let number = textNumbers.get(value);
    if (number === undefined) textNumbers.set(value, number = texts.push(value) - 1);
    return number;
  };
  const list = (values: string[]) => {
    const key = values.join("\u0000");
    let number = listNumbers.get(key);
    if (number === undefined) {
      listNumbers.set(key, number = lists.push(Int32Array.from(values, text)) - 1);
    }
    return number;
  };
  const rows = jobs as unknown as Record<string, unknown>[];
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns: [string, Column][] = [];
  for (const name of names) {
    await pause();
    columns.push(packColumn(name, rows, text, list));
  }
  return { count: jobs.length, texts, lists, columns };
}

/** One column of the listed jobs (see `packJobs`). */
function packColumn(
  name: string,
  rows: Record<string, unknown>[],
  text: (value: string) => number,
  list: (values: string[]) => number,
): [string, Column] {
  const values = rows.map((row) => (name in row ? row[name] : ABSENT));
  const present = values.filter((value) => value !== ABSENT && value !== null);
  const refsOf = (of: (value: never) => number) =>
    Int32Array.from(
      values,
      (value) => value === ABSENT ? ABSENT : value === null ? NULL : of(value as never),
    );
  if (present.every((value) => typeof value === "string")) {
    return [name, { kind: "text", refs: refsOf(text) }];
  }
  if (present.every(isTextList)) return [name, { kind: "list", refs: refsOf(list) }];
  if (present.length === values.length && present.every(isGroup)) {
    const groupNames = [...new Set(present.flatMap((value) => Object.keys(value)))];
    const groups = Object.fromEntries(groupNames.map((group) => [
      group,
      Int32Array.from(values as Record<string, string[]>[], (value) => list(value[group] ?? [])),
    ]));
    return [name, { kind: "group", groups }];
  }
  return [name, { kind: "raw", values }];
}

function unpackJobs({ count, texts, lists, columns }: PackedJobs): ListedJob[] {
  const listTexts = lists.map((refs) => Array.from(refs, (ref) => texts[ref]));
  const names = columns.map(([name]) => name);
  /** Row i's value of each column, or ABSENT. */
  const readers = columns.map(([, column]): (i: number) => unknown => {
    if (column.kind === "group") {
      const groups = Object.entries(column.groups);
      return (i) => {
        const value: Record<string, string[]> = {};
        for (const [group, refs] of groups) value[group] = listTexts[refs[i]];
        return value;
      };
    }
    if (column.kind === "raw") return (i) => column.values[i];
    const table = column.kind === "text" ? texts : listTexts;
    return (i) => {
      const ref = column.refs[i];
      return ref === ABSENT ? ABSENT : ref === NULL ? null : table[ref];
    };
  });
  // Rows are copied from a template of their columns made by JSON.parse, whose objects V8 keeps
  // in its fast layout: an object given twenty properties one by one turns into a hash table
  // (docs/decisions/031-snapshot-rows-in-v8s-fast-layout.md). A column some rows lack (an
  // optional field) makes a template per set of columns present.
  const optional = columns.flatMap(([, column], c) =>
    (column.kind === "raw" ? column.values : column.kind === "group" ? [] : column.refs)
        .includes(ABSENT)
      ? [c]
      : []
  );
  const templates = new Map<string, Record<string, unknown>>();
  const templateOf = (present: (c: number) => boolean) => {
    const shape = names.flatMap((name, c) => present(c) ? [[name, 0]] : []);
    return JSON.parse(JSON.stringify(Object.fromEntries(shape))) as Record<string, unknown>;
  };
  const full = templateOf(() => true);
  return Array.from({ length: count }, (_, i) => {
    let template = full;
    if (optional.length > 0) {
      const absent = optional.filter((c) => readers[c](i) === ABSENT);
      if (absent.length > 0) {
        const signature = absent.join();
        template = templates.get(signature) ??
          templates.set(signature, templateOf((c) => !absent.includes(c))).get(signature)!;
      }
    }
    const row: Record<string, unknown> = { ...template };
    for (let c = 0; c < names.length; c++) {
      const value = readers[c](i);
      if (value !== ABSENT) row[names[c]] = value;
    }
    return row as unknown as ListedJob;
  });
}

interface Payload {
  format: number;
  fingerprint: string;
  revision: number;
  jobs: PackedJobs;
  stamps: string[];
  index: CatalogState["index"];
}

/**
 * zlib's one-shot calls: a web DecompressionStream is much slower, and this is on the cold start's
 * path (docs/decisions/025-visitors-never-wait-on-kvs-primary.md). Under Deno they inflate on the
 * main thread although they return a promise: 130-150 ms of a cold start at 100,000 jobs.
 */
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A bound on a piece, whatever size a trailer claims: a larger output is made in more pieces. */
const MAX_PIECE = 1024 * 1024 * 1024;

/**
 * zlib's output is made in pieces of `chunkSize` (16 KiB unless told) and joined at the end. At
 * 100,000 jobs that is 3,000 blocks of 16 KiB for a 50 MB payload: small enough that glibc takes
 * them from its heap, where the holes they leave once freed stay resident for good (74 MB at
 * 100,000 jobs, measured). Asked for one piece as large as the whole output, zlib takes one block,
 * which glibc maps on its own and gives back when it is freed. Never below zlib's default.
 */
const wholeOutput = (bytes: number) => ({
  chunkSize: Math.min(Math.max(16 * 1024, bytes), MAX_PIECE),
});

/** A gzip member's uncompressed size, modulo 2^32, from its trailer (RFC 1952). */
const gzipSize = (packed: Uint8Array) =>
  packed.length < 4
    ? 0
    : new DataView(packed.buffer, packed.byteOffset + packed.length - 4).getUint32(0, true);

/** Compressed output is at most its input and a little more: one piece in nearly every case. */
const compress = (bytes: Uint8Array) => gzipAsync(bytes, wholeOutput(bytes.length));
const decompress = (packed: Uint8Array) => gunzipAsync(packed, wholeOutput(gzipSize(packed)));

async function sha256(bytes: Uint8Array): Promise<string> {
  return encodeHex(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)),
  );
}

/** Runs `read` while the catalogue is kept from changing (the store's catch-ups wait). */
export type Hold = <T>(read: () => Promise<T>) => Promise<T>;

/** Lets requests waiting meanwhile be answered: encoding 100,000 jobs is a second of work. */
const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let fingerprintOnce: Promise<string> | null = null;

/**
 * A fingerprint of the code that decides what a snapshot holds: the snapshot of a small fixed
 * catalogue and the search vocabulary, hashed. A change to how text is cut into words, how the index keeps them or what a
 * list keeps of a job changes it, and snapshots made by other code are then not used.
 */
export function searchFingerprint(): Promise<string> {
  fingerprintOnce ??= (() => {
    const random = seededRandom(7);
    const probe = new ActiveCatalog(0);
    for (let serial = 1; serial <= 40; serial++) {
      const job = generateJob(random, serial, {
        status: "active",
        datePosted: new Date(Date.UTC(2026, 0, serial)),
        movedToDumpAt: null,
      });
      // Fixed ids: a generated job's id holds random bits. The last has a role of the words the
      // reading rules take apart (a grade joined on, two neighbours read as one, a bound phrase)
      // and a location of places they take apart (a list of cities, a state's name that is a
      // city's too, work-mode notes, words before a list, a city named twice, remote as one
      // choice), which generated jobs lack.
      const last = serial === 40;
      const role = last ? "SDE-2 (Full Stack) / Sales Development Sr. Tutor" : job.role;
      const location = last
        ? "Hybrid (Bangalore) / Noida, Gurgaon, Delhi | Mumbai - 2 days WFH or Remote; " +
          "Openings (Kochi, Surat) / Pune (Poona)"
        : job.location;
      probe.put(
        { ...job, role, location, _id: `probe-${serial}`, jobId: `JB-${serial}` },
        String(serial),
      );
    }
    // The vocabulary too: an entry no probe job holds still changes what the index holds (remote's
    // names mark a job's location with the Remote word, a state's names and a city's state give
    // it its region words).
    const vocabulary = {
      SKILLS,
      ROLES,
      WHOLE_WORDS,
      BOUND_PHRASES,
      remote: REMOTE.source,
      states: [...statesByName],
      CITIES,
    };
    return probe.exportState().then((state) =>
      sha256(serialize({ format: SNAPSHOT_FORMAT, state, vocabulary }))
    );
  })();
  return fingerprintOnce;
}

/** The catalogue packed, gzipped and cut into chunks. */
export async function encodeSnapshot(
  catalog: ActiveCatalog,
  hold: Hold = (read) => read(),
): Promise<{ revision: number; chunks: Uint8Array[]; bytes: number; sha256: string }> {
  const fingerprint = await searchFingerprint();
  // Read while `hold` keeps the catalogue from catching up, in steps between which requests are
  // answered; what it gives is detached from the catalogue, which may then catch up again.
  const state = await hold(() => catalog.exportState(yieldToRequests));
  const payload: Payload = {
    format: SNAPSHOT_FORMAT,
    fingerprint,
    revision: state.revision,
    jobs: await packJobs(state.jobs, yieldToRequests),
    stamps: state.stamps,
    index: state.index,
  };
  const packed = new Uint8Array(await compress(serialize(payload)));
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < packed.length; at += CHUNK_BYTES) {
    chunks.push(packed.subarray(at, at + CHUNK_BYTES));
  }
  return { revision: state.revision, chunks, bytes: packed.length, sha256: await sha256(packed) };
}

/** The catalogue in chunks made by `encodeSnapshot`; throws on anything that does not add up. */
export async function decodeSnapshot(
  head: SnapshotHead,
  chunks: Uint8Array[],
): Promise<ActiveCatalog> {
  const packed = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    packed.set(chunk, at);
    at += chunk.length;
  }
  if (packed.length !== head.bytes || await sha256(packed) !== head.sha256) {
    throw new Error("its chunks do not match its head (torn or corrupt)");
  }
  const bytes = await decompress(packed);
  release(packed);
  const payload = deserialize(bytes) as Payload;
  if (
    payload.format !== head.format || payload.fingerprint !== head.fingerprint ||
    payload.revision !== head.revision
  ) {
    throw new Error("its contents do not match its head");
  }
  const catalog = ActiveCatalog.fromState({
    revision: payload.revision,
    jobs: unpackJobs(payload.jobs),
    stamps: payload.stamps,
    index: payload.index,
  });
  // The payload's typed arrays are views of `bytes` (v8.deserialize copies none), and the
  // catalogue keeps copies of what it needs and views of none.
  release(bytes);
  return catalog;
}

/**
 * Gives a buffer's memory back at once rather than at the next major collection, which a process
 * that has just loaded its catalogue may not run for minutes (at 100,000 jobs: 11 MB packed and
 * 50 MB unpacked; a server right after its start holds 57 MB less). Only an array that is its
 * whole buffer: a small Buffer may share a pool with others.
 */
function release(bytes: Uint8Array): void {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) {
    (bytes.buffer as ArrayBuffer).transfer(0);
  }
}

/** Why a snapshot could not be used, or the catalogue it holds. */
export type SnapshotRead =
  | { catalog: ActiveCatalog; head: SnapshotHead }
  | { catalog: null; reason: string };

/**
 * Reads the snapshot: eventual reads first (a nearby replica), then once more strongly when what
 * came back does not add up, since a replica may have the new head before all its chunks.
 */
export async function readSnapshot(kv: Deno.Kv): Promise<SnapshotRead> {
  const fingerprint = await searchFingerprint();
  let reason = "";
  for (const consistency of ["eventual", "strong"] as const) {
    const head = (await kv.get<SnapshotHead>(keys.snapshotHead(), { consistency })).value;
    if (!head) return { catalog: null, reason: "there is none" };
    if (head.format !== SNAPSHOT_FORMAT) {
      return { catalog: null, reason: `it has format ${head.format}, not ${SNAPSHOT_FORMAT}` };
    }
    if (head.fingerprint !== fingerprint) {
      return { catalog: null, reason: "it was made by other search code" };
    }
    const chunks: Uint8Array[] = [];
    for await (
      const entry of kv.list<Uint8Array>({ prefix: keys.snapshotChunks(head.id) }, {
        consistency,
        batchSize: 500,
      })
    ) {
      if (entry.key[2] !== chunks.length || !(entry.value instanceof Uint8Array)) break;
      chunks.push(entry.value);
    }
    try {
      if (chunks.length !== head.chunks) {
        throw new Error(`it has ${chunks.length} of its ${head.chunks} chunks (torn)`);
      }
      return { catalog: await decodeSnapshot(head, chunks), head };
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
  }
  return { catalog: null, reason };
}

/**
 * Writes a snapshot of `catalog` unless one of its revision or later is there, or another process
 * is writing one (a lease), or the last was written less than `minIntervalMs` ago. The chunks go
 * first, under a new id; the head that names them is written last, checked against the head that
 * was read, so a reader never sees a head whose chunks are not all there. The chunks of the
 * snapshot before the one replaced are removed.
 */
export async function writeSnapshot(
  kv: Deno.Kv,
  catalog: ActiveCatalog,
  now: Date,
  { minIntervalMs = 0, hold }: { minIntervalMs?: number; hold?: Hold } = {},
): Promise<SnapshotHead | null> {
  const fingerprint = await searchFingerprint();
  const readHead = async () => {
    const current = await kv.get<SnapshotHead>(keys.snapshotHead());
    const old = current.value;
    const enough = old && old.format === SNAPSHOT_FORMAT && old.fingerprint === fingerprint &&
      (old.revision >= catalog.revision ||
        now.getTime() - Date.parse(old.writtenAt) < minIntervalMs);
    return enough ? null : current;
  };
  if (!await readHead()) return null;
  const lease = await kv.atomic().check({ key: keys.snapshotLease(), versionstamp: null })
    .set(keys.snapshotLease(), now.toISOString(), { expireIn: LEASE_MS }).commit();
  if (!lease.ok) return null;
  const id = crypto.randomUUID();
  let written = 0;
  try {
    // Read again under the lease: a process that held it since the first read may have written
    // a snapshot as new, and the head's swap below checks against this read.
    const current = await readHead();
    if (!current) return null;
    const old = current.value;
    const encoded = await encodeSnapshot(catalog, hold);
    for (let first = 0; first < encoded.chunks.length; first += CHUNKS_PER_WRITE) {
      const op = kv.atomic();
      encoded.chunks.slice(first, first + CHUNKS_PER_WRITE).forEach((chunk, i) => {
        op.set(keys.snapshotChunk(id, first + i), chunk, { expireIn: CHUNK_TTL_MS });
      });
      const result = await op.commit();
      if (!result.ok) throw new Error("a snapshot chunk was not written");
      written = first + CHUNKS_PER_WRITE;
    }
    const head: SnapshotHead = {
      format: SNAPSHOT_FORMAT,
      fingerprint,
      revision: encoded.revision,
      id,
      chunks: encoded.chunks.length,
      bytes: encoded.bytes,
      sha256: encoded.sha256,
      writtenAt: now.toISOString(),
      previous: old ? { id: old.id, chunks: old.chunks } : null,
    };
    const swapped = await kv.atomic().check(current).set(keys.snapshotHead(), head).commit();
    if (!swapped.ok) throw new Error("another snapshot was written meanwhile");
    if (old?.previous) await deleteChunks(kv, old.previous.id, old.previous.chunks);
    return head;
  } catch (error) {
    await deleteChunks(kv, id, written);
    throw error;
  } finally {
    await kv.delete(keys.snapshotLease());
  }
}

async function deleteChunks(kv: Deno.Kv, id: string, count: number): Promise<void> {
  for (let first = 0; first < count; first += 500) {
    const op = kv.atomic();
    for (let i = first; i < Math.min(count, first + 500); i++) op.delete(keys.snapshotChunk(id, i));
    await op.commit();
  }
}
