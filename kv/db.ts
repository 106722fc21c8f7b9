/**
 * The only place that opens Deno KV: DENO_KV_PATH, else DENO_KV_URL, else the database Deno Deploy
 * provisions for the app when running there, else ./data/careeredge.kv.
 */

import { CLOCK_TOLERANCE_MS } from "./constants.ts";

export const DEFAULT_KV_PATH = "./data/careeredge.kv";

/** Where the database is, as the configuration names it. */
export interface DatabaseLocation {
  DENO_KV_PATH?: string;
  DENO_KV_URL?: string;
  DENO_KV_ACCESS_TOKEN?: string;
}

/** A database that must not be opened, with the one-line reason. */
export class DatabaseError extends Error {}

/** Where the database is: over the network, Deno Deploy's own, or at a path (or ":memory:"). */
type Place = { url: string } | { deploy: true } | { path: string };

function placeOf(config: DatabaseLocation): Place {
  if (config.DENO_KV_URL) return { url: config.DENO_KV_URL };
  if (!config.DENO_KV_PATH && Deno.env.get("DENO_DEPLOYMENT_ID")) return { deploy: true };
  return { path: config.DENO_KV_PATH ?? DEFAULT_KV_PATH };
}

/** True for the database the app uses when none is configured: a local file of its own. */
export function isDefaultDatabase(config: DatabaseLocation): boolean {
  return "path" in placeOf(config) && config.DENO_KV_PATH === undefined;
}

/** Whether the process opens the database file itself (not in memory, nor over the network). */
export function opensFile(config: DatabaseLocation): boolean {
  const place = placeOf(config);
  return "path" in place && place.path !== ":memory:";
}

/** A clock a process's own is judged by: the one its database expires entries by. */
export interface ReferenceClock {
  /** Its time now, or null when it cannot be read. */
  read(): Promise<number | null>;
  /** Whose clock it is, in words for the log: "this machine's". */
  name: string;
}

/**
 * The clock a database expires entries by: for a file, the machine's (the time the file system
 * stamps on a file written now: a tool such as faketime changes a process's clock, not the
 * machine's); over the network (`DENO_KV_URL`), its server's (the Date of its answer to KV
 * Connect's metadata request, which Deno's client makes too). Undefined for a database in memory
 * and on Deno Deploy (no URL to ask).
 */
export function databaseClock(config: DatabaseLocation): ReferenceClock | undefined {
  const place = placeOf(config);
  if ("path" in place) {
    if (place.path === ":memory:") return undefined;
    const folder = folderOf(place.path);
    return { read: () => machineTime(folder), name: "this machine's" };
  }
  if (!("url" in place)) return undefined;
  const read = async () => {
    const response = await fetch(place.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.DENO_KV_ACCESS_TOKEN ?? ""}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ supportedVersions: [1, 2, 3] }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    await response?.body?.cancel();
    const date = Date.parse(response?.ok ? response.headers.get("date") ?? "" : "");
    return Number.isFinite(date) ? date : null;
  };
  return { read, name: "the database server's" };
}

export async function openDatabase(config: DatabaseLocation): Promise<Deno.Kv> {
  const place = placeOf(config);
  if ("url" in place) {
    // Deno's remote KV client reads its token from this variable.
    Deno.env.set("DENO_KV_ACCESS_TOKEN", config.DENO_KV_ACCESS_TOKEN ?? "");
    return await Deno.openKv(place.url);
  }
  if ("deploy" in place) return await Deno.openKv();
  const { path } = place;
  if (path === ":memory:") return retryBusyCommits(await Deno.openKv(path));
  await prepareFolder(path, config.DENO_KV_PATH === undefined);
  if ((await Deno.stat(path).catch(() => null))?.isDirectory) {
    const inIt = `${path.replace(/\/*$/, "")}/careeredge.kv`;
    throw new DatabaseError(`DENO_KV_PATH ${path} is a folder; name a file in it, such as ${inIt}`);
  }
  await refuseAnotherClock(folderOf(path));
  // Another process of this site closing the database deletes its -wal and -shm (SQLite does, at
  // the last connection's close), which a claim in that instant meets as a file gone or replaced:
  // claimed again, they are this process's own, while another user's file is refused by its claim.
  for (let attempt = 1;; attempt++) {
    try {
      return await openClaimed(path);
    } catch (error) {
      const raced = error instanceof Deno.errors.NotFound || error instanceof ReplacedError;
      if (!raced || attempt === OPEN_ATTEMPTS) throw error;
    }
  }
}

/** How often a database file is claimed and opened before a race with another's close is reported. */
const OPEN_ATTEMPTS = 3;

class ReplacedError extends DatabaseError {}

async function openClaimed(path: string): Promise<Deno.Kv> {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) await claimFile(file);
  // What SQLite opens as the -wal and -shm must be the very files claimed: it deletes them when the
  // last connection closes, so another process of this site closing in the instant before this
  // one opens would let another user make them before SQLite does. Their owner tells nothing
  // afterwards (SQLite running as root gives such a file the database's owner and mode, while
  // whoever made it keeps it open), and a file made after ours was deleted often gets its inode
  // number; a second name for each claimed file keeps its inode, so a replacement has another.
  const pins = new Map<string, string>();
  try {
    for (const file of [`${path}-wal`, `${path}-shm`]) {
      const pin = `${file}.claimed-${crypto.randomUUID()}`;
      await Deno.link(file, pin);
      pins.set(file, pin);
    }
    const kv = await Deno.openKv(path);
    for (const [file, pin] of pins) {
      const [opened, claimed] = [await Deno.lstat(file).catch(() => null), await Deno.lstat(pin)];
      if (opened?.dev === claimed.dev && opened?.ino === claimed.ino) continue;
      kv.close();
      throw new ReplacedError(
        `${file} was replaced while the database opened (by another process of this site ` +
          "closing it, or by another user, who could read the database through it); start again",
      );
    }
    return retryBusyCommits(kv);
  } finally {
    for (const pin of pins.values()) await Deno.remove(pin);
  }
}

const folderOf = (path: string) => path.replace(/[^/]*$/, "") || ".";
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, "0");

/**
 * The database holds the token-signing key, sessions and password hashes, so only its owner may
 * reach it. The default folder is made (or set) owner-only; a configured one must exist already
 * (a mistyped path would otherwise start an empty site) and must not let others replace files.
 */
async function prepareFolder(path: string, isDefault: boolean): Promise<void> {
  const folder = folderOf(path);
  if (isDefault) {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    const { mode } = await Deno.stat(folder);
    if (mode !== null && (mode & 0o077) !== 0) {
      await Deno.chmod(folder, 0o700);
      console.warn(`Made the database folder ${folder} owner-only (was ${octal(mode)}, now 0700)`);
    }
    return;
  }
  const info = await Deno.stat(folder).catch(() => null);
  if (!info?.isDirectory) {
    throw new DatabaseError(`DENO_KV_PATH ${path} is in a folder that does not exist: ${folder}`);
  }
  if (info.mode !== null && (info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0) {
    throw new DatabaseError(
      `the folder of DENO_KV_PATH, ${folder}, can be written by other users (mode ` +
        `${octal(info.mode)}); make it owner-only with chmod 700 ${folder}`,
    );
  }
}

/**
 * Deno KV deletes a local file's entries by the clock of the process that opens it, at once: a
 * process two hours fast deleted a session another had written with an hour to live, 0.2 s after
 * it opened the file. The processes sharing a file share the machine's clock unless a tool such as
 * faketime gives one another, and the machine's own time is on any file written: a process whose
 * clock is off it by more than the clocks' tolerance does not open the database. A database
 * reached over the network expires entries by its own clock; there the heartbeats of kv/clock.ts
 * keep a wrong clock from aging jobs
 * (docs/decisions/035-a-process-off-the-machines-clock-does-not-open-the-file.md).
 */
async function refuseAnotherClock(folder: string): Promise<void> {
  const machine = await machineTime(folder);
  const off = machine === null ? 0 : Date.now() - machine;
  if (Math.abs(off) <= CLOCK_TOLERANCE_MS) return;
  const minutes = Math.round(Math.abs(off) / 60_000).toLocaleString("en-US");
  throw new DatabaseError(
    `this process's clock is about ${minutes} minutes ${off > 0 ? "ahead of" : "behind"} this ` +
      "machine's, and Deno KV would expire the database's sessions, links and records by it; " +
      "start it with the machine's clock",
  );
}

/**
 * The machine's time: the modification time the file system gives a file written in `folder`
 * now. Null where the folder cannot be written (SQLite then says what is wrong).
 */
async function machineTime(folder: string): Promise<number | null> {
  let probe: string;
  try {
    probe = await Deno.makeTempFile({ dir: folder, prefix: ".clock-" });
  } catch {
    return null;
  }
  try {
    return (await Deno.stat(probe)).mtime?.getTime() ?? null;
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}

/**
 * Creates a database file owner-only, or, if it is there already, makes sure it is this user's own
 * plain file and takes group and other access away, saying so. The -wal and -shm files are created
 * here too, not left to SQLite, which would open one another user had made first.
 */
async function claimFile(file: string): Promise<void> {
  try {
    (await Deno.open(file, { createNew: true, write: true, mode: 0o600 })).close();
    return;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = await Deno.lstat(file);
  const me = Deno.uid();
  // Its owner could read the token-signing key, sessions and password hashes from it, and no
  // chmod of ours takes that away.
  if (me !== null && info.uid !== null && info.uid !== me) {
    throw new DatabaseError(
      `${file} belongs to another user (uid ${info.uid}), who could read the database through ` +
        "it; remove it, or keep the database in a folder only this user can write to",
    );
  }
  // SQLite keeps the -wal and -shm beside the file a link points to, where nothing here checks them.
  if (info.isSymlink) {
    throw new DatabaseError(
      `${file} is a symbolic link; the database and its -wal and -shm must be plain files`,
    );
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    await Deno.chmod(file, 0o600);
    console.warn(`Made ${file} owner-only (was ${octal(info.mode)}, now 0600)`);
  }
}

/**
 * A database file shared by several processes answers a commit that raced another process's write
 * (any atomic operation with a check) with SQLite's "database is locked". Nothing was written, so
 * the same operation is committed again: its checks then decide, as they would have.
 */
function retryBusyCommits(kv: Deno.Kv): Deno.Kv {
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      for (let attempt = 1;; attempt++) {
        try {
          return await commit();
        } catch (error) {
          const busy = error instanceof TypeError && error.message === "database is locked";
          if (!busy || attempt >= 200) throw error;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.random() * Math.min(20, attempt))
          );
        }
      }
    };
    return op;
  };
  return kv;
}
