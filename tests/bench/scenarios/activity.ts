/**
 * What the activity log costs job writes: creates and status changes through the job store on a
 * database file of their own, with and without a record in each write, in alternating rounds so
 * both meet the same machine. Budget: with the log, at least 90% of the rate without.
 */
import type { BenchContext } from "../harness.ts";
import { JobStore } from "../../../kv/jobs.ts";
import { ActivityLog, type Audit } from "../../../kv/activity.ts";
import { sampleJob } from "../../helpers/server.ts";

const ROUNDS = 6;
const WRITES_PER_ROUND = 150;
const MIN_SHARE = 90;

/** Writes per second of `write` run `WRITES_PER_ROUND` times one after another. */
async function rate(write: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < WRITES_PER_ROUND; i++) await write(i);
  return WRITES_PER_ROUND / ((performance.now() - started) / 1000);
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
    const totals = { create: [0, 0], status: [0, 0] };
    const ids: string[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always meets a warmer or colder machine.
      for (const logged of round % 2 ? [1, 0] : [0, 1]) {
        totals.create[logged] += await rate(async () => {
          const result = await jobs.create(sampleJob(), logged ? audit : undefined);
          if (result.ok) ids[logged].push(result.job._id);
        });
      }
      for (const logged of round % 2 ? [1, 0] : [0, 1]) {
        const status = round % 2 ? "active" : "dump";
        totals.status[logged] += await rate((i) =>
          jobs.setStatus(ids[logged][i], status, logged ? audit : undefined)
        );
      }
    }
    for (const [name, [plain, logged]] of Object.entries(totals)) {
      const label = name === "create" ? "job create" : "job status change";
      context.row(`${label} without the activity log (store, one writer)`, {
        value: Math.round(plain / ROUNDS),
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
