/**
 * main.ts under `deno serve --parallel`: two workers answer pages, the API and share images (drawn
 * by a thread each worker starts) on one port, and a graceful stop writes every worker's traffic
 * counts still in memory.
 */
import assert from "node:assert/strict";
import { sampleJob } from "../helpers/server.ts";
import { startServeProcess } from "../helpers/process.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { keys } from "../../kv/keys.ts";
import { CHROME_DESKTOP } from "../analytics/fixtures.ts";
import { STOP_LIMIT_MS } from "../../server/start.ts";

const BROWSERS = 12;
const CLICKS = 240;

Deno.test("`deno serve --parallel main.ts` answers with two workers and writes their counts on a stop that ends when they are written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "careeredge-serve-" });
  const kvPath = `${dir}/shared.kv`;
  try {
    const seedKv = await Deno.openKv(kvPath);
    const created = await new JobStore(seedKv).create(sampleJob({ role: "Parallel Engineer" }));
    seedKv.close();
    if (!created.ok) throw new Error("job not created");
    const job = created.job;

    const server = await startServeProcess(kvPath, 2);
    try {
      const home = await fetch(`${server.url}/`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /Parallel Engineer/);
      const list = await fetch(`${server.url}/api/jobs`);
      assert.equal(list.status, 200);
      const body = await list.json();
      assert.deepEqual(body.jobs.map((j: { jobId: string }) => j.jobId), [job.jobId]);
      const image = await fetch(`${server.url}/jobs/${job.jobId}/share.png`, {
        redirect: "manual",
      });
      assert.deepEqual([image.status, image.headers.get("content-type")], [200, "image/png"]);
      assert.ok((await image.bytes()).length > 1000);

      // Many connections at once, so both workers count some; each browser counts once.
      await Promise.all(Array.from({ length: CLICKS }, async (_, i) => {
        const agent = CHROME_DESKTOP.replace("Chrome/131", `Chrome/${100 + (i % BROWSERS)}`);
        const answer = await fetch(`${server.url}/api/jobs/${job._id}/click`, {
          method: "POST",
          headers: { "user-agent": agent, connection: "close" },
        });
        assert.equal(answer.status, 200);
        await answer.body?.cancel();
      }));
    } finally {
      const stopping = performance.now();
      await server.stop();
      // A stop that has written everything ends then, not when the limit for a hung one runs out.
      assert.ok(performance.now() - stopping < STOP_LIMIT_MS / 2, "the stop waited for its limit");
      assert.doesNotMatch(server.log(), /Stopping took over/);
    }

    const kv = await Deno.openKv(kvPath);
    try {
      const clicks = await kv.get<Deno.KvU64>(keys.jobCounter(job._id, "clicks"));
      assert.equal(Number(clicks.value?.value ?? 0n), BROWSERS);
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
