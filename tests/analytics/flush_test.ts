/** A write that fails keeps its counts in memory for the next flush: nothing lost, nothing twice. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createCounter } from "../../server/counter.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { keys } from "../../kv/keys.ts";
import { sampleJob } from "../helpers/server.ts";
import { CHROME_DESKTOP, from } from "./fixtures.ts";

/** `kv`, except that its `nth` atomic write fails as an unreachable database would. */
function failingOnce(kv: Deno.Kv, nth = 1): Deno.Kv {
  let writes = 0;
  return new Proxy(kv, {
    get(target, name) {
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          if (++writes !== nth) return op;
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

Deno.test("when a big batch fails halfway, the retry writes only the part that was not written", async () => {
  using kv = await Deno.openKv(":memory:");
  const jobs = new JobStore(kv);
  const ids: string[] = [];
  // More jobs than one atomic write takes, so the batch is written in two.
  for (let i = 0; i < 130; i++) {
    const created = await jobs.create(sampleJob({ companyName: `Company ${i % 7}` }));
    if (!created.ok) throw new Error("job not created");
    ids.push(created.job._id);
  }
  const counter = createCounter({
    kv: failingOnce(kv, 2),
    config: { TIMEZONE: "UTC" },
    now: () => new Date("2026-03-10T10:00:00Z"),
    jobs,
  });
  const api = new Hono().post("/jobs/:id/click", (c) => {
    counter.jobClick(c, c.req.param("id"));
    return c.text("ok");
  });
  for (const id of ids) {
    await api.request(`/jobs/${id}/click`, {
      method: "POST",
      headers: { "user-agent": CHROME_DESKTOP },
    });
  }
  await assert.rejects(counter.flush(), /database unreachable/);
  await counter.flush();

  const read = async (key: Deno.KvKey) => (await kv.get<Deno.KvU64>(key)).value?.value;
  assert.equal(await read(keys.analyticsDayTotal("2026-03-10", "clicks")), 130n);
  let companies = 0n;
  for (let i = 0; i < 7; i++) {
    companies += await read(keys.analyticsCompanyDay("2026-03-10", `Company ${i}`, "clicks")) ??
      0n;
  }
  assert.equal(companies, 130n);
  for (const id of ids) {
    assert.equal(await read(keys.analyticsJobDay("2026-03-10", id, "clicks")), 1n, id);
    assert.equal(await read(keys.jobCounter(id, "clicks")), 1n, id);
  }
});
