/**
 * A server process follows another process's job writes through `kv.watch` alone, as processes on
 * Deno Deploy do: its database is a KV Connect endpoint (whose watch, unlike a local file's, sees
 * every client's writes) and it reads the revision no other way (REVISION_POLL_MS=0).
 */
import assert from "node:assert/strict";
import { KV_CONNECT_TOKEN, openKvConnect } from "../helpers/kv-connect.ts";
import { startServerProcess } from "../helpers/process.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { sampleJob } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

Deno.test("a server process shows another process's writes through the watch, also after it breaks", async () => {
  const folder = await Deno.makeTempDir();
  try {
    await using database = await openKvConnect({ path: `${folder}/jobs.sqlite` });
    const writer = new JobStore(database.kv);
    await using server = await startServerProcess(`${folder}/unused.kv`, {
      DENO_KV_URL: database.endpoint.url,
      DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN,
      REVISION_POLL_MS: "0",
    });
    const page = async (path: string) => {
      const response = await fetch(server.url + path);
      return { status: response.status, html: await response.text() };
    };
    assert.ok((await page("/jobs")).html.includes("0 Jobs Found"));

    const created = await writer.create(sampleJob({ role: "Watched Role" }));
    assert.ok(created.ok);
    await waitFor("the new job", async () => (await page("/jobs")).html.includes("Watched Role"));
    const { jobId } = created.job;
    assert.ok((await page(`/jobs/${jobId}`)).html.includes("Watched Role"));

    // A dropped stream: Deno's client opens it again and the server goes on following.
    database.endpoint.breakWatches();
    const edited = await writer.update(created.job._id, sampleJob({ role: "Renamed Role" }));
    assert.ok(edited.ok);
    await waitFor(
      "the edit after the break",
      async () => (await page(`/jobs/${jobId}`)).html.includes("Renamed Role"),
      20_000,
    );
    await writer.setStatus(created.job._id, "dump");
    await waitFor("the closed job", async () => (await page(`/jobs/${jobId}`)).status === 410);
    assert.ok((await page("/jobs")).html.includes("0 Jobs Found"));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
