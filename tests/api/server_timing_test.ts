import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";

Deno.test("every answer states the server's time in Server-Timing, errors and cached answers too", async () => {
  await using t = await testApp();
  for (const path of ["/api/jobs", "/api/jobs", "/api/nothing-here", "/api/jobs?page=x"]) {
    const response = await t.app.request(path);
    await response.body?.cancel();
    const timing = response.headers.get("server-timing") ?? "";
    assert.match(timing, /^app;dur=\d+\.\d{2}$/, `${path}: ${timing}`);
    assert.ok(Number(timing.slice("app;dur=".length)) < 10_000, path);
  }
});
