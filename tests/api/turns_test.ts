import assert from "node:assert/strict";
import { Turns } from "../../server/turns.ts";
import { sampleJob, testApp } from "../helpers/server.ts";
import type { Job } from "../../kv/schemas.ts";

/**
 * Lets every callback already queued run: a turn passes on through promise callbacks alone, so
 * once a timer's task comes, all that was going to start has started.
 */
const drained = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

Deno.test("no more requests than the turns run at once, and the waiting ones start in the order they came", async () => {
  const turns = new Turns(2, 10_000);
  const started: number[] = [];
  const gates = Array.from({ length: 6 }, gate);
  let running = 0;
  let most = 0;
  const runs = gates.map((g, i) =>
    turns.run(async () => {
      started.push(i);
      most = Math.max(most, ++running);
      await g.opened;
      running--;
      return i;
    })
  );
  await drained();
  assert.deepEqual(started, [0, 1]);
  assert.equal(turns.queued, 4);
  // The later ones finish first: a freed turn still goes to the one that asked first.
  for (const i of [1, 0, 5, 4, 3, 2]) {
    gates[i].open();
    await drained();
  }
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  assert.equal(most, 2);
  assert.equal(turns.queued, 0);
});

Deno.test("a turn held past its limit is given up: a request waiting on something slow holds no one up for longer", async () => {
  const turns = new Turns(1, 30);
  const slow = gate();
  const slowRun = turns.run(() => slow.opened);
  const asked = performance.now();
  const waited = await turns.run(() => Promise.resolve(performance.now() - asked));
  assert.ok(waited >= 25, `the second started after ${waited} ms, before the first's turn ran out`);
  // The slow request still finishes, and its late end frees no turn it no longer holds.
  slow.open();
  await slowRun;
  const order: string[] = [];
  const blocker = gate();
  const first = turns.run(async () => {
    order.push("first");
    await blocker.opened;
  });
  const second = turns.run(() => Promise.resolve(order.push("second")));
  await drained();
  assert.deepEqual(order, ["first"], "one turn at once, after the given-up one ended");
  blocker.open();
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first", "second"]);
});

Deno.test("a request that fails gives its turn on", async () => {
  const turns = new Turns(1, 10_000);
  await assert.rejects(turns.run(() => Promise.reject(new Error("broken"))), /broken/);
  assert.equal(await turns.run(() => Promise.resolve("next")), "next");
});

Deno.test("the server answers every one of many requests at once, each its own, through its turns", async () => {
  await using t = await testApp();
  const names = ["Alder", "Birch", "Cedar", "Hazel", "Maple", "Rowan"];
  const created: Job[] = [];
  for (const name of names) {
    const result = await t.services.jobs.create(sampleJob({ role: `${name} Engineer` }));
    assert.ok(result.ok);
    created.push(result.job);
  }
  const paths = Array.from(
    { length: 60 },
    (_, i) =>
      i % 2 === 0
        ? `/jobs/${created[i % 6].jobId}`
        : `/api/jobs?keywords=${names[i % 6].toLowerCase()}`,
  );
  const answers = await Promise.all(paths.map((path) => t.app.request(path)));
  for (const [i, response] of answers.entries()) {
    assert.equal(response.status, 200, paths[i]);
    const text = await response.text();
    const role = `${names[i % 6]} Engineer`;
    if (i % 2 === 0) assert.match(text, new RegExp(`<h1[^>]*>${role}</h1>`), paths[i]);
    else assert.deepEqual(JSON.parse(text).jobs.map((job: Job) => job.role), [role], paths[i]);
  }
});

Deno.test("the public pages take turns; the admin app, the API and the assets do not", async () => {
  const run = Turns.prototype.run;
  const asked: string[] = [];
  Turns.prototype.run = function <T>(this: Turns, work: () => Promise<T>) {
    asked.push("turn");
    return run.call(this, work) as Promise<T>;
  };
  try {
    await using t = await testApp();
    const result = await t.services.jobs.create(sampleJob({ role: "Turn Taker" }));
    assert.ok(result.ok);
    const expected = new Map([
      ["/", true],
      ["/jobs?keywords=turn", true],
      [`/jobs/${result.job.jobId}`, true],
      ["/rss.xml", true],
      ["/api/jobs", false],
      [`/api/jobs/${result.job.jobId}`, false],
      ["/api/admin/me", false],
      ["/admin/login", false],
      ["/assets/styles.css", false],
    ]);
    for (const [path, turn] of expected) {
      asked.length = 0;
      const response = await t.app.request(path);
      await response.body?.cancel();
      assert.equal(asked.length, turn ? 1 : 0, `${path} (${response.status})`);
    }
  } finally {
    Turns.prototype.run = run;
  }
});
