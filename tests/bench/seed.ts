/** The benchmark's data: generated jobs written into a KV file, and a process's memory. */
import { JobStore } from "../../kv/jobs.ts";
import { generateJob, type JobPlacement, seededRandom } from "../../kv/demo/generate.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";
import type { JobStatus } from "../../kv/schemas.ts";

/** The benchmark's database: 100,000 jobs, 20,000 of them active. */
export const BENCH_COUNTS: Record<JobStatus, number> = {
  active: 20_000,
  dump: 30_000,
  inactive: 50_000,
};
const GENERATE_CHUNK = 5_000;

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
