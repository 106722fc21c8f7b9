/**
 * With the database's disk full, every write answers 503 with a message, never 500: through a
 * wrapper that fails as SQLite does, and on a real disk that has run out of room (a small tmpfs,
 * where the test may mount one).
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { json, request, signIn, signInMain } from "../helpers/admins.ts";
import { fullDiskKv } from "../helpers/kv.ts";
import { DISK_FULL_MESSAGE } from "../../server/errors.ts";

type App = Awaited<ReturnType<typeof testApp>>;

/** Signs in a main admin and an editor and posts a job, then fills the disk with `fill`. */
async function writesOnAFullDisk(t: App, fill: () => void | Promise<void>) {
  const main = await signInMain(t);
  const editor = await signIn(t, { permissions: { canCreateJobs: true, canDeleteJobs: true } });
  const job = await request(t, "POST", "/api/jobs", sampleJob(), editor.headers);
  assert.equal(job.status, 201);
  const id = job.body.job?._id ?? job.body._id;
  await fill();

  const calls: [string, string, unknown, Record<string, string>][] = [
    ["POST", "/api/admin/login", { email: main.email, password: "a-wrong-password" }, json],
    ["POST", "/api/admin/login", { email: main.email, password: main.password }, json],
    ["POST", "/api/jobs", sampleJob({ hiringLink: "https://example.com/full" }), editor.headers],
    ["PUT", `/api/jobs/${id}`, sampleJob({ role: "Renamed" }), editor.headers],
    ["PUT", `/api/jobs/${id}/status`, { status: "dump" }, editor.headers],
    ["DELETE", `/api/jobs/${id}`, undefined, editor.headers],
    ["PUT", "/api/admin/profile", { username: "New Name" }, main.headers],
    ["POST", "/api/admin/register", {
      username: "Nina",
      email: "nina@example.com",
      password: "velvet-orbit-lamp",
    }, main.headers],
    ["POST", "/api/admin/logout", undefined, editor.headers],
  ];
  for (const [method, path, body, headers] of calls) {
    const answer = await request(t, method, path, body, headers);
    assert.deepEqual(
      [answer.status, answer.body.message, answer.headers.get("retry-after")],
      [503, DISK_FULL_MESSAGE, "60"],
      `${method} ${path}`,
    );
  }
  return main;
}

Deno.test("a full disk: sign-in, sign-out, job and account writes all answer 503 with a message", async () => {
  const disk = { full: false };
  await using t = await testApp({ wrapKv: (kv) => fullDiskKv(kv, disk) });
  const main = await writesOnAFullDisk(t, () => void (disk.full = true));
  disk.full = false;
  assert.equal(
    (await request(t, "PUT", "/api/admin/profile", { username: "New Name" }, main.headers)).status,
    200,
  );
});

/** A 1 MB tmpfs, mounted for the test and gone after it. */
async function smallDisk() {
  const path = await Deno.makeTempDir({ prefix: "careeredge-full-" });
  const mounted = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", path],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  const disk = {
    path: mounted?.success ? path : null,
    async [Symbol.asyncDispose]() {
      if (mounted?.success) await new Deno.Command("umount", { args: [path] }).output();
      await Deno.remove(path);
    },
  };
  return disk;
}

// Only where this process may mount one (root with the right to mount, as on CI's machines).
const canMount = await (async () => {
  await using disk = await smallDisk();
  return disk.path !== null;
})();

Deno.test({
  name: "a real disk out of room: SQLite's own error is the same 503 with a message",
  ignore: !canMount,
}, async () => {
  await using disk = await smallDisk();
  // On the file itself, also under TEST_KV=connect: this is SQLite's own refusal (an endpoint's
  // full disk reaches Deno's client as a 500, which it retries).
  await using t = await testApp({ kvPath: `${disk.path}/careeredge.kv`, kvConnect: false });
  await writesOnAFullDisk(t, async () => {
    // Filled as a database grows: until SQLite itself refuses the next write.
    for (let i = 0;; i++) {
      const refused = await t.kv.set(["filler", i], "x".repeat(20_000)).then(() => null, (e) => e);
      if (refused) return assert.match(refused.message, /database or disk is full/);
    }
  });
});
