/**
 * `deno task alerts:send` with 10,000 confirmed alerts due over the bench's 20,000 active jobs, in a
 * process of its own on a copy of the database (tests/bench/alerts-send.ts). Budget: 60 s, and at
 * most 100 MB over the process with the job catalogue loaded. It runs with the V8 and allocator
 * settings of `deno task start` and `deno task alerts:send`, as the digests do in the server's cron.
 */
import type { BenchContext } from "../harness.ts";
import { startEnv, v8Flags } from "../../helpers/process.ts";

export default async function alerts(context: BenchContext) {
  const folder = await Deno.makeTempDir();
  try {
    const copy = `${folder}/alerts.kv`;
    for (const suffix of ["", "-wal"]) {
      await Deno.copyFile(context.kvPath + suffix, copy + suffix).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", v8Flags, new URL("../alerts-send.ts", import.meta.url).pathname, copy],
      env: { ...startEnv, NODE_ENV: "production" },
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error("alerts-send.ts failed");
    const result = JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
    const label =
      `alerts:send, 10,000 alerts over ${result.activeJobs} active jobs (${result.run.sent} sent)`;
    context.row(`${label}: time`, { value: result.seconds, unit: "s" }, { max: 60 });
    // The process's own CPU time: what the run costs on a machine shared with other work.
    context.row(`${label}: CPU time`, { value: result.cpuSeconds, unit: "s" });
    context.row(`${label}: memory over the loaded process`, {
      value: result.addedMb,
      unit: "MB",
    }, { max: 100 });
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
