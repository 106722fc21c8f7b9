/**
 * Every atomic write stays within the strictest KV backend's limits (self-hosted denokv: at most 10
 * checks and 1000 mutations per write): a bulk upload of 200 jobs, traffic from many visitors at
 * once, the lifecycle moving 300 jobs, a dump restored into an empty database, and a migration of
 * every record kind.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { DENOKV_LIMITS, type Largest, limitedKv } from "../helpers/kv.ts";
import { CHROME_DESKTOP } from "../analytics/fixtures.ts";
import { seedJobs } from "../public/fixtures.ts";
import { dumpDatabase, restoreDatabase } from "../../kv/backup.ts";
import { migrateDatabase } from "../../kv/migrate.ts";
import type { BulkCreated } from "../../kv/jobs/bulk.ts";

const JOBS = 200;
const VISITORS = 60;
/** Jobs the lifecycle moves at once. */
const DUE = 300;

const fresh = (): Largest => ({ checks: 0, mutations: 0, commits: 0 });

function assertWithin(largest: Largest, what: string) {
  assert.ok(largest.commits > 0, `${what} wrote something`);
  assert.ok(largest.checks <= DENOKV_LIMITS.checks, `${what}: ${largest.checks} checks`);
  assert.ok(
    largest.mutations <= DENOKV_LIMITS.mutations,
    `${what}: ${largest.mutations} mutations`,
  );
}

/** Makes every stored record look as written before record versions (version 1). */
async function forgetVersions(kv: Deno.Kv): Promise<number> {
  let changed = 0;
  for await (const entry of kv.list<Record<string, unknown>>({ prefix: [] })) {
    const value = entry.value;
    if (value === null || typeof value !== "object" || !("schemaVersion" in value)) continue;
    const { schemaVersion: _, ...older } = value;
    await kv.set(entry.key, older);
    changed++;
  }
  return changed;
}

Deno.test("bulk upload, visitor counting, the lifecycle, restore and migrate keep every write within denokv's limits", async () => {
  const seen = fresh();
  await using t = await testApp({ wrapKv: (kv) => limitedKv(kv, seen) });
  const rows = Array.from({ length: JOBS }, (_, i) =>
    sampleJob({
      role: `Role ${i}`,
      hiringLink: `https://careers.acme.example/jobs/${i}`,
    }));
  const answer = await asMain(t, "POST", "/api/jobs/bulk", { jobs: rows });
  assert.equal(answer.status, 201, JSON.stringify(answer.body).slice(0, 300));
  assert.equal(answer.body.created.length, JOBS);
  assertWithin(seen, "bulk upload");

  Object.assign(seen, fresh());
  const jobs = answer.body.created as BulkCreated[];
  await Promise.all(Array.from({ length: VISITORS }, async (_, i) => {
    const agent = CHROME_DESKTOP.replace("Chrome/131", `Chrome/${100 + i}`);
    const headers = { "user-agent": agent, "x-forwarded-for": `203.0.113.${i}` };
    const view = await t.app.request(`/jobs/${jobs[i % 7].jobId}`, { headers });
    await view.text();
    const click = await t.app.request(`/api/jobs/${jobs[i % 7]._id}/click`, {
      method: "POST",
      headers,
    });
    assert.equal(click.status, 200);
    await click.body?.cancel();
  }));
  await t.services.counter.flush();
  assertWithin(seen, "counting visitors");

  // Posted months ago: the active ones are due for the dump, the ones in the dump for inactive.
  Object.assign(seen, fresh());
  await seedJobs(
    t,
    Array.from({ length: DUE }, (_, i) => ({
      status: i % 3 ? "active" : "dump",
      hiringLink: `https://careers.acme.example/old/${i}`,
    })),
  );
  const moved = await t.services.jobs.processStatusChanges();
  assert.equal(moved.movedToDump + moved.movedToInactive, DUE);
  assertWithin(seen, "lifecycle");

  let dump = "";
  const decoder = new TextDecoder();
  await dumpDatabase(
    t.kv,
    new WritableStream({ write: (part) => void (dump += decoder.decode(part, { stream: true })) }),
  );
  const target = await Deno.openKv(":memory:");
  try {
    const restore = fresh();
    const restored = await restoreDatabase(
      limitedKv(target, restore),
      new Blob([dump]).stream(),
      { activityRetentionDays: 90 },
    );
    assert.ok(restored.entries > JOBS, `restored ${restored.entries} entries`);
    assertWithin(restore, "restore");

    assert.ok(await forgetVersions(target) >= JOBS + DUE);
    const migrate = fresh();
    const migration = await migrateDatabase(limitedKv(target, migrate), {
      retentionDays: 90,
      now: new Date(),
    });
    const jobsMigrated = migration.kinds.find((kind) => kind.kind === "Jobs")!;
    assert.equal(jobsMigrated.upgraded, JOBS + DUE);
    assertWithin(migrate, "migrate");
  } finally {
    target.close();
  }
});
