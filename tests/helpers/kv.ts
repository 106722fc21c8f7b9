/** Deno KV as tests need it beyond the real thing: writes that crash or lose a race on demand. */
import { keys } from "../../kv/keys.ts";
import { openKvConnect } from "./kv-connect.ts";

/** Whether this run's tests reach KV through KV Connect endpoints (TEST_KV=connect). */
export const TEST_KV_CONNECT = Deno.env.get("TEST_KV") === "connect";

/**
 * A test's database (a fresh one in memory, or the file at `path`), opened directly or, with
 * TEST_KV=connect (or `connect`), through a new KV Connect endpoint over it, so the test meets
 * denokv's limits (tests/helpers/kv-connect.ts).
 */
export async function openTestKv(
  { connect = TEST_KV_CONNECT, path }: { connect?: boolean; path?: string } = {},
): Promise<Deno.Kv & AsyncDisposable> {
  if (!connect) {
    const kv = await Deno.openKv(path ?? ":memory:");
    return Object.assign(kv, { [Symbol.asyncDispose]: () => Promise.resolve(kv.close()) });
  }
  const opened = await openKvConnect({ path });
  return Object.assign(opened.kv, { [Symbol.asyncDispose]: () => opened[Symbol.asyncDispose]() });
}

/** What a trapped KV does to its next atomic write, and what it saw. */
export interface Trap {
  /** Makes the next commit lose a race or fail, once. */
  mode: "conflict" | "crash" | null;
  /** Commits to let through before `mode` strikes (none unless set). */
  after?: number;
  /** The expireIn of every activity record written. */
  expireIns: number[];
  /** When given, the expireIn of every entry written (undefined for none), by its key as JSON. */
  expiries?: Map<string, number | undefined>;
  /** Counts the commits tried. */
  commits?: number;
}

/**
 * A KV whose atomic writes can be made to lose a race or fail, once, like a crash or a rival, and
 * that notes how long each entry it writes is to live.
 */
export function trappedKv(kv: Deno.Kv, trap: Trap): Deno.Kv {
  const note = (key: Deno.KvKey, options?: { expireIn?: number }) => {
    if (key[0] === "activity" && options?.expireIn) trap.expireIns.push(options.expireIn);
    trap.expiries?.set(JSON.stringify(key), options?.expireIn);
  };
  return new Proxy(kv, {
    get(target, property) {
      if (property === "set") {
        return (key: Deno.KvKey, value: unknown, options?: { expireIn?: number }) => {
          note(key, options);
          return target.set(key, value, options);
        };
      }
      if (property !== "atomic") {
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        const set = op.set.bind(op);
        op.set = (key, value, options) => {
          note(key, options);
          return set(key, value, options);
        };
        const commit = op.commit.bind(op);
        op.commit = async () => {
          trap.commits = (trap.commits ?? 0) + 1;
          if (trap.after) {
            trap.after--;
            return await commit();
          }
          const mode = trap.mode;
          trap.mode = null;
          if (mode === "crash") throw new Error("the process died");
          // Another writer changes the job data first, so this write's checks fail and it retries.
          if (mode === "conflict") {
            await target.set(
              keys.jobsMeta(),
              (await target.get(keys.jobsMeta())).value ?? {
                revision: 0,
                lastJobNumber: 1000,
                counts: { active: 0, dump: 0, inactive: 0 },
              },
            );
          }
          return await commit();
        };
        return op;
      };
    },
  });
}

/** Every entry of `kv` with its versionstamp, to show a run changed nothing. */
export async function everything(kv: Deno.Kv): Promise<[string, unknown, string][]> {
  const entries: [string, unknown, string][] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    entries.push([JSON.stringify(entry.key), entry.value, entry.versionstamp]);
  }
  return entries;
}

/** The strictest KV backend's limits per atomic write (self-hosted denokv). */
export const DENOKV_LIMITS = { checks: 10, mutations: 1000 };

/** The most checks and mutations any one atomic write of a `limitedKv` made. */
export interface Largest {
  checks: number;
  mutations: number;
  commits: number;
}

/**
 * A KV that refuses, as self-hosted denokv does, an atomic write with more than 10 checks or 1000
 * mutations, and notes the largest write it saw.
 */
export function limitedKv(kv: Deno.Kv, largest: Largest): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      if (property !== "atomic") {
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        let checks = 0;
        let mutations = 0;
        const counting = <A extends unknown[]>(
          method: (...args: A) => Deno.AtomicOperation,
          count: (args: A) => void,
        ) =>
        (...args: A) => {
          count(args);
          method.apply(op, args);
          return op;
        };
        op.check = counting(op.check, (args) => checks += args.length);
        op.mutate = counting(op.mutate, (args) => mutations += args.length);
        for (const name of ["set", "delete", "sum", "min", "max"] as const) {
          op[name] = counting(
            op[name] as (...args: unknown[]) => Deno.AtomicOperation,
            () => mutations++,
          );
        }
        const commit = op.commit.bind(op);
        op.commit = () => {
          largest.checks = Math.max(largest.checks, checks);
          largest.mutations = Math.max(largest.mutations, mutations);
          largest.commits++;
          if (checks > DENOKV_LIMITS.checks) {
            throw new TypeError(`too many checks (${checks}, at most ${DENOKV_LIMITS.checks})`);
          }
          if (mutations > DENOKV_LIMITS.mutations) {
            throw new TypeError(`too many mutations (${mutations})`);
          }
          return commit();
        };
        return op;
      };
    },
  });
}

/** A KV on a disk with no space left while `disk.full`: every write fails as SQLite's does. */
export function fullDiskKv(kv: Deno.Kv, disk: { full: boolean }): Deno.Kv {
  return beforeWrites(kv, () => {
    if (disk.full) throw new TypeError("database or disk is full");
  });
}

/** A KV whose every write (a commit, a set, a delete) first runs `before`, which may wait or throw. */
export function beforeWrites(kv: Deno.Kv, before: () => void | Promise<void>): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => Promise.resolve().then(before).then(commit);
          return op;
        };
      }
      if (property === "set" || property === "delete") {
        return (...args: unknown[]) =>
          Promise.resolve().then(before).then(() => value.apply(target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
