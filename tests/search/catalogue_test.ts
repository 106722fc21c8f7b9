/**
 * The catalogue at scale: newest-first lists answer while it loads, lists hold lean jobs while the
 * API gives whole records, and the index gives the same answers however often it is asked and
 * after it drops removed jobs.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import type { Job } from "../../kv/schemas.ts";
import { SearchIndex } from "../../kv/search/index.ts";
import { ActiveCatalog, indexedJob } from "../../kv/jobs/catalogue.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import { searchJobs } from "../../kv/search/search.ts";
import { CARD_DESCRIPTION_CUT, DAY_MS } from "../../kv/constants.ts";
import { POSTED_WITHIN } from "../../kv/job-fields.ts";
import { FIXTURE_JOBS } from "./fixtures.ts";

function activeJobs(count: number, description: (i: number) => string): Omit<Job, "jobId">[] {
  const start = Date.parse("2026-03-01T00:00:00Z");
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    return {
      ...sampleJob({ role: `Role ${i % 9}`, description: description(i) }),
      _id: `job-${String(i).padStart(5, "0")}`,
      status: "active" as const,
      datePosted: at,
      movedToDumpAt: null,
      createdAt: at,
      updatedAt: at,
    };
  });
}

Deno.test("while the catalogue loads, the newest jobs are answered at once; searches wait for it", async () => {
  // The catalogue's reads of job records wait until released, so it cannot be in before them.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await using t = await testApp({
    now: new Date("2026-03-02T00:00:00Z"),
    wrapKv: (kv) =>
      new Proxy(kv, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (property !== "getMany" && property !== "list") {
            return typeof value === "function" ? value.bind(target) : value;
          }
          return (selector: Deno.KvKey[] & { prefix?: Deno.KvKey }, options?: unknown) => {
            const first = property === "list" ? selector.prefix?.[1] : selector[0]?.[0];
            const loading = first === "jobs" ||
              (property === "list" && selector.prefix?.[0] === "jobs_by_status" &&
                (options as Deno.KvListOptions | undefined)?.limit === undefined);
            if (!loading) return value.call(target, selector, options);
            if (property === "getMany") {
              return held.then(() => target.getMany(selector, options as undefined));
            }
            const inner = target.list(selector as Deno.KvListSelector, options as undefined);
            return (async function* () {
              await held;
              yield* inner;
            })();
          };
        },
      }),
  });
  try {
    await t.services.jobs.importJobs(activeJobs(2_000, (i) => `Description of job ${i}.`));
    const done: string[] = [];
    const loading = t.services.jobs.active().then(() => done.push("catalogue"));
    const search = Promise.resolve(t.app.request("/api/jobs?keywords=role")).then(() =>
      done.push("search")
    );
    const body = await (await t.app.request("/api/jobs?limit=3")).json();
    done.push("newest");
    release();
    await Promise.all([loading, search]);
    assert.deepEqual(done, ["newest", "catalogue", "search"]);
    assert.deepEqual(body.jobs.map((job: Job) => job._id), ["job-01999", "job-01998", "job-01997"]);
    assert.equal(body.pagination.totalJobs, 2_000);
    // The same answer once the catalogue is in, oldest first too.
    const again = await (await t.app.request("/api/jobs?limit=3&sortBy=datePosted&sortOrder=asc"))
      .json();
    assert.deepEqual(again.jobs.map((job: Job) => job._id), [
      "job-00000",
      "job-00001",
      "job-00002",
    ]);
  } finally {
    release();
  }
});

Deno.test("lists hold a job's description only as far as a card shows it; the API gives it whole", async () => {
  await using t = await testApp({ now: new Date("2026-03-02T00:00:00Z") });
  const long = (i: number) => `Job ${i} ${"builds reliable payment systems ".repeat(40)}`;
  await t.services.jobs.importJobs(activeJobs(3, long));
  const catalog = await t.services.jobs.active();
  const held = catalog.byId.get("job-00001")!.job;
  assert.ok(held.description.length <= CARD_DESCRIPTION_CUT + 1, "the list keeps a card's cut");
  assert.ok(long(1).startsWith(held.description));
  const body = await (await t.app.request("/api/jobs?keywords=payment")).json();
  assert.equal(body.jobs.length, 3);
  assert.deepEqual(body.jobs.map((job: Job) => job.description).sort(), [0, 1, 2].map(long));
  const one = await (await t.app.request("/api/jobs/job-00002")).json();
  assert.equal(one.description, long(2));
  // Words past the cut are still found: the index read the whole text.
  const late = await (await t.app.request("/api/jobs?keywords=reliable%20systems")).json();
  assert.equal(late.pagination.totalJobs, 3);
});

const QUERIES = ["engineer", "python developer", "data", "react bengaluru", "pyhton", "java"];

const answers = (index: SearchIndex) =>
  QUERIES.map((keywords) => {
    const answer = searchJobs(index, { keywords, order: "relevance", offset: 0, limit: 50 });
    return { keywords, ids: answer.ids, total: answer.total, facets: answer.facets };
  });

function fixtureIndex(): SearchIndex {
  const index = new SearchIndex();
  for (const job of FIXTURE_JOBS) index.put(indexedJob(job));
  return index;
}

Deno.test("the index answers the same however many searches came before", () => {
  const index = fixtureIndex();
  const first = answers(index);
  assert.ok(first.some(({ total }) => total > 1), "the queries find jobs");
  // Asked again in another order: nothing one search leaves behind changes another's answer.
  const reversed = answers(index).reverse();
  assert.deepEqual(answers(index), first);
  assert.deepEqual(reversed.reverse(), first);
  assert.deepEqual(answers(fixtureIndex()), first);
});

Deno.test("dropping removed jobs from the index answers as an index of the live jobs would", () => {
  const index = fixtureIndex();
  const removed = new Set(FIXTURE_JOBS.filter((_, i) => i % 3 === 0).map((job) => job._id));
  for (const id of removed) index.remove(id);
  index.compact();
  assert.equal(index.span, FIXTURE_JOBS.length - removed.size);
  const live = new SearchIndex();
  for (const job of FIXTURE_JOBS) if (!removed.has(job._id)) live.put(indexedJob(job));
  assert.deepEqual(answers(index), answers(live));
  assert.ok(answers(index).every(({ ids }) => ids.every((id) => !removed.has(id))));
});

/**
 * Filter words, each a mask of the jobs they let in that the index keeps (a place, such as remote
 * or bengaluru, is marked afresh): the first six ask four masks, fewer than it keeps, so asking
 * them again reads the kept ones; all of them ask eleven, more than it keeps.
 */
const FILTER_QUERIES = [
  "senior engineer",
  "senior",
  "intern",
  "remote python",
  "fresher java",
  "full time data",
  "senior remote",
  "part time",
  "contract developer",
  "it jobs",
  "non it",
  "junior",
  "internship bengaluru",
  "experienced developer",
];

/** The searches' now: the Date posted counts of two indexes asked a moment apart stay the same. */
const NOW = Date.parse("2026-11-25T12:00:00Z");

const filtered = (index: SearchIndex, queries: string[], location?: string) =>
  queries.map((keywords) => {
    const answer = searchJobs(index, {
      keywords,
      location,
      now: NOW,
      order: "relevance",
      offset: 0,
      limit: 50,
    });
    return { keywords, ids: answer.ids, total: answer.total, facets: answer.facets };
  });

Deno.test("a filter word's jobs follow the index as jobs are added, edited, removed and dropped", () => {
  const index = fixtureIndex();
  const jobs = new Map(FIXTURE_JOBS.map((job) => [job._id, job]));
  const same = (what: string, queries = FILTER_QUERIES.slice(0, 6)) => {
    const fresh = new SearchIndex();
    for (const job of jobs.values()) fresh.put(indexedJob(job));
    for (const location of [undefined, "bengaluru"]) {
      const asked = filtered(index, queries, location);
      assert.deepEqual(asked, filtered(fresh, queries, location), `${what}, ${location}`);
    }
  };
  same("at first");
  same("asked again");
  same("with more filter words than the index keeps", FILTER_QUERIES);
  same("those asked again", FILTER_QUERIES);
  same("the first ones again");
  const change = (job: Job) => {
    jobs.set(job._id, job);
    index.put(indexedJob(job));
  };
  change({
    ...FIXTURE_JOBS[0],
    _id: "added-senior",
    jobId: "JB-ADDED",
    role: "Senior Platform Engineer",
    experience: "6+",
    location: "Remote",
    workMode: "Remote",
  });
  same("after a senior remote job is added");
  const found = filtered(index, ["senior remote"])[0];
  assert.ok(found.ids.includes("added-senior"), "the added job is found by its filter words");
  // A job becomes an internship in Bengaluru, another a contract for a fresher.
  const [one, two] = FIXTURE_JOBS.filter((job) => job.employmentType === "Full-Time");
  change({ ...one, employmentType: "Internship", location: "Bengaluru, Karnataka" });
  change({ ...two, employmentType: "Contract", experience: "0-1" });
  same("after two jobs change their type and experience");
  for (const [i, job] of FIXTURE_JOBS.entries()) {
    if (i % 3 !== 1) continue;
    jobs.delete(job._id);
    index.remove(job._id);
  }
  same("after a third of the jobs are removed");
  index.compact();
  same("after the removed jobs are dropped");
});

Deno.test("the catalogue's shared texts follow the live jobs, not every edit ever made", () => {
  const catalog = new ActiveCatalog(1);
  const jobs = activeJobs(1_000, (i) => `Description of job ${i}.`)
    .map((job, i) => ({ ...job, jobId: `JB-${1000 + i}` }) as Job);
  for (const job of jobs) catalog.put(job);
  catalog.invalidate();
  const loaded = catalog.sharedTexts;
  // Each edit brings a company name and a description no other job has.
  for (let edit = 0; edit < 5_000; edit++) {
    const job = jobs[edit % jobs.length];
    catalog.apply(job._id, {
      ...job,
      companyName: `Renamed ${edit}`,
      description: `Edited ${edit}.`,
    });
    catalog.invalidate();
  }
  // At most the live jobs' texts (two of their own each now) and those of the edits since the
  // last time the dead entries were dropped (after at most 1,025 edits): without dropping them,
  // every one of the 10,000 edited texts stays.
  assert.ok(
    catalog.sharedTexts < loaded + 2 * jobs.length + 2 * 1_100,
    `${catalog.sharedTexts} shared texts after 5,000 edits (${loaded} at load)`,
  );
  const last = jobs[4_999 % jobs.length];
  const listed = catalog.page({ page: 1, limit: 1, keywords: "Renamed 4999" }).jobs[0];
  assert.equal(listed._id, last._id);
  assert.equal(listed.companyName, "Renamed 4999");
  assert.equal(listed.description, "Edited 4999.");
});

Deno.test("a job page's job is read by its job ID in one read once the catalogue is in", async () => {
  using kv = await Deno.openKv(":memory:");
  let reads = 0;
  const counted = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "get" || property === "getMany") {
        return (
          ...args: unknown[]
        ) => (reads++, (value as (...a: unknown[]) => unknown).apply(target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const store = new JobStore(counted);
  const [first, second] = await store.importJobs(
    activeJobs(2, (i) => `Description of job ${i}.`),
  );
  reads = 0;
  assert.equal(
    (await store.get(first.jobId))?._id,
    first._id,
    "before the catalogue: id and pointer",
  );
  assert.equal(reads, 2);
  await store.active();
  reads = 0;
  assert.equal((await store.get(first.jobId))?.role, first.role);
  assert.equal(reads, 1);
  // A job that is no longer active is still found, through its pointer.
  await store.setStatus(second._id, "dump");
  await store.active();
  assert.equal((await store.get(second.jobId))?.status, "dump");
  assert.equal(await store.get("JB-999999"), null);
});

Deno.test("a search holds until the first of its jobs leaves its Date posted window, broad or narrow", () => {
  // A job a minute over three and a half days; one in fifty has the word "zephyrine".
  const jobs = activeJobs(5_000, (i) => (i % 50 === 7 ? "Zephyrine tooling." : "Common work.")).map(
    (job, i): Job => ({ ...job, jobId: `JB-${i + 1}` }),
  );
  const index = new SearchIndex();
  for (const job of jobs) index.put(indexedJob(job));
  const now = Date.parse("2026-03-01T00:00:00Z") + 5_000 * 60_000;
  const until = (keywords?: string) =>
    searchJobs(index, { keywords, now, order: "newest", offset: 0, limit: 10 }).until;
  // Worked out job by job: the moment each leaves the first window it is in.
  const firstLeaving = (chosen: Job[]) =>
    Math.min(...chosen.map((job) => {
      const posted = Date.parse(job.datePosted);
      const days = POSTED_WITHIN.find((days) => posted >= now - days * DAY_MS);
      return days === undefined ? Infinity : posted + days * DAY_MS;
    }));
  // Every job is a candidate: more than the scan looks at one by one.
  assert.equal(until(), firstLeaving(jobs));
  const zephyrine = jobs.filter((job) => job.description.startsWith("Zephyrine"));
  assert.equal(until("zephyrine"), firstLeaving(zephyrine));
  assert.ok(until("zephyrine") > until(), "the narrow search holds no longer than the broad one");
  assert.ok(until("zephyrine") > now);
});
