/** Every answer to an admin says `cache-control: no-store`; public answers stay cacheable. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";

Deno.test("admin answers, signing in and refused admin calls say cache-control: no-store", async () => {
  await using t = await testApp();
  const admin = await signIn(t, { main: true });
  const created = await t.services.jobs.create(sampleJob());
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  const calls: [string, RequestInit][] = [
    ["/api/admin/profile", { headers: admin.headers }],
    ["/api/admin/all", { headers: admin.headers }],
    ["/api/admin/profile", {}],
    ["/api/admin/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
    }],
    ["/api/analytics/dashboard?days=7", { headers: admin.headers }],
    ["/api/analytics/overview?days=7", { headers: admin.headers }],
    ["/api/analytics/trends?days=7", {}],
    ["/api/jobs/admin/all", { headers: admin.headers }],
    ["/api/jobs/admin/dump", { headers: admin.headers }],
    [`/api/jobs/${job._id}`, { headers: admin.headers }],
    ["/api/jobs", {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: "{}",
    }],
  ];
  for (const [path, init] of calls) {
    const response = await t.app.request(path, init);
    await response.body?.cancel();
    assert.equal(
      response.headers.get("cache-control"),
      "no-store",
      `${init.method ?? "GET"} ${path}`,
    );
  }
  for (const path of ["/api/jobs", `/api/jobs/${job._id}`, "/api/jobs/filters/options"]) {
    const response = await t.app.request(path);
    await response.body?.cancel();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), null, path);
  }
});
