/**
 * Password hashing with Web Crypto's native Argon2id (OWASP: 19 MiB, 2 passes, parallelism 1),
 * stored as a PHC string so the parameters can be raised later without breaking old hashes.
 *
 * Every hash takes 19 MiB and a core for tens of milliseconds, so a burst of sign-ins could take
 * the server's memory and CPU from everyone else: only a few hashes run at once, a few more wait,
 * and the rest are answered 503 at once. One client's checks run one after another in its own
 * lane, so a single address never holds more than one of those places and cannot starve everyone
 * else. (glibc keeps freed 19 MiB blocks for reuse unless they are mapped on their own:
 * `deno task start` sets MALLOC_MMAP_THRESHOLD_ for that, see README; the figures:
 * docs/decisions/003-password-hashing-is-queued.md.)
 */
import { timingSafeEqual } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import pLimit from "p-limit";

/** Hashes running at once: one core stays free to serve pages (at least 1, at most 4). */
export const HASHES_AT_ONCE = Math.min(4, Math.max(1, navigator.hardwareConcurrency - 1));
/** Hashes that may wait for a turn; a wait is at most about this many hash times. */
export const HASHES_WAITING = 8;
/** What a 503 asks the client to wait, in seconds: enough for the queue to drain. */
export const HASHING_RETRY_SECONDS = 2;

/** A sign-in or password change refused because enough hashes already run or wait. */
class HashingBusyError extends HTTPException {
  constructor() {
    super(503, {
      res: Response.json(
        { message: "The server is busy. Please try again in a few seconds." },
        { status: 503, headers: { "retry-after": String(HASHING_RETRY_SECONDS) } },
      ),
    });
  }
}

/** One client's sign-ins that may be under way at once: one hashing, the rest waiting their turn. */
export const SIGN_INS_PER_CLIENT = 5;

/** A sign-in refused because the same client already has enough under way. */
class ClientBusyError extends HTTPException {
  constructor() {
    super(429, {
      res: Response.json(
        {
          message:
            "Too many sign-ins at once from your address. Please try again in a few seconds.",
        },
        { status: 429, headers: { "retry-after": String(HASHING_RETRY_SECONDS) } },
      ),
    });
  }
}

interface Lane {
  /** Settles when the last check that joined the lane is done. */
  tail: Promise<void>;
  size: number;
}

/** Each client's sign-ins under way in this process: an entry lives only while one is. */
const lanes = new Map<string, Lane>();

export interface Turn extends Disposable {
  /** Settles when every earlier check of the same client is done. */
  ready: Promise<void>;
}

/**
 * A place in `client`'s lane (429 when it already holds SIGN_INS_PER_CLIENT). Taken before any
 * other work; disposing of it lets the client's next check go.
 */
export function takeClientTurn(client: string): Turn {
  const lane = lanes.get(client) ?? { tail: Promise.resolve(), size: 0 };
  if (lane.size >= SIGN_INS_PER_CLIENT) throw new ClientBusyError();
  lane.size++;
  lanes.set(client, lane);
  const { promise: done, resolve } = Promise.withResolvers<void>();
  const ready = lane.tail;
  lane.tail = ready.then(() => done);
  let held = true;
  return {
    ready,
    [Symbol.dispose]() {
      if (!held) return;
      held = false;
      resolve();
      if (--lane.size === 0) lanes.delete(client);
    },
  };
}

const hashing = pLimit(HASHES_AT_ONCE);
/** Hashes running or waiting, and places held for one about to be asked for. */
let places = 0;

/**
 * A place in the hashing queue, or 503 when the queue is full. A sign-in takes its place once its
 * throttles admit it and its client's earlier checks are done; the place is given back when its
 * hash ends, or when it is disposed of unused.
 */
export function takeHashPlace(): Disposable {
  if (places >= HASHES_AT_ONCE + HASHES_WAITING) throw new HashingBusyError();
  places++;
  let held = true;
  return {
    [Symbol.dispose]() {
      if (held) places--;
      held = false;
    },
  };
}

/** Runs one hash in its turn, then gives its place back. */
async function inTurn<T>(place: Disposable, task: () => Promise<T>): Promise<T> {
  try {
    return await hashing(task);
  } finally {
    place[Symbol.dispose]();
  }
}

/** Argon2id's cost, memory in KiB. */
export interface HashParams {
  memory: number;
  passes: number;
  parallelism: number;
}

/** What new hashes cost unless a test app asks for less (OWASP's Argon2id parameters). */
export const HASH_PARAMS: HashParams = { memory: 19_456, passes: 2, parallelism: 1 };
const HASH_BYTES = 32;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
const unb64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

async function derive(
  password: string,
  salt: Uint8Array,
  params: HashParams,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "Argon2id",
    false,
    ["deriveBits"],
  );
  const algorithm = { name: "Argon2id", nonce: salt, ...params };
  return new Uint8Array(
    await crypto.subtle.deriveBits(algorithm as Algorithm, key, HASH_BYTES * 8),
  );
}

/**
 * A new hash of `password` as stored: verifying it later costs what `params` say, whatever new
 * hashes cost by then.
 */
export async function hashPassword(
  password: string,
  params: HashParams = HASH_PARAMS,
  place: Disposable = takeHashPlace(),
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return stored(salt, await inTurn(place, () => derive(password, salt, params)), params);
}

/** What is stored of a hash: a PHC string of the parameters, the salt and the hash. */
function stored(salt: Uint8Array, hash: Uint8Array, params: HashParams): string {
  const { memory, passes, parallelism } = params;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(hash)}`;
}

export async function verifyPassword(
  password: string,
  stored: string,
  place: Disposable = takeHashPlace(),
): Promise<boolean> {
  const match = stored.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/);
  if (!match) {
    place[Symbol.dispose]();
    return false;
  }
  const [, memory, passes, parallelism, salt, expected] = match;
  const actual = await inTurn(place, () =>
    derive(password, unb64(salt), {
      memory: Number(memory),
      passes: Number(passes),
      parallelism: Number(parallelism),
    }));
  const wanted = unb64(expected);
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

/**
 * What an unknown e-mail's sign-in is checked against, so it takes as long as a known one's: the
 * parameters of a real hash, and random bytes no password derives (a chance of 2^-256). Nothing is
 * hashed to make it: every process used to spend one Argon2 hash at its start on a real one.
 */
export const DECOY_HASH = stored(
  crypto.getRandomValues(new Uint8Array(16)),
  crypto.getRandomValues(new Uint8Array(HASH_BYTES)),
  HASH_PARAMS,
);
