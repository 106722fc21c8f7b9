/** A process whose clock is days fast (faketime) shares a database without aging its jobs. */
import assert from "node:assert/strict";
import { startServerProcess } from "../helpers/process.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import { keys } from "../../kv/keys.ts";
import type { Job } from "../../kv/schemas.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { ClockCheck } from "../../kv/clock.ts";
import { waitFor } from "../helpers/wait.ts";
import { KV_CONNECT_TOKEN, type KvConnectEndpoint, startKvConnect } from "../helpers/kv-connect.ts";

async function call(url: string, path: string, body: unknown, token?: string) {
  const response = await fetch(url + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Where Debian's faketime package put its library, for this machine's architecture. */
function libfaketime(): string {
  for (const entry of Deno.readDirSync("/usr/lib")) {
    const path = `/usr/lib/${entry.name}/faketime/libfaketime.so.1`;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not this folder: each architecture has its own.
    }
  }
  throw new Error("libfaketime.so.1 is not installed");
}

const admin = { email: "main@careeredge.test", password: "first-admin-password" };

/**
 * Presses Process Status Changes on `url` until it answers `status` with a message matching
 * `message` (heartbeats take seconds); no press in between may move a job.
 */
async function processUntil(url: string, status: number, message = /./) {
  const token = (await call(url, "/api/admin/login", admin)).body.token;
  return await waitFor(
    `a ${status} answer matching ${message}`,
    async () => {
      const answer = await call(url, "/api/jobs/admin/process-status-changes", {}, token);
      if (answer.status === status && message.test(answer.body.message)) return answer;
      assert.equal(answer.body.result?.movedToDump ?? 0, 0, "no job was moved meanwhile");
    },
    30_000,
    200,
  );
}

Deno.test("a process 8 days fast, on the database over the network, refuses to process status changes; the right ones go on", async () => {
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/shared.kv`;
  let endpoint: KvConnectEndpoint | undefined;
  try {
    {
      using kv = await Deno.openKv(kvPath);
      const placement = {
        status: "active" as const,
        datePosted: new Date(Date.now() - 2 * DAY_MS),
        movedToDumpAt: null,
      };
      await new JobStore(kv).importJobs(
        Array.from({ length: 20 }, (_, i) => generateJob(seededRandom(i), i + 1, placement)),
      );
    }
    // Another machine's process reaches the database over the network (the file's own processes
    // share this machine's clock: tests/data/private_files_test.ts refuses one that does not). The
    // endpoint opens the file once this process has closed it: two SQLite libraries in one process
    // on one file undo each other's locks.
    endpoint = startKvConnect({ path: kvPath });
    const env = { CLOCK_CHECK_SECONDS: "1" };
    await using right = await startServerProcess(kvPath, env);
    await using wrong = await startServerProcess(kvPath, {
      ...env,
      DENO_KV_URL: endpoint.url,
      DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN,
    }, { wrapper: ["faketime", "-f", "+8d"] });
    await using third = await startServerProcess(kvPath, env);
    await call(right.url, "/api/admin/create-main-admin", {
      username: "Main Admin",
      ...admin,
      secretKey: "process-test-main-admin-secret",
    });

    // Over the network, the database server's clock (its answers' Date) judges it: at once, and
    // whoever else runs (alone, a fast clock has no record or heartbeat to betray it).
    const refused = await processUntil(wrong.url, 503, /database server/);
    assert.equal(refused.status, 503);
    assert.match(
      refused.body.message,
      /^Status changes were not processed: this server's clock is about 11,5\d\d minutes ahead of the database server's\. Jobs are aged by the clock/,
    );
    // And says so in its log.
    assert.match(
      wrong.log(),
      /Job lifecycle paused: this server's clock is about 11,5\d\d minutes ahead of the database server's/,
    );
    // Each right one sees one clock that agrees and one that does not, and goes on (once it has
    // seen both: until then the wrong clock may be all it knows of).
    for (const server of [right, third]) {
      const answer = await processUntil(server.url, 200);
      assert.deepEqual([answer.status, answer.body.message], [
        200,
        "Processed: 0 to dump, 0 to inactive",
      ]);
    }
    assert.equal((await processUntil(wrong.url, 503)).status, 503, "and the wrong one still waits");
    // Read through a server: the endpoint has the file open in this process.
    const listed = await (await fetch(`${right.url}/api/jobs?limit=100`)).json();
    assert.deepEqual(
      listed.jobs.map((job: Job) => job.status),
      Array(20).fill("active"),
      "every job is still active",
    );
    // Stopped, the fast clock's wrapper leaves no semaphore behind: a later faketime given the
    // same process id would fail to start.
    await wrong.stop();
    const left = await Deno.stat(`/dev/shm/sem.faketime_sem_${wrong.pid}`).then(
      () => true,
      () => false,
    );
    assert.equal(left, false, "faketime's semaphore was left in /dev/shm");
  } finally {
    await endpoint?.close();
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a process whose clock is changed after it opened the database file stops at its next heartbeat, having aged no job", async () => {
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/shared.kv`;
  const fakeTime = `${folder}/fake-time`;
  try {
    {
      using kv = await Deno.openKv(kvPath);
      await new JobStore(kv).importJobs(
        Array.from({ length: 20 }, (_, i) =>
          generateJob(seededRandom(i), i + 1, {
            status: "active",
            datePosted: new Date(Date.now() - 2 * DAY_MS),
            movedToDumpAt: null,
          })),
      );
    }
    // libfaketime reads the offset from the file at every call: the process starts on the
    // machine's clock, as the start's check wants, and is then set 8 days on.
    await Deno.writeTextFile(fakeTime, "+0");
    const env = { CLOCK_CHECK_SECONDS: "1" };
    await using right = await startServerProcess(kvPath, env);
    await using changed = await startServerProcess(kvPath, env, {
      // faketime's own command reads no such file: its library, preloaded, does.
      wrapper: [
        "env",
        `LD_PRELOAD=${libfaketime()}`,
        `FAKETIME_TIMESTAMP_FILE=${fakeTime}`,
        "FAKETIME_NO_CACHE=1",
      ],
    });
    assert.equal(
      (await fetch(`${changed.url}/api/jobs?limit=1`).then((r) => r.json())).pagination.totalJobs,
      20,
    );
    await Deno.writeTextFile(fakeTime, "+8d");
    await waitFor(
      "the changed clock's server to stop",
      async () => {
        const answered = await fetch(changed.url).then((r) => r.body?.cancel(), () => false);
        return answered === false;
      },
      15_000,
      100,
    );
    assert.match(
      changed.log(),
      /Stopping: this server's clock is about 11,5\d\d minutes ahead of this machine's, and Deno KV would expire the database's sessions, links and records by it; start it with the machine's clock/,
    );
    assert.doesNotMatch(changed.log(), /Lifecycle:/);
    const listed = await (await fetch(`${right.url}/api/jobs?limit=100`)).json();
    assert.equal(listed.pagination.totalJobs, 20, "every job is still active");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a server judged by the machine's clock is in step from the start, whoever disagrees, until its clock changes", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = { now: Date.parse("2026-05-01T10:00:00Z"), off: 0 };
  const machine = { read: () => Promise.resolve(clock.now), name: "this machine's" };
  const check = new ClockCheck(kv, () => new Date(clock.now + clock.off), machine);
  const remote = new ClockCheck(kv, () => new Date(clock.now + 8 * DAY_MS));
  const inStep = { inStep: true, byReference: true };
  assert.deepEqual(await check.beat(), inStep, "at its first heartbeat");
  for (let beat = 0; beat < 3; beat++) {
    clock.now += 30_000;
    await remote.beat();
    assert.deepEqual(await check.beat(), inStep);
  }
  assert.equal((await remote.verify()).inStep, false, "the other is the one out of step");
  assert.match((await remote.verify()).reason!, /disagrees with 1 of the 1 other running server/);
  // Its clock is set 8 days on after the start: before jobs are aged it is known, with no heartbeat.
  clock.off = 8 * DAY_MS;
  assert.deepEqual(await check.verify(), {
    inStep: false,
    byReference: true,
    reason: "this server's clock is about 11,520 minutes ahead of this machine's",
  });
  assert.equal((await check.verify()).inStep, false);
  clock.off = 0;
  assert.deepEqual(await check.beat(), inStep, "and in step again once it is right");
});

Deno.test("over the network the database server's clock judges, from the first heartbeat; without its answer, the heartbeats do", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = { now: Date.parse("2026-05-01T10:00:00Z") };
  // The server's Date has whole seconds; KV Connect's answer came between two readings of ours.
  let server: number | null = Math.floor((clock.now + 8 * DAY_MS) / 1000) * 1000;
  const fast = new ClockCheck(kv, () => new Date(clock.now), {
    read: () => Promise.resolve(server),
    name: "the database server's",
  });
  assert.deepEqual(await fast.beat(), {
    inStep: false,
    byReference: true,
    reason: "this server's clock is about 11,520 minutes behind the database server's",
  });
  server = clock.now - 4 * 60_000 - 999;
  assert.deepEqual(await fast.beat(), { inStep: true, byReference: true }, "within the tolerance");
  server = clock.now - 6 * 60_000;
  assert.match((await fast.beat()).reason!, /about 6 minutes ahead of the database server's$/);
  // No answer (the server down, or no Date): judged by the heartbeats and records, as on Deploy.
  server = null;
  clock.now += 30_000;
  assert.deepEqual(await fast.beat(), { inStep: true });
});

Deno.test("a server ages no job before a heartbeat has compared its clock; alone, it then does", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = { now: Date.parse("2026-05-01T10:00:00Z") };
  const check = new ClockCheck(kv, () => new Date(clock.now));
  // A test app or a task never beats: nothing of theirs waits on a comparison.
  assert.equal((await check.verify()).inStep, true);
  await check.beat();
  assert.deepEqual((await check.verify()).inStep, false);
  assert.match((await check.verify()).reason!, /has only just started/);
  clock.now += 30_000;
  await check.beat();
  assert.deepEqual(await check.verify(), { inStep: true });
});

Deno.test("a server alone is judged by the times in the database: behind the newest by more than the tolerance, it waits", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = { now: Date.parse("2026-05-01T10:00:00Z") };
  const check = new ClockCheck(kv, () => new Date(clock.now));
  const written = (minutesAhead: number) =>
    kv.set(keys.activity(`zz-${minutesAhead}`), {
      at: new Date(clock.now + minutesAhead * 60_000).toISOString(),
    });
  await written(4);
  await check.beat();
  clock.now += 30_000;
  assert.deepEqual(await check.beat(), { inStep: true }, "within the tolerance");

  // Records a process 90 minutes fast wrote, or this clock is 90 minutes slow: alone, it waits.
  await written(90);
  clock.now += 30_000;
  const verdict = await check.beat();
  assert.equal(verdict.inStep, false);
  assert.match(
    verdict.reason!,
    /^this server's clock is about 90 minutes behind the newest time written in the database \(2026-05-01T11:30:30\.000Z\), and no other running server vouches for it$/,
  );

  // Another live process whose clock agrees vouches for it: the records judge no more.
  const other = new ClockCheck(kv, () => new Date(clock.now));
  await other.beat();
  clock.now += 30_000;
  await check.beat();
  await other.beat();
  clock.now += 30_000;
  assert.deepEqual(await check.beat(), { inStep: true });
});
