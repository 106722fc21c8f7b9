/** A write that fails keeps its counts in memory for the next flush: nothing lost, nothing twice. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createCounter } from "../../server/counter.ts";
import { JobStore } from "../../kv/jobs.ts";
import { keys } from "../../kv/keys.ts";
import { sampleJob } from "../helpers/server.ts";
import { CHROME_DESKTOP, from } from "./fixtures.ts";

/** `kv`, except that the first atomic write it commits fails as an unreachable database would. */
function failingOnce(kv: Deno.Kv): Deno.Kv {
  let failed = false;
  return new Proxy(kv, {
    get(target, name) {
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          if (failed) return op;
          failed = true;
          return Object.assign(op, {
            commit: () => Promise.reject(new Error("database unreachable")),
          });
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("counts of a failed flush are written by the next one, once", async () => {
  using kv = await Deno.openKv(":memory:");
  const jobs = new JobStore(kv);
  const created = await jobs.create(sampleJob());
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  const counter = createCounter({
    kv: failingOnce(kv),
    config: { TIMEZONE: "UTC" },
    now: () => new Date("2026-03-10T10:00:00Z"),
    jobs,
  });
  const page = new Hono().get("/jobs/:id", (c) => {
    counter.pageView(c, c.req.param("id"));
    return c.text("job page");
  });
  await page.request(
    `/jobs/${job._id}`,
    { headers: { "user-agent": CHROME_DESKTOP } },
    from("192.0.2.44"),
  );

  await assert.rejects(counter.flush(), /database unreachable/);
  assert.equal((await kv.get(keys.analyticsDayTotal("2026-03-10", "visits"))).value, null);

  await counter.flush();
  await counter.flush();
  const read = async (key: Deno.KvKey) => (await kv.get<Deno.KvU64>(key)).value?.value;
  assert.equal(await read(keys.analyticsDayTotal("2026-03-10", "visits")), 1n);
  assert.equal(await read(keys.analyticsDayTotal("2026-03-10", "uniques")), 1n);
  assert.equal(await read(keys.analyticsDayTotal("2026-03-10", "device:desktop")), 1n);
  assert.equal(await read(keys.analyticsDayTotal("2026-03-10", "views")), 1n);
  assert.equal(await read(keys.analyticsJobDay("2026-03-10", job._id, "views")), 1n);
  assert.equal(await read(keys.jobCounter(job._id, "views")), 1n);
});
