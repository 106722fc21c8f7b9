/** An apply click that was answered is in the database, even if the process is killed at once. */
import assert from "node:assert/strict";
import { startServerProcess } from "../helpers/process.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import { keys } from "../../kv/keys.ts";
import { CHROME_DESKTOP } from "./fixtures.ts";

Deno.test("13 apply clicks answered 200, then kill -9: all 13 are counted", async () => {
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/clicks.kv`;
  try {
    const ids: string[] = [];
    {
      using kv = await Deno.openKv(kvPath);
      const placement = { status: "active" as const, datePosted: new Date(), movedToDumpAt: null };
      const jobs = Array.from(
        { length: 13 },
        (_, i) => generateJob(seededRandom(i), i + 1, placement),
      );
      await new JobStore(kv).importJobs(jobs);
      ids.push(...jobs.map((job) => job._id));
    }
    const server = await startServerProcess(kvPath);
    for (const id of ids) {
      const answer = await fetch(`${server.url}/api/jobs/${id}/click`, {
        method: "POST",
        headers: { "user-agent": CHROME_DESKTOP, "sec-fetch-site": "same-origin" },
      });
      assert.equal(answer.status, 200);
      await answer.body?.cancel();
    }
    Deno.kill(server.pid, "SIGKILL");
    await server.stop();
    using kv = await Deno.openKv(kvPath);
    for (const id of ids) {
      assert.equal((await kv.get<Deno.KvU64>(keys.jobCounter(id, "clicks"))).value?.value, 1n, id);
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
