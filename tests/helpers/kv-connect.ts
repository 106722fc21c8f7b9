/**
 * A KV Connect endpoint for tests: the protocol `Deno.openKv("http://…")` speaks (denokv's
 * proto/kv-connect.md), served on 127.0.0.1 at a free port over a fresh database.
 *
 * The database engine is denokv's own, through its Node-API build (npm @deno/kv-linux-x64-gnu):
 * the request bodies go to it untouched, so every limit, check, sum and versionstamp is decided by
 * the same Rust code (denokv's proto/convert.rs and sqlite backend) as in the self-hosted server.
 * This file is the part of denokv/main.rs that the build leaves out: the metadata exchange, the
 * bearer token, the protocol headers, the error statuses and texts, the watch stream, and the one
 * limit the build does not check (the watch's keys).
 */
import { createRequire } from "node:module";

/** The token every endpoint of this process accepts; Deno's client reads it from the environment. */
export const KV_CONNECT_TOKEN = "kv-connect-test-token";

/** denokv's single database id (it serves one database, with the nil UUID). */
const DATABASE_ID = "00000000-0000-0000-0000-000000000000";
/** What denokv reads from a watch request before it starts the stream (proto/limits.rs). */
const MAX_WATCHED_KEYS = 10;
const MAX_WRITE_KEY_SIZE_BYTES = 2048;
/** axum 0.6's default body limit, which denokv's protobuf extractor inherits. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** denokv's keep-alive: an empty frame every 5 s on a watch stream. */
const WATCH_PING_MS = 5000;

/** The functions of denokv's Node-API build (npm/napi/src/lib.rs in denokv). */
interface DenoKvNapi {
  open(path: string, inMemory: boolean, debug: boolean): number;
  close(db: number, debug: boolean): void;
  snapshotRead(db: number, body: Uint8Array, debug: boolean): Promise<Uint8Array>;
  atomicWrite(db: number, body: Uint8Array, debug: boolean): Promise<Uint8Array>;
  startWatch(db: number, body: Uint8Array, debug: boolean): Promise<number>;
  dequeueNextWatchMessage(db: number, watch: number, debug: boolean): Promise<Uint8Array | null>;
  endWatch(db: number, watch: number, debug: boolean): void;
}

let napi: DenoKvNapi | undefined;

/** Native addons load only through require(); the package is in deno.json's imports. */
function denokv(): DenoKvNapi {
  napi ??= createRequire(import.meta.url)("@deno/kv-linux-x64-gnu") as DenoKvNapi;
  return napi;
}

/** An error answer as denokv's ApiError gives it: a status and a plain text message. */
class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** denokv's texts and statuses for the limit and conversion errors the engine reports by name. */
const CONVERT_ERRORS: Record<string, [number, string]> = {
  KeyTooLong: [400, "A key exceeds the key size limit."],
  ValueTooLong: [400, "A value exceeds the value size limit."],
  ReadRangeTooLarge: [
    400,
    "The total number of entries requested across read ranges in the read request is too large.",
  ],
  AtomicWriteTooLarge: [400, "The total size of the atomic write is too large."],
  TooManyReadRanges: [400, "Too many read ranges requested in one read request."],
  TooManyWatchedKeys: [400, "Too many keys watched in a single watch request."],
  TooManyChecks: [400, "Too many checks included in atomic write."],
  TooManyMutations: [400, "Too many mutations / enqueues included in atomic write."],
  TooManyQueueUndeliveredKeys: [400, "Too many dead letter keys for a single queue message."],
  TooManyQueueBackoffIntervals: [400, "Too many backoff intervals for a single queue message."],
  QueueBackoffIntervalTooLarge: [
    400,
    "A backoff interval exceeds the maximum allowed backoff interval.",
  ],
  InvalidReadRangeLimit: [400, "The read range limit of the snapshot read request is invalid."],
  DecodeError: [500, "An internal server error occurred."],
  InvalidVersionstamp: [400, "Invalid versionstamp."],
  InvalidMutationKind: [400, "Invalid mutation kind or arguments."],
  InvalidMutationExpireAt: [400, "Invalid mutation expire at."],
  InvalidMutationEnqueueDeadline: [400, "Invalid mutation enqueue deadline."],
};

/** The sqlite backend's own errors that denokv answers with a 4xx, as it words them. */
const CLIENT_ERRORS = [
  /^The value encoding -?\d+ is unknown\.$/,
  /^The result of a Sum operation would exceed its range limit$/,
  /^Failed to perform '\w+' mutation on a non-U64 /,
  /^Some of the parameters are not valid V8 values$/,
  /^Min\/max parameters have different types than the operand$/,
  /^Invalid sum operand$/,
  /^Cannot use min\/max parameters with KvU64 operands$/,
  /^Cannot sum \w+ with \w+$/,
];

/** The answer denokv's main.rs gives for an error of its engine (the build throws its name or text). */
function engineError(error: unknown): ApiError {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
  const known = CONVERT_ERRORS[message];
  if (known) return new ApiError(...known);
  if (message.startsWith("failed to decode Protobuf message")) {
    return new ApiError(400, `Request protobuf is invalid: ${message}.`);
  }
  if (message === "Database is closed.") {
    return new ApiError(503, "The server is temporarially unavailable, try again later.");
  }
  if (CLIENT_ERRORS.some((pattern) => pattern.test(message))) return new ApiError(400, message);
  console.error(`kv-connect: ${message}`);
  return new ApiError(500, "An internal server error occurred.");
}

/** The bearer token check of both the metadata exchange and the data path. */
function checkToken(request: Request) {
  const authorization = request.headers.get("authorization");
  const space = authorization?.indexOf(" ") ?? -1;
  if (!authorization || space < 0) throw new ApiError(401, "Malformed authorization header.");
  const scheme = authorization.slice(0, space).toLowerCase();
  if (scheme !== "bearer" || authorization.slice(space + 1) !== KV_CONNECT_TOKEN) {
    throw new ApiError(401, "Invalid access token.");
  }
}

/** The request's `supportedVersions`; a missing or malformed JSON body is refused as denokv does. */
async function supportedVersions(request: Request): Promise<number[]> {
  const json = request.headers.get("content-type")?.startsWith("application/json")
    ? await request.json().catch(() => undefined)
    : undefined;
  const versions = json?.supportedVersions ?? [];
  const valid = typeof json === "object" && json !== null && !Array.isArray(json) &&
    Array.isArray(versions) && versions.every((v) => Number.isSafeInteger(v) && v >= 0);
  if (!valid) {
    throw new ApiError(
      400,
      "The server requires at least protocol version 2. Use Deno 1.38.0 or newer.",
    );
  }
  return versions;
}

/** The metadata exchange: protocol 3 or 2, one strong endpoint at /v2, valid for a day. */
async function metadata(request: Request): Promise<Response> {
  const versions = await supportedVersions(request);
  const version = versions.includes(3) ? 3 : versions.includes(2) ? 2 : 0;
  if (!version) {
    throw new ApiError(
      400,
      "The server could not negotiate a protocol version. The server requires protocol version 2 or 3.",
    );
  }
  checkToken(request);
  return Response.json({
    version,
    databaseId: DATABASE_ID,
    endpoints: [{ url: "/v2", consistency: "strong" }],
    token: KV_CONNECT_TOKEN,
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
  });
}

/** denokv's data path middleware: protocol version, token, then the database id. */
function checkDataPath(request: Request) {
  const version = request.headers.get("x-denokv-version");
  if (version !== "2" && version !== "3") throw new ApiError(400, "Expected protocol version 2.");
  checkToken(request);
  if (request.headers.get("x-denokv-database-id")?.toLowerCase() !== DATABASE_ID) {
    throw new ApiError(400, "Invalid database id.");
  }
}

async function body(request: Request): Promise<Uint8Array> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > MAX_BODY_BYTES) {
    throw new ApiError(413, "Failed to buffer the request body: length limit exceeded");
  }
  return bytes;
}

function protobuf(bytes: Uint8Array): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": "application/x-protobuf" },
  });
}

/** Reads a varint at `at`; returns it and the offset after it. */
function varint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 64; shift += 7) {
    if (at >= bytes.length) throw new ApiError(400, "Request protobuf is invalid: truncated.");
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
  throw new ApiError(400, "Request protobuf is invalid: varint too long.");
}

/** The fields of one protobuf message: each length-delimited field's bytes, by field number. */
function fields(bytes: Uint8Array): [number, Uint8Array][] {
  const found: [number, Uint8Array][] = [];
  let at = 0;
  while (at < bytes.length) {
    const [tag, next] = varint(bytes, at);
    const wireType = tag & 7;
    at = next;
    if (wireType === 0) at = varint(bytes, at)[1];
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const [length, start] = varint(bytes, at);
      at = start + length;
      found.push([Math.floor(tag / 8), bytes.subarray(start, at)]);
    } else throw new ApiError(400, `Request protobuf is invalid: wire type ${wireType}.`);
    if (at > bytes.length) throw new ApiError(400, "Request protobuf is invalid: truncated.");
  }
  return found;
}

/** denokv's checks of a `Watch` message (convert.rs), which its Node-API build skips. */
function checkWatch(watch: Uint8Array) {
  const watchKeys = fields(watch).filter(([field]) => field === 1);
  if (watchKeys.length > MAX_WATCHED_KEYS) throw new ApiError(...CONVERT_ERRORS.TooManyWatchedKeys);
  for (const [, watchKey] of watchKeys) {
    const key = fields(watchKey).findLast(([field]) => field === 1)?.[1];
    if (key && key.length > MAX_WRITE_KEY_SIZE_BYTES) {
      throw new ApiError(...CONVERT_ERRORS.KeyTooLong);
    }
  }
}

/** A length-prefixed frame of a watch stream (4-byte little-endian length, then the message). */
function frame(message: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(4 + message.length);
  new DataView(bytes.buffer).setUint32(0, message.length, true);
  bytes.set(message, 4);
  return bytes;
}

export interface KvConnectEndpoint extends AsyncDisposable {
  /** The URL to give `Deno.openKv` (with DENO_KV_ACCESS_TOKEN set to KV_CONNECT_TOKEN). */
  url: string;
  /** How many requests got each answer, by endpoint and status: "atomic_write 400". */
  answers: Map<string, number>;
  /** Ends every open watch stream, as a dropped connection would; Deno's client then reconnects. */
  breakWatches(): void;
  /** Ends the watch streams, stops serving and closes the database. */
  close(): Promise<void>;
}

/**
 * Serves a KV Connect endpoint on 127.0.0.1 at a free port, over a new in-memory database or the
 * denokv SQLite file at `path`.
 */
export function startKvConnect(options: { path?: string } = {}): KvConnectEndpoint {
  const engine = denokv();
  const db = engine.open(options.path ?? ":memory:", !options.path, false);
  const answers = new Map<string, number>();
  const openWatches = new Set<() => void>();

  async function watch(request: Request): Promise<Response> {
    const bytes = await body(request);
    checkWatch(bytes);
    const id = await engine.startWatch(db, bytes, false);
    let ended = false;
    let ping: ReturnType<typeof setInterval> | undefined;
    const end = (controller?: ReadableStreamDefaultController<Uint8Array>) => {
      if (ended) return;
      ended = true;
      clearInterval(ping);
      openWatches.delete(end);
      engine.endWatch(db, id, false);
      try {
        controller?.close();
      } catch {
        // The client has already gone.
      }
    };
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        ping = setInterval(() => controller.enqueue(frame(new Uint8Array())), WATCH_PING_MS);
        openWatches.add(() => end(controller));
      },
      async pull(controller) {
        const message = await engine.dequeueNextWatchMessage(db, id, false);
        // The build takes a stream out of its table while it waits on it: end it again after.
        if (ended) return engine.endWatch(db, id, false);
        if (message) controller.enqueue(frame(message));
        else end(controller);
      },
      cancel() {
        end();
      },
    });
    return new Response(stream, { headers: { "content-type": "application/octet-stream" } });
  }

  async function route(request: Request, path: string): Promise<Response> {
    const known = path === "/" || /^\/v2\/(snapshot_read|atomic_write|watch)$/.test(path);
    if (!known) throw new ApiError(404, "Resource not found.");
    if (request.method !== "POST") return new Response(null, { status: 405 });
    if (path === "/") return await metadata(request);
    checkDataPath(request);
    if (path === "/v2/watch") return await watch(request);
    try {
      const bytes = await body(request);
      return protobuf(
        path === "/v2/snapshot_read"
          ? await engine.snapshotRead(db, bytes, false)
          : await engine.atomicWrite(db, bytes, false),
      );
    } catch (error) {
      throw error instanceof ApiError ? error : engineError(error);
    }
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      let response: Response;
      try {
        response = await route(request, path);
      } catch (error) {
        const answer = error instanceof ApiError ? error : engineError(error);
        response = new Response(answer.message, { status: answer.status });
      }
      const name = `${path === "/" ? "metadata" : path.replace(/^\/v2\//, "")} ${response.status}`;
      answers.set(name, (answers.get(name) ?? 0) + 1);
      return response;
    },
  );

  const breakWatches = () => {
    for (const end of [...openWatches]) end();
  };
  let closed: Promise<void> | undefined;
  const close = () =>
    closed ??= (async () => {
      breakWatches();
      await server.shutdown();
      engine.close(db, false);
    })();
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    answers,
    breakWatches,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A Deno KV client on a fresh endpoint; disposing it closes both. */
export async function openKvConnect(
  options: { path?: string } = {},
): Promise<{ kv: Deno.Kv; endpoint: KvConnectEndpoint } & AsyncDisposable> {
  const endpoint = startKvConnect(options);
  Deno.env.set("DENO_KV_ACCESS_TOKEN", KV_CONNECT_TOKEN);
  const kv = await Deno.openKv(endpoint.url);
  return {
    kv,
    endpoint,
    async [Symbol.asyncDispose]() {
      kv.close();
      await endpoint.close();
    },
  };
}
