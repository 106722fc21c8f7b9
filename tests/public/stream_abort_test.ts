/** A visitor who leaves while a streamed page is still coming in. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { get, seedJobs } from "./fixtures.ts";

Deno.test("a visitor leaving a streamed job page logs no error; the page is cached for the next", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Left Early Role" }]);
  const similar = t.services.jobs.similar.bind(t.services.jobs);
  t.services.jobs.similar = async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return similar(...args);
  };
  const errors: unknown[][] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const leaving = new AbortController();
    const response = await t.app.request(
      new Request(`http://localhost/jobs/${job.jobId}`, { signal: leaving.signal }),
    );
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let shell = "";
    while (!shell.includes("</footer>")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      shell += chunk.value;
    }
    assert.ok(shell.includes("Loading similar jobs"));
    // The connection closes: the server's request is aborted and its response body cancelled.
    leaving.abort();
    await reader.cancel(new Error("resource closed"));
    await new Promise((resolve) => setTimeout(resolve, 400));
  } finally {
    console.error = log;
  }
  assert.deepEqual(errors, []);
  const next = await get(t, `/jobs/${job.jobId}`);
  assert.equal(next.status, 200);
  assert.ok(next.html.includes("Left Early Role"));
  assert.ok(!next.html.includes("Loading similar jobs"));
});
