/**
 * Database tasks on the configured database (DENO_KV_PATH, DENO_KV_URL or ./data/careeredge.kv):
 *
 *   deno task seed [--force]        demo data; refuses a database that has jobs unless --force
 *   deno task db:dump [file]        every entry as JSON lines, to the file or standard output
 *   deno task db:restore [file]     JSON lines from the file or standard input; empty database only
 *
 * Each line of a dump is `{"key": [...], "value": ...}`. Values JSON cannot hold (Deno.KvU64
 * counters, bigint, Date, Uint8Array, Map, Set, undefined, non-finite numbers) are written as
 * one-property objects tagged `$kv:<type>`, so a restore gives back exactly what was dumped.
 */
import { ConfigError, loadConfig } from "../server/config.ts";
import { createServices } from "../server/app.ts";
import { openDatabase } from "./db.ts";
import { ATOMIC_BYTES_BUDGET, ATOMIC_MUTATIONS_BUDGET } from "./atomic.ts";
import { seedDemo, seedDemoIfEmpty } from "./seed.ts";

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

/** Writes every entry of the database as JSON lines; returns how many entries it wrote. */
export async function dumpDatabase(kv: Deno.Kv, output: WritableStream<Uint8Array>) {
  const writer = output.getWriter();
  const encoder = new TextEncoder();
  let count = 0;
  let buffered = "";
  try {
    for await (const entry of kv.list({ prefix: [] }, { batchSize: 1000 })) {
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
  return count;
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

/** A failure the person running the task can fix; printed as one line, exit code 1. */
export class TaskError extends Error {}

/**
 * Reads a dump into an empty database, in atomic writes within the KV limits (no checks, since the
 * database was checked empty first). Returns how many entries it wrote.
 */
export async function restoreDatabase(kv: Deno.Kv, input: ReadableStream<Uint8Array<ArrayBuffer>>) {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) {
    await input.cancel();
    throw new TaskError("The database is not empty; restore only into an empty database");
  }
  let op = kv.atomic();
  let mutations = 0;
  let bytes = 0;
  let count = 0;
  let lineNumber = 0;
  const flush = async () => {
    if (mutations === 0) return;
    if (!(await op.commit()).ok) throw new TaskError("A restore write was rejected");
    op = kv.atomic();
    mutations = 0;
    bytes = 0;
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
    // The JSON text is a fair upper bound of the stored size: tags and base64 only make it longer.
    const size = line.length * 2;
    if (mutations + 1 > ATOMIC_MUTATIONS_BUDGET || bytes + size > ATOMIC_BYTES_BUDGET) {
      await flush();
    }
    op.set(entry.key, entry.value);
    mutations++;
    bytes += size;
    count++;
  }
  await flush();
  return count;
}

async function openConfigured(): Promise<Deno.Kv> {
  return await openDatabase(loadConfig(Deno.env.toObject()));
}

async function seedCommand(force: boolean) {
  const config = loadConfig(Deno.env.toObject());
  using kv = await openDatabase(config);
  const services = createServices({ kv, config });
  if (force) {
    const jobs = await seedDemo(services);
    console.log(`Added ${jobs.length} demo jobs.`);
  } else if (await seedDemoIfEmpty(services)) {
    console.log(`Seeded the demo data: ${(await services.jobs.statusCounts()).all} jobs.`);
  } else {
    throw new TaskError(
      "The database has (or had) jobs; `deno task seed --force` adds the demo set anyway",
    );
  }
}

const USAGE = "Usage: deno run -A kv/cli.ts seed [--force] | dump [file] | restore [file]";

if (import.meta.main) {
  const [command, argument] = Deno.args;
  try {
    if (command === "seed") {
      if (argument !== undefined && argument !== "--force") throw new TaskError(USAGE);
      await seedCommand(argument === "--force");
    } else if (command === "dump") {
      using kv = await openConfigured();
      const output = argument && argument !== "-"
        ? (await Deno.open(argument, { write: true, create: true, truncate: true })).writable
        : Deno.stdout.writable;
      const count = await dumpDatabase(kv, output);
      console.error(
        `Dumped ${count} entries${argument && argument !== "-" ? ` to ${argument}` : ""}.`,
      );
    } else if (command === "restore") {
      using kv = await openConfigured();
      const input = argument && argument !== "-"
        ? (await Deno.open(argument)).readable
        : Deno.stdin.readable;
      console.error(`Restored ${await restoreDatabase(kv, input)} entries.`);
    } else {
      throw new TaskError(USAGE);
    }
  } catch (error) {
    const expected = error instanceof TaskError || error instanceof ConfigError ||
      error instanceof Deno.errors.NotFound;
    if (!expected) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
