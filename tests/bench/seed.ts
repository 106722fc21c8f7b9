/**
 * The benchmark's data: generated jobs written into a KV file, and a process's memory.
 *
 * Seeding 100,000 jobs takes minutes, so a seeded database is kept as a template (in
 * `BENCH_CACHE_DIR`, by default the system's temporary folder) and each run works on a copy. The
 * template's name carries the counts, the day and a hash of the code that decides the stored jobs,
 * so a change to it or a new day seeds afresh (older templates can be deleted by hand).
 * `deno run -A tests/bench/seed.ts` seeds the templates every scenario uses, so that a run under
 * the load lock only measures.
 */
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { tmpdir } from "node:os";
import { encodeHex } from "../../kv/hex.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { generateJob, type JobPlacement, seededRandom } from "../../kv/demo/generate.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";
import type { LifecycleStatus as JobStatus } from "../../kv/schemas.ts";

/** The benchmark's database: 100,000 jobs, 20,000 of them active. */
export const BENCH_COUNTS: Record<JobStatus, number> = {
  active: 20_000,
  dump: 30_000,
  inactive: 50_000,
};
const GENERATE_CHUNK = 5_000;

/** The bench's counts; `BENCH_ACTIVE=100000` makes 100,000 of them active instead of 20,000. */
export const benchCounts = (): Record<JobStatus, number> => ({
  ...BENCH_COUNTS,
  active: Number(Deno.env.get("BENCH_ACTIVE") ?? BENCH_COUNTS.active),
});

function placement(status: JobStatus, random: () => number, now: number): JobPlacement {
  if (status === "active") {
    const posted = new Date(now - random() * (DAYS_ACTIVE_BEFORE_DUMP - 1) * DAY_MS);
    return { status, datePosted: posted, movedToDumpAt: null };
  }
  const daysInDump = status === "dump"
    ? random() * (DAYS_IN_DUMP_BEFORE_INACTIVE - 1)
    : DAYS_IN_DUMP_BEFORE_INACTIVE + random() * 300;
  const moved = now - daysInDump * DAY_MS;
  return {
    status,
    datePosted: new Date(moved - (DAYS_ACTIVE_BEFORE_DUMP + random()) * DAY_MS),
    movedToDumpAt: new Date(moved),
  };
}

/** Writes jobs in each status, as many as `counts` says; returns the `_id` of an active one. */
export async function seedBench(
  kvPath: string,
  counts: Record<JobStatus, number>,
): Promise<string> {
  using kv = await Deno.openKv(kvPath);
  const store = new JobStore(kv);
  const random = seededRandom(100_000);
  const now = Date.now();
  let serial = 0;
  let sampleJobId = "";
  for (const status of ["inactive", "dump", "active"] as const) {
    for (let done = 0; done < counts[status]; done += GENERATE_CHUNK) {
      const jobs = Array.from(
        { length: Math.min(GENERATE_CHUNK, counts[status] - done) },
        () => generateJob(random, ++serial, placement(status, random, now)),
      );
      await store.importJobs(jobs);
      sampleJobId ||= status === "active" ? jobs[0]._id : "";
    }
  }
  return sampleJobId;
}

/**
 * Resident and peak memory of a process, in MB; `file` is the part that is pages of files (the
 * database read through SQLite's memory map), which the kernel may drop at any time.
 */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number; file: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024, file: kb("RssFile") / 1024 };
}

/** The sizes scenarios ask for: the bench's own database, and a board of 100,000 active jobs. */
export const LARGE_BOARD: Record<JobStatus, number> = { active: 100_000, dump: 0, inactive: 0 };

/**
 * What decides the stored data: the generator, the key layout and the job record. The search index
 * and catalogue are built from the stored jobs when the server starts, so changes to them do not.
 */
async function seedCodeHash(): Promise<string> {
  const kv = fromFileUrl(new URL("../../kv/", import.meta.url));
  const files = [fromFileUrl(import.meta.url), join(kv, "keys.ts"), join(kv, "schemas.ts")];
  for (const entry of Deno.readDirSync(join(kv, "demo"))) {
    if (entry.isFile && entry.name.endsWith(".ts")) files.push(join(kv, "demo", entry.name));
  }
  const texts = files.sort().map((file) => Deno.readTextFileSync(file)).join("\0");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(texts));
  return encodeHex(new Uint8Array(digest)).slice(0, 16);
}

const templateFolder = () =>
  Deno.env.get("BENCH_CACHE_DIR") ?? join(tmpdir(), "careeredge-bench-db");

/** The template database for `counts`, seeded when there is none yet for today's code and day. */
export async function seededTemplate(
  counts: Record<JobStatus, number>,
): Promise<{ path: string; sampleJobId: string }> {
  const day = new Date().toISOString().slice(0, 10);
  const name = `${counts.active}-${counts.dump}-${counts.inactive}-${day}-${await seedCodeHash()}`;
  const path = join(templateFolder(), `${name}.kv`);
  const idFile = join(templateFolder(), `${name}.json`);
  try {
    return { path, sampleJobId: JSON.parse(await Deno.readTextFile(idFile)).sampleJobId };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(templateFolder(), { recursive: true });
  // Seeded beside its final name and renamed when whole, so a stopped seed leaves no template.
  const partial = `${path}.${Deno.pid}.partial`;
  const started = performance.now();
  const sampleJobId = await seedBench(partial, counts);
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      await Deno.rename(partial + suffix, path + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  await Deno.writeTextFile(idFile, JSON.stringify({ sampleJobId }));
  console.log(
    `Seeded ${Object.values(counts).reduce((a, b) => a + b)} jobs into ${path} in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  return { path, sampleJobId };
}

/** A fresh copy of the template for `counts` at `kvPath`; returns the `_id` of an active job. */
export async function seededCopy(
  kvPath: string,
  counts: Record<JobStatus, number>,
): Promise<string> {
  const { path, sampleJobId } = await seededTemplate(counts);
  await Deno.mkdir(dirname(kvPath), { recursive: true });
  for (const suffix of ["", "-wal"]) {
    try {
      await Deno.copyFile(path + suffix, kvPath + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return sampleJobId;
}

if (import.meta.main) {
  await seededTemplate(benchCounts());
  await seededTemplate(LARGE_BOARD);
}
