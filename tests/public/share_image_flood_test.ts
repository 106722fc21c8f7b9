/** A flood of new share images is drawn a few at a time within a time budget; the rest get the plain one. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { drawQueue, DRAWS_WAITING } from "../../routes/share-image.ts";

Deno.test("the queue draws one at a time, lets DRAWS_WAITING wait, and spaces draws nine times their length", async () => {
  const spans: [number, number][] = [];
  const draw = drawQueue(async () => {
    const start = performance.now();
    while (performance.now() - start < 20) { /* the CPU is taken, as resvg takes it */ }
    spans.push([start, performance.now()]);
    return await Promise.resolve(new Uint8Array(1));
  });
  const job = { role: "r", companyName: "c", location: "l" };
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => draw(job)));
  const drawn = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
  assert.equal(drawn, 1 + DRAWS_WAITING, "one drawing and the ones allowed to wait");
  assert.ok(
    outcomes.every((outcome) =>
      outcome.status === "fulfilled" || outcome.reason.constructor.name === "QueueFull"
    ),
  );
  for (let i = 1; i < spans.length; i++) {
    const took = spans[i - 1][1] - spans[i - 1][0];
    assert.ok(spans[i][0] - spans[i - 1][1] >= 9 * took - 2, `pause before draw ${i + 1}`);
  }
});

Deno.test("a flood of uncached share images: a few are drawn, the rest get the plain image, kept nowhere", async () => {
  await using t = await testApp();
  const ids = [];
  for (let i = 0; i < 8; i++) {
    const created = await asMain(t, "POST", "/api/jobs", {
      ...sampleJob({ role: `Role ${i}` }),
      hiringLink: `https://example.com/share/${i}`,
    });
    ids.push(created.body.job.jobId);
  }
  const answers = await Promise.all(
    ids.map((id) => t.app.request(`/jobs/${id}/share.png`, { redirect: "manual" })),
  );
  const drawn = answers.filter((answer) => answer.status === 200);
  const plain = answers.filter((answer) => answer.status === 302);
  assert.equal(drawn.length + plain.length, ids.length);
  // The requests reach the queue over the time their jobs are read, so one may be done before the
  // last arrive; most find it full.
  assert.ok(drawn.length >= 1 && plain.length >= ids.length / 2, `${drawn.length} drawn`);
  for (const answer of drawn) assert.equal(answer.headers.get("content-type"), "image/png");
  for (const answer of plain) {
    assert.match(answer.headers.get("location")!, /^\/share\.png\?v=/);
    assert.equal(answer.headers.get("cache-control"), "no-store");
  }
  await Promise.all(answers.map((answer) => answer.body?.cancel()));
});
