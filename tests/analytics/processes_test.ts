/**
 * Two server processes share one KV file and count at the same time: 2,000 job views and 1,000
 * clicks at once from 25 browsers at one address must count each browser once per job, the first
 * 20 on their own and the rest as one shared visitor, exactly, in the daily totals, the per-job
 * running totals and the per-job-per-day counts; counts still in memory are written on a graceful
 * stop.
 */
import assert from "node:assert/strict";
import { sampleJob } from "../helpers/server.ts";
import { startServerProcess } from "../helpers/process.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { keys } from "../../kv/keys.ts";
import type { Job } from "../../kv/schemas.ts";
import { CHROME_DESKTOP } from "./fixtures.ts";
import { VISITORS_PER_ADDRESS } from "../../kv/constants.ts";
import { waitFor } from "../helpers/wait.ts";

const VIEWS = 2_000;
const CLICKS = 1_000;
const CLICKS_AT_STOP = 200;
const BROWSERS = 25;
/** Each job's count when every browser used it: 20 on their own, the other 5 as one. */
const PER_JOB = VISITORS_PER_ADDRESS + 1;
/** Request `i` comes from browser `i % BROWSERS`. */
const browser = (i: number) => ({
  "user-agent": CHROME_DESKTOP.replace("Chrome/131", `Chrome/${100 + (i % BROWSERS)}`),
});

interface Counted {
  views: Map<string, number>;
  clicks: Map<string, number>;
  dayViews: number;
  dayClicks: number;
  /** Per day: the day's totals minus the sum of its per-job counts (0 when they agree). */
  mismatches: string[];
}

/** Reads every analytics count in the file, whatever days the run fell on. */
async function readCounts(kv: Deno.Kv, jobs: Job[]): Promise<Counted> {
  const counted: Counted = {
    views: new Map(),
    clicks: new Map(),
    dayViews: 0,
    dayClicks: 0,
    mismatches: [],
  };
  const perDay = new Map<string, { views: number; clicks: number }>();
  for await (const entry of kv.list<Deno.KvU64>({ prefix: keys.analyticsAllJobDays() })) {
    const [, day, id, kind] = entry.key as [string, string, string, "views" | "clicks"];
    const amount = Number(entry.value.value);
    counted[kind].set(id, (counted[kind].get(id) ?? 0) + amount);
    const sums = perDay.get(day) ?? { views: 0, clicks: 0 };
    sums[kind] += amount;
    perDay.set(day, sums);
  }
  for (const [day, sums] of perDay) {
    const [views, clicks] = await kv.getMany<Deno.KvU64[]>([
      keys.analyticsDayTotal(day, "views"),
      keys.analyticsDayTotal(day, "clicks"),
    ]);
    const dayViews = Number(views.value?.value ?? 0n);
    const dayClicks = Number(clicks.value?.value ?? 0n);
    counted.dayViews += dayViews;
    counted.dayClicks += dayClicks;
    if (dayViews !== sums.views || dayClicks !== sums.clicks) {
      counted.mismatches.push(`${day}: ${dayViews}/${sums.views} ${dayClicks}/${sums.clicks}`);
    }
  }
  for (const job of jobs) {
    const [views, clicks] = await kv.getMany<Deno.KvU64[]>([
      keys.jobCounter(job._id, "views"),
      keys.jobCounter(job._id, "clicks"),
    ]);
    counted.mismatches.push(
      ...(Number(views.value?.value ?? 0n) === (counted.views.get(job._id) ?? 0)
        ? []
        : [`running views of ${job.jobId}`]),
      ...(Number(clicks.value?.value ?? 0n) === (counted.clicks.get(job._id) ?? 0)
        ? []
        : [`running clicks of ${job.jobId}`]),
    );
  }
  return counted;
}

Deno.test("2,000 views and 1,000 clicks from 25 browsers across two processes sharing one KV file count each browser once per job", async () => {
  const dir = await Deno.makeTempDir({ prefix: "careeredge-analytics-" });
  const kvPath = `${dir}/shared.kv`;
  try {
    const seedKv = await Deno.openKv(kvPath);
    const store = new JobStore(seedKv);
    const jobs: Job[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await store.create(sampleJob({ role: `Role ${i}` }));
      if (!created.ok) throw new Error("job not created");
      jobs.push(created.job);
    }
    seedKv.close();

    const servers = await Promise.all([startServerProcess(kvPath), startServerProcess(kvPath)]);
    const kv = await Deno.openKv(kvPath);
    try {
      const expected = { views: new Map<string, number>(), clicks: new Map<string, number>() };
      const requests: Promise<void>[] = [];
      const send = async (url: string, init: RequestInit) => {
        const response = await fetch(url, init);
        await response.body?.cancel();
        assert.equal(response.status, 200, url);
      };
      for (let i = 0; i < VIEWS; i++) {
        // Every browser views every job many times, through both processes, by both id forms.
        const job = jobs[Math.floor(i / BROWSERS) % jobs.length];
        expected.views.set(job._id, PER_JOB);
        const id = i % 3 ? job._id : job.jobId;
        requests.push(send(`${servers[i % 2].url}/api/jobs/${id}`, { headers: browser(i) }));
        if (i < CLICKS) {
          const clicked = jobs[Math.floor(i / BROWSERS) % 3];
          expected.clicks.set(clicked._id, PER_JOB);
          requests.push(
            send(`${servers[(i + 1) % 2].url}/api/jobs/${clicked._id}/click`, {
              method: "POST",
              headers: browser(i),
            }),
          );
        }
      }
      await Promise.all(requests);

      // Counts reach KV within about a second while the servers keep running.
      let counted = await waitFor(
        "every count in KV",
        async () => {
          const counts = await readCounts(kv, jobs);
          return counts.dayViews >= 5 * PER_JOB && counts.dayClicks >= 3 * PER_JOB && counts;
        },
        10_000,
        200,
      ).catch(() => readCounts(kv, jobs)); // the assertions say which count fell short
      assert.equal(counted.dayViews, 5 * PER_JOB);
      assert.equal(counted.dayClicks, 3 * PER_JOB);

      // Clicks still in memory when the servers are told to stop are written before they exit.
      const late = jobs[4];
      expected.clicks.set(late._id, PER_JOB);
      await Promise.all(
        Array.from(
          { length: CLICKS_AT_STOP },
          (_, i) =>
            send(`${servers[i % 2].url}/api/jobs/${late._id}/click`, {
              method: "POST",
              headers: browser(i),
            }),
        ),
      );
      await Promise.all(servers.map((server) => server.stop()));

      counted = await readCounts(kv, jobs);
      assert.deepEqual(counted.mismatches, []);
      assert.equal(counted.dayViews, 5 * PER_JOB);
      assert.equal(counted.dayClicks, 4 * PER_JOB);
      for (const job of jobs) {
        assert.equal(counted.views.get(job._id) ?? 0, expected.views.get(job._id) ?? 0, job.jobId);
        assert.equal(
          counted.clicks.get(job._id) ?? 0,
          expected.clicks.get(job._id) ?? 0,
          job.jobId,
        );
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
