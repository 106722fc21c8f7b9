/** With the database's disk full, every write answers 503 with a message, never 500. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { json, request, signIn, signInMain } from "../helpers/admins.ts";
import { fullDiskKv } from "../helpers/kv.ts";
import { DISK_FULL_MESSAGE } from "../../server/errors.ts";

Deno.test("a full disk: sign-in, sign-out, job and account writes all answer 503 with a message", async () => {
  const disk = { full: false };
  await using t = await testApp({ wrapKv: (kv) => fullDiskKv(kv, disk) });
  const main = await signInMain(t);
  const editor = await signIn(t, { permissions: { canCreateJobs: true, canDeleteJobs: true } });
  const job = await request(t, "POST", "/api/jobs", sampleJob(), editor.headers);
  assert.equal(job.status, 201);
  const id = job.body.job?._id ?? job.body._id;
  disk.full = true;

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
  disk.full = false;
  assert.equal(
    (await request(t, "PUT", "/api/admin/profile", { username: "New Name" }, main.headers)).status,
    200,
  );
});
