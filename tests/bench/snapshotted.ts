/**
 * A bench database as a running site has it: seeded, and holding the catalogue's snapshot that a
 * server writes after its first start. A measured server then starts as a restarted one does,
 * from the snapshot, instead of reading every job and writing the snapshot while it is measured.
 * The edge scenario, which measures both starts, copies the template without it.
 */
import type { LifecycleStatus } from "../../kv/schemas.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { seededCopy } from "./seed.ts";

/** `seededCopy` with the catalogue's snapshot written into the copy; returns an active job's `_id`. */
export async function snapshottedCopy(
  kvPath: string,
  counts: Record<LifecycleStatus, number>,
): Promise<string> {
  const sampleJobId = await seededCopy(kvPath, counts);
  using kv = await Deno.openKv(kvPath);
  const store = new JobStore(kv, () => new Date(), { snapshotMinJobs: 0 });
  try {
    await store.active();
    if (!await store.saveSnapshot()) throw new Error(`No snapshot was written into ${kvPath}`);
  } finally {
    await store.close();
  }
  return sampleJobId;
}
