/**
 * Share images are drawn on a worker thread: pages are answered while an image is being drawn,
 * the worker starts with the first image rather than with the server, and a worker that cannot
 * start or dies while drawing gives the plain image (never a 500), is started again once, then
 * no more.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { get, seedJobs } from "./fixtures.ts";
import { DRAWS_WAITING } from "../../routes/share-image.ts";
import { ShareImageDrawer } from "../../server/share-image-drawer.ts";

/** The real drawer, telling when a drawing is in the worker and how many came back. */
class WatchedDrawer extends ShareImageDrawer {
  drawing = 0;
  finished = 0;
  #posted = Promise.withResolvers<void>();

  /** Resolves when the next drawing is handed to the worker. */
  nextDrawing(): Promise<void> {
    return this.#posted.promise;
  }

  override async draw(svg: string): Promise<Uint8Array<ArrayBuffer>> {
    await this.ready();
    this.drawing++;
    this.#posted.resolve();
    this.#posted = Promise.withResolvers<void>();
    try {
      return await super.draw(svg);
    } finally {
      this.drawing--;
      this.finished++;
    }
  }
}

Deno.test("pages are answered while share images are being drawn", async () => {
  const drawer = new WatchedDrawer();
  await using t = await testApp({ shareImages: drawer });
  const jobs = await seedJobs(
    t,
    Array.from({ length: 1 + DRAWS_WAITING }, (_, i) => ({ role: `Share Role ${i}` })),
  );
  // Asked twice, the home page is kept: asked again it is answered from memory.
  for (let i = 0; i < 2; i++) assert.equal((await get(t, "/")).status, 200);

  let left = jobs.length;
  const images = Promise.all(jobs.map(async (job) => {
    const answer = await t.app.request(`/jobs/${job.jobId}/share.png`, { redirect: "manual" });
    const bytes = new Uint8Array(await answer.arrayBuffer());
    left--;
    return [answer.status, answer.headers.get("content-type"), bytes.length > 1000];
  }));
  let answeredWhileDrawing = 0;
  while (left > 0) {
    await Promise.race([drawer.nextDrawing(), images]);
    if (left === 0) break;
    const before = { drawing: drawer.drawing, finished: drawer.finished };
    const home = await get(t, "/");
    assert.equal(home.status, 200);
    // The same drawing was in the worker from before the page was asked for until it was answered.
    if (before.drawing > 0 && drawer.drawing > 0 && drawer.finished === before.finished) {
      answeredWhileDrawing++;
    }
  }
  assert.deepEqual(await images, jobs.map(() => [200, "image/png", true]));
  assert.ok(answeredWhileDrawing > 0, "no page was answered while an image was being drawn");
});

/** A drawer whose workers are made from `source` (a module's text), counting the starts. */
function drawerOf(source: string) {
  const made = { starts: 0 };
  const drawer = new ShareImageDrawer(() => {
    made.starts++;
    return new Worker(`data:text/javascript,${encodeURIComponent(source)}`, { type: "module" });
  });
  return { drawer, made };
}

/** Console errors written while `run` runs, kept rather than printed. */
async function errorsWhile(run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const original = console.error;
  console.error = (...parts: unknown[]) => errors.push(parts.join(" "));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return errors;
}

async function shareImageAnswer(t: Awaited<ReturnType<typeof testApp>>, jobId: string) {
  const answer = await t.app.request(`/jobs/${jobId}/share.png`, { redirect: "manual" });
  await answer.body?.cancel();
  return [answer.status, answer.headers.get("location"), answer.headers.get("cache-control")];
}

for (
  const [failure, source] of [
    ["cannot start", `throw new Error("no resvg here");`],
    ["cannot load resvg", `onmessage = () => postMessage({ failed: "resvg.wasm is missing" });`],
    [
      "dies while drawing",
      `onmessage = (event) => {
        if (event.data.files) postMessage({ ready: true });
        else throw new Error("resvg crashed");
      };`,
    ],
  ]
) {
  Deno.test(`a drawing worker that ${failure}: the plain image, one more start, then no more`, async () => {
    const { drawer, made } = drawerOf(source);
    await using t = await testApp({ shareImages: drawer });
    const [job] = await seedJobs(t, [{ role: "Crash Engineer" }]);
    const answers: unknown[][] = [];
    const errors = await errorsWhile(async () => {
      for (let i = 0; i < 3; i++) answers.push(await shareImageAnswer(t, job.jobId));
    });
    for (const [status, location, cacheControl] of answers) {
      assert.equal(status, 302);
      assert.match(String(location), /^\/share\.png\?v=/);
      assert.equal(cacheControl, "no-store");
    }
    assert.equal(made.starts, 2);
    assert.equal(errors.length, 2, errors.join("\n"));
    assert.match(errors[0], /drawing worker failed.*started again for the next image/);
    assert.match(errors[1], /drawing worker failed.*the plain one from now on/);
    // The job's page does not depend on its image.
    assert.equal((await get(t, `/jobs/${job.jobId}`)).status, 200);
  });
}

Deno.test("the drawing worker starts with the first share image, not with the server", async () => {
  const made = { starts: 0 };
  const drawer = new ShareImageDrawer(() => {
    made.starts++;
    return new Worker(new URL("../../server/share-image-worker.ts", import.meta.url), {
      type: "module",
    });
  });
  await using t = await testApp({ shareImages: drawer });
  const [job] = await seedJobs(t, [{ role: "Lazy Engineer" }]);
  for (const path of ["/", "/jobs", `/jobs/${job.jobId}`]) {
    assert.equal((await get(t, path)).status, 200, path);
  }
  assert.equal(made.starts, 0);
  const [status] = await shareImageAnswer(t, job.jobId);
  assert.equal(status, 200);
  assert.equal(made.starts, 1);
});
