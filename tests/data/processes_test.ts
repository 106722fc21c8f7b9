import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait.ts";
import { startServerProcess } from "../helpers/process.ts";
import { KV_CONNECT_TOKEN, startKvConnect } from "../helpers/kv-connect.ts";
import { STOP_LIMIT_MS } from "../../server/start.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { ActivityLog } from "../../kv/activity.ts";
import { keys } from "../../kv/keys.ts";
import { demoJobs, generateJob, type JobPlacement, seededRandom } from "../../kv/demo/generate.ts";
import type { Job, JobStatus } from "../../kv/schemas.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";

const SECRET = "process-test-main-admin-secret";
const ACTIVE = DAYS_ACTIVE_BEFORE_DUMP;
const IN_DUMP = DAYS_IN_DUMP_BEFORE_INACTIVE;

/** How many jobs of each kind go into the shared database, and where each should end up. */
const GROUPS: { count: number; placement: (now: number) => JobPlacement; after: JobStatus }[] = [
  {
    count: 300,
    placement: (now) => ({
      status: "active",
      datePosted: new Date(now - (ACTIVE + 1) * DAY_MS),
      movedToDumpAt: null,
    }),
    after: "dump",
  },
  {
    count: 80,
    placement: (now) => ({
      status: "active",
      datePosted: new Date(now - ACTIVE / 2 * DAY_MS),
      movedToDumpAt: null,
    }),
    after: "active",
  },
  {
    count: 250,
    placement: (now) => ({
      status: "dump",
      datePosted: new Date(now - (IN_DUMP + 8 + ACTIVE) * DAY_MS),
      movedToDumpAt: new Date(now - (IN_DUMP + 8) * DAY_MS),
    }),
    after: "inactive",
  },
  {
    count: 60,
    placement: (now) => ({
      status: "dump",
      datePosted: new Date(now - (IN_DUMP / 2 + ACTIVE) * DAY_MS),
      movedToDumpAt: new Date(now - IN_DUMP / 2 * DAY_MS),
    }),
    after: "dump",
  },
  {
    count: 40,
    placement: (now) => ({
      status: "inactive",
      datePosted: new Date(now - (IN_DUMP + 23 + ACTIVE) * DAY_MS),
      movedToDumpAt: new Date(now - (IN_DUMP + 23) * DAY_MS),
    }),
    after: "inactive",
  },
];

/**
 * Presses Process Status Changes, again while the server says it has only just started (it has
 * not compared its clock with the other's yet, which takes a heartbeat).
 */
async function processOnce(url: string, token: string) {
  return await waitFor("a server past its first heartbeat", async () => {
    const response = await fetch(`${url}/api/jobs/admin/process-status-changes`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: "{}",
    });
    const json = await response.json();
    if (response.status === 503 && /only just started/.test(json.message)) return undefined;
    assert.ok(response.ok, `${response.status} ${json.message}`);
    return json;
  }, 15_000);
}

async function call(url: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, `${path}: ${response.status} ${json.message}`);
  return json;
}

Deno.test("two server processes on one KV file run the lifecycle together: each due job moves once", async () => {
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/shared.kv`;
  try {
    const expected = new Map<string, JobStatus>();
    {
      using kv = await Deno.openKv(kvPath);
      const random = seededRandom(7);
      const now = Date.now();
      const jobs = GROUPS.flatMap((group) =>
        Array.from({ length: group.count }, () => {
          const job = generateJob(random, expected.size + 1, group.placement(now));
          expected.set(job._id, group.after);
          return job;
        })
      );
      await new JobStore(kv).importJobs(jobs);
    }

    // Heartbeats every second: a server ages no job before its second one (kv/clock.ts).
    const env = { CLOCK_CHECK_SECONDS: "1" };
    await using first = await startServerProcess(kvPath, env);
    await using second = await startServerProcess(kvPath, env);
    await call(first.url, "/api/admin/create-main-admin", {
      username: "Main Admin",
      email: "main@careeredge.test",
      password: "first-admin-password",
      secretKey: SECRET,
    });
    const { token } = await call(first.url, "/api/admin/login", {
      email: "main@careeredge.test",
      password: "first-admin-password",
    });

    const results = await Promise.all(
      [first, second].map((server) => processOnce(server.url, token)),
    );
    using kv = await Deno.openKv(kvPath);
    // Whoever moved a job (these two calls, or either process's hourly lifecycle when an hour
    // strikes meanwhile), the activity log holds exactly one move for each due job.
    const activity = new ActivityLog(kv, () => new Date(), 30);
    const { records } = await activity.list({ page: 1, limit: 100, action: "jobs.lifecycle" });
    const moved = { dump: [] as string[], inactive: [] as string[] };
    for (const record of records) {
      const { to, jobIds } = record.change as { to: "dump" | "inactive"; jobIds: string[] };
      moved[to].push(...jobIds);
    }
    assert.equal(moved.dump.length, 300);
    assert.equal(new Set(moved.dump).size, 300);
    assert.equal(moved.inactive.length, 250);
    assert.equal(new Set(moved.inactive).size, 250);
    // Each call reports only the moves it made itself.
    const total = (name: "movedToDump" | "movedToInactive") =>
      results.reduce((sum, { result }) => sum + result[name], 0);
    assert.ok(total("movedToDump") <= 300 && total("movedToInactive") <= 250);

    const counts = { all: 0, active: 0, dump: 0, inactive: 0, draft: 0 };
    for await (const { value: job } of kv.list<Job>({ prefix: keys.jobs() })) {
      assert.equal(job.status, expected.get(job._id), job.jobId);
      counts[job.status]++;
      counts.all++;
    }
    assert.deepEqual(counts, { all: 730, active: 80, dump: 360, inactive: 290, draft: 0 });
    for (const server of [first, second]) {
      const listed = await call(server.url, "/api/jobs/admin/all?status=all", undefined, token);
      assert.deepEqual(listed.statusCounts, counts);
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("two server processes starting at once on an empty KV file seed the demo data once", async () => {
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/empty.kv`;
  try {
    const servers = await Promise.all(
      [1, 2].map(() => startServerProcess(kvPath, { SEED_DEMO: "true" })),
    );
    for (const server of servers) await server.stop();
    using kv = await Deno.openKv(kvPath);
    const links: string[] = [];
    for await (const { value: job } of kv.list<Job>({ prefix: keys.jobs() })) {
      links.push(job.hiringLink);
    }
    assert.ok(links.length >= 60, `${links.length} jobs`);
    assert.equal(new Set(links).size, links.length);
    assert.equal(links.length, demoJobs(new Date()).length);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

/** Whether the process `pid` has ended (Linux: its /proc entry is gone or a zombie's). */
function ended(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return true;
  }
}

/** Whether nothing takes a connection at `url` any more. */
async function refuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  try {
    (await Deno.connect({ hostname, port: Number(port) })).close();
    return false;
  } catch {
    return true;
  }
}

/**
 * A TCP relay to `target` that can go silent, as a database behind a network that went down does:
 * its connections stay open and nothing more is answered.
 */
function silenceableRelay(target: string) {
  const { hostname, port } = new URL(target);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  let silent = false;
  /** What the server sent towards the database since it went silent (latin1: bytes as they are). */
  let held = "";
  const pipe = async (from: Deno.Conn, to: Deno.Conn, outbound: boolean) => {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (let read; (read = await from.read(buffer)) !== null;) {
        if (!silent) await to.write(buffer.subarray(0, read));
        else if (outbound) held += new TextDecoder("latin1").decode(buffer.subarray(0, read));
      }
    } catch { /* closed */ }
  };
  (async () => {
    for await (const conn of listener) {
      const upstream = await Deno.connect({ hostname, port: Number(port) });
      conns.push(conn, upstream);
      pipe(conn, upstream, true);
      pipe(upstream, conn, false);
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    silence: () => silent = true,
    /** Whether the server asked the silent database for something that names `text`. */
    asked: (text: string) => held.includes(text),
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
    },
  };
}

Deno.test("a stop waiting on a database gone silent ends: by itself in 10 s, at once on a second signal", async () => {
  for (const signals of [1, 2]) {
    await using endpoint = startKvConnect();
    const relay = silenceableRelay(endpoint.url);
    const server = await startServerProcess("", {
      DENO_KV_URL: relay.url,
      DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN,
    });
    const controller = new AbortController();
    try {
      relay.silence();
      // A job page read from the silent database: a request in flight that never ends.
      fetch(`${server.url}/jobs/JB-424242`, { signal: controller.signal }).catch(() => {});
      await waitFor(
        "the job page's read to reach the silent database",
        () => relay.asked("JB-424242"),
      );
      const asked = performance.now();
      Deno.kill(server.pid, "SIGTERM");
      // Handling the signal, the server stops taking connections: a second one finds it stopping.
      await waitFor("the server to stop taking connections", () => refuses(server.url));
      if (signals === 2) Deno.kill(server.pid, "SIGTERM");
      await waitFor("the server to end", () => ended(server.pid), STOP_LIMIT_MS + 5_000, 100);
      const took = performance.now() - asked;
      assert.ok(
        signals === 2 ? took < 2_000 : took > STOP_LIMIT_MS - 1_000 && took < STOP_LIMIT_MS + 3_000,
        `${signals} signals: ended after ${Math.round(took)} ms`,
      );
    } finally {
      controller.abort();
      try {
        Deno.kill(server.pid, "SIGKILL");
      } catch { /* ended */ }
      await server.stop();
      relay.close();
    }
  }
});
