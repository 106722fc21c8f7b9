/**
 * What the activity log costs job writes: creates and status changes through the job store on a
 * database file of their own, with and without a record in each write, one write of each kind in
 * turn so both meet the same machine. Budget: with the log, at least 90% of the rate without.
 */
import type { BenchContext } from "../harness.ts";
import { JobStore } from "../../../kv/jobs/store.ts";
import { ActivityLog, type Audit } from "../../../kv/activity.ts";
import { sampleJob } from "../../helpers/server.ts";

const WRITES = 600;
const MIN_SHARE = 90;

/**
 * Times `write(logged, i)` for both kinds, one of each in turn (which goes first alternates), so
 * both meet the same machine from one moment to the next: on a shared machine the load changes
 * within seconds, and rounds of one kind at a time measured that more than the log. Writes a second.
 */
async function rates(
  write: (logged: 0 | 1, i: number) => Promise<unknown>,
): Promise<[number, number]> {
  const spent = [0, 0];
  for (let i = 0; i < WRITES; i++) {
    for (const logged of i % 2 ? [1, 0] as const : [0, 1] as const) {
      const started = performance.now();
      await write(logged, i);
      spent[logged] += performance.now() - started;
    }
  }
  return [WRITES / (spent[0] / 1000), WRITES / (spent[1] / 1000)];
}

export default async function activity(context: BenchContext) {
  const folder = await Deno.makeTempDir();
  try {
    using kv = await Deno.openKv(`${folder}/activity.kv`);
    const now = () => new Date();
    const jobs = new JobStore(kv, now);
    const audit: Audit = new ActivityLog(kv, now, 365).by(
      { id: "0123456789abcdef01234567", name: "Bench Admin" },
      "127.0.0.1",
    );
    const ids: string[][] = [[], []];
    const create = await rates(async (logged) => {
      const result = await jobs.create(sampleJob(), logged ? audit : undefined);
      if (result.ok) ids[logged].push(result.job._id);
    });
    // The first half of the jobs go to dump, then back to active: both kinds of move.
    const status = await rates((logged, i) =>
      jobs.setStatus(
        ids[logged][i % (WRITES / 2)],
        i < WRITES / 2 ? "dump" : "active",
        logged ? audit : undefined,
      )
    );
    const measured = { "job create": create, "job status change": status };
    for (const [label, [plain, logged]] of Object.entries(measured)) {
      context.row(`${label} without the activity log (store, one writer)`, {
        value: Math.round(plain),
        unit: "writes/s",
      });
      context.row(`${label} with the activity log, share of the rate without`, {
        value: Math.round((logged / plain) * 100),
        unit: "%",
      }, { min: MIN_SHARE });
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
