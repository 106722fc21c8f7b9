/** A visitor who leaves while a streamed page is still coming in. */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../helpers/server.ts";
import { get, seedJobs } from "./fixtures.ts";

/** Makes Similar Jobs answer only once the test resolves the promise given back. */
function similarOnCue(t: TestApp): PromiseWithResolvers<void> {
  const similar = t.services.jobs.similar.bind(t.services.jobs);
  const answer = Promise.withResolvers<void>();
  t.services.jobs.similar = async (...args) => {
    await answer.promise;
    return similar(...args);
  };
  return answer;
}

Deno.test("a visitor leaving a streamed job page logs no error; the page is cached for the next", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Left Early Role" }]);
  // Similar Jobs answer once the visitor has left.
  const answer = similarOnCue(t);
  const errors: unknown[][] = [];
  let next: Awaited<ReturnType<typeof get>>;
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
    answer.resolve();
    // The next visitor's whole page says the data the left page waited on has come in.
    next = await get(t, `/jobs/${job.jobId}`);
  } finally {
    console.error = log;
  }
  assert.deepEqual(errors, []);
  assert.equal(next!.status, 200);
  assert.ok(next!.html.includes("Left Early Role"));
  assert.ok(!next!.html.includes("Loading similar jobs"));
});

Deno.test("a visitor gone before a streamed page starts logs no error", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Never Seen Role" }]);
  const similar = t.services.jobs.similar.bind(t.services.jobs);
  const leaving = new AbortController();
  // Similar Jobs answer when the test says so: once the visitor is gone.
  const answer = Promise.withResolvers<void>();
  t.services.jobs.similar = async (...args) => {
    // The visitor's connection closes while the server is still busy with the page.
    leaving.abort();
    await answer.promise;
    return similar(...args);
  };
  const errors: unknown[][] = [];
  let next: Awaited<ReturnType<typeof get>>;
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const response = await t.app.request(
      new Request(`http://localhost/jobs/${job.jobId}`, { signal: leaving.signal }),
    );
    await response.body?.cancel();
    answer.resolve();
    // The next visitor's whole page says the data the gone visitor's page waited on has come in.
    next = await get(t, `/jobs/${job.jobId}`);
  } finally {
    console.error = log;
  }
  assert.deepEqual(errors, []);
  assert.ok(next!.html.includes("Never Seen Role"));
  assert.ok(!next!.html.includes("Loading similar jobs"));
});

Deno.test("a streamed page never reads the request's signal, which deno serve warns of", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Quiet Log Role" }]);
  // Similar Jobs answer once the page's shell has come.
  const answer = similarOnCue(t);
  // Under `deno serve` (and on Deno Deploy) the first read of a request's signal prints a warning.
  let signalRead = false;
  class Watched extends Request {
    override get signal() {
      signalRead = true;
      return super.signal;
    }
  }
  const response = await t.app.request(new Watched(`http://localhost/jobs/${job.jobId}`));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let html = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    html += chunk.value;
    if (html.includes("</footer>")) answer.resolve();
  }
  assert.ok(html.includes("Loading similar jobs"), "the page was streamed");
  assert.ok(html.includes("Quiet Log Role"));
  assert.equal(signalRead, false);
});
