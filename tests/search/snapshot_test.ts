/**
 * The catalogue's snapshot: a catalogue loaded from it answers every search as one built job by
 * job; a cold start from it shows exactly the current jobs after later changes; a corrupt, torn,
 * old-format or other-code snapshot is never used.
 */
import assert from "node:assert/strict";
import { ActiveCatalog } from "../../kv/jobs/catalogue.ts";
import { JobStore } from "../../kv/jobs/store.ts";
import {
  decodeSnapshot,
  encodeSnapshot,
  searchFingerprint,
  type SnapshotHead,
  writeSnapshot,
} from "../../kv/jobs/snapshot.ts";
import { keys } from "../../kv/keys.ts";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import type { Job } from "../../kv/schemas.ts";
import { COLUMN_NAMES } from "../../kv/search/index.ts";
import { FIXTURE_JOBS } from "./fixtures.ts";
import { waitFor } from "../helpers/wait.ts";
import { beforeWrites } from "../helpers/kv.ts";

const QUERIES = [
  {},
  { keywords: "engineer" },
  { keywords: "pyhton developer" },
  { keywords: "react", location: "bengaluru" },
  { keywords: "data", employmentType: "Internship" },
  { experience: "0-1" },
  { keywords: "c++" },
  { location: "remote" },
  { keywords: "sales manager", sortBy: "datePosted" as const, sortOrder: "asc" as const },
  { keywords: "java", sortBy: "companyName" as const },
];

function generated(count: number, seed = 11): Job[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => ({
    ...generateJob(random, 5_000 + i, {
      status: "active",
      datePosted: new Date(Date.UTC(2026, 2, 1, 0, i)),
      movedToDumpAt: null,
    }),
    jobId: `JB-${5_000 + i}`,
  }));
}

function answers(catalog: ActiveCatalog) {
  return QUERIES.map((query) => {
    const page = catalog.page({ page: 1, limit: 12, ...query });
    return {
      ids: page.jobs.map((job) => job._id),
      jobs: page.jobs,
      total: page.pagination.totalJobs,
      facets: page.facets,
    };
  });
}

Deno.test("a catalogue loaded from its snapshot answers every search, list and option alike", async () => {
  const built = new ActiveCatalog(42);
  for (const job of [...FIXTURE_JOBS, ...generated(400)]) built.put(job, `stamp-${job._id}`);
  // A removed and a replaced job leave dead entries in the index: the snapshot holds none.
  built.apply(FIXTURE_JOBS[0]._id, null);
  built.apply(FIXTURE_JOBS[1]._id, { ...FIXTURE_JOBS[1], role: "Renamed Role" }, "stamp-new");
  built.invalidate();

  const encoded = await encodeSnapshot(built);
  const loaded = await decodeSnapshot({
    format: 1,
    fingerprint: await searchFingerprint(),
    revision: 42,
    id: "test",
    chunks: encoded.chunks.length,
    bytes: encoded.bytes,
    sha256: encoded.sha256,
    writtenAt: new Date().toISOString(),
    previous: null,
  }, encoded.chunks);
  assert.equal(loaded.revision, 42);
  assert.deepEqual(answers(loaded), answers(built));
  assert.deepEqual(loaded.filterOptions(), built.filterOptions());
  assert.deepEqual(loaded.list("role", "asc"), built.list("role", "asc"));
  const job = built.byId.get(FIXTURE_JOBS[5]._id)!.job;
  assert.deepEqual(loaded.similar(job, 4), built.similar(job, 4));
  assert.deepEqual(
    loaded.looser({ keywords: "nothing matches zzqx", location: "" }),
    built.looser({ keywords: "nothing matches zzqx", location: "" }),
  );
  assert.equal(loaded.stampOf(FIXTURE_JOBS[1]._id), "stamp-new");
  assert.equal(loaded.idOf(FIXTURE_JOBS[0].jobId), undefined);
  assert.equal(loaded.byId.size, built.byId.size);
  // The loaded index keeps none of the decoded payload: each of its arrays owns its buffer, so
  // the payload (48 MB at 100,000 jobs) is let go once loaded.
  const index = (loaded as unknown as { index: Record<string, unknown> }).index;
  const views = Object.entries(index).filter(([, value]) => ArrayBuffer.isView(value));
  assert.ok(views.length > COLUMN_NAMES.length, `${views.length} arrays`);
  for (const [name, view] of views as [string, ArrayBufferView][]) {
    assert.equal(view.buffer.byteLength, view.byteLength, `${name} is a view on a larger buffer`);
  }
});

/** The database with every range read counted by its prefix's first part. */
function countingLists(kv: Deno.Kv, lists: Map<string, number>): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "list") {
        return (selector: { prefix?: Deno.KvKey; start?: Deno.KvKey }, options?: unknown) => {
          const first = String((selector.prefix ?? selector.start ?? [])[0]);
          lists.set(first, (lists.get(first) ?? 0) + 1);
          return target.list(selector as Deno.KvListSelector, options as Deno.KvListOptions);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A cold process on `kv`: a new store that follows, and how it read the catalogue. */
async function coldStart(kv: Deno.Kv) {
  const lists = new Map<string, number>();
  const store = new JobStore(countingLists(kv, lists), () => new Date(), { snapshotMinJobs: 1 });
  store.follow({ pollMs: 0 });
  const catalog = await store.active();
  return {
    store,
    catalog,
    /** Whether it read every active job rather than the snapshot. */
    loadedWhole: (lists.get("jobs_by_status") ?? 0) > 0,
  };
}

const everyJob = (catalog: ActiveCatalog) =>
  [...catalog.byId.values()].map(({ job }) => `${job.jobId} ${job.role} ${job.status}`).sort();

Deno.test("a cold start from a snapshot, after creates, edits and closes, shows exactly the current jobs", async () => {
  using kv = await Deno.openKv(":memory:");
  const writer = new JobStore(kv, () => new Date(), {
    snapshotMinJobs: 1,
    snapshotIntervalMs: 0,
  });
  writer.follow({ pollMs: 0 });
  const jobs = generated(300);
  let imported: Job[];
  try {
    imported = await writer.importJobs(jobs);
    await waitFor("the writer's catalogue", async () => (await writer.active()).byId.size === 300);
    // Written now, or already by the store itself after its first load: either way, of now.
    const revision = (await writer.active()).revision;
    const head = await waitFor("the snapshot", async () => {
      await writer.saveSnapshot();
      const written = (await kv.get<SnapshotHead>(keys.snapshotHead())).value;
      return written?.revision === revision && written;
    });
    assert.ok(head.chunks >= 1);
  } finally {
    // Its snapshots written: a server's store snapshots again after changes, which would swap
    // snapshots under the cold start's read below, which then (rightly) finds them torn.
    await writer.close();
  }

  // After the snapshot, by a store that writes none: new jobs, an edit, a close, a delete.
  const editor = new JobStore(kv, () => new Date());
  try {
    const created = await editor.create({
      ...jobs[0],
      role: "Zephyrine Created",
      hiringLink: "https://example.com/after",
    });
    assert.ok(created.ok);
    const { _id, jobId: _, status: __, ...input } = imported[1];
    assert.ok((await editor.update(_id, { ...input, role: "Zephyrine Edited" })).ok);
    assert.ok((await editor.setStatus(imported[2]._id, "dump")).ok);
    assert.ok(await editor.delete(imported[3]._id));

    const cold = await coldStart(kv);
    try {
      assert.equal(cold.loadedWhole, false, "the snapshot was used");
      const expected = everyJob(await editor.active({ fresh: true }));
      assert.deepEqual(everyJob(cold.catalog), expected);
      assert.ok(expected.some((line) => line.endsWith("Zephyrine Created active")));
      assert.ok(expected.some((line) => line.endsWith("Zephyrine Edited active")));
      assert.equal(cold.catalog.idOf(imported[2].jobId), undefined);
      assert.equal(cold.catalog.idOf(imported[3].jobId), undefined);
      const search = (catalog: ActiveCatalog) =>
        catalog.page({ page: 1, limit: 50, keywords: "zephyrine" }).jobs.map((job) => job.role);
      assert.deepEqual(search(cold.catalog), search(await editor.active({ fresh: true })));
      assert.deepEqual(search(cold.catalog).sort(), ["Zephyrine Created", "Zephyrine Edited"]);
    } finally {
      await cold.store.close();
    }
  } finally {
    await editor.close();
  }
});

Deno.test("a process that read the head before another wrote the snapshot, and took the lease after, writes none and fails not", async () => {
  using kv = await Deno.openKv(":memory:");
  const catalog = new ActiveCatalog(7);
  for (const job of generated(20)) catalog.put(job, `stamp-${job._id}`);
  // The late process's first write (its lease) waits until the other has written and let go.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  const late = beforeWrites(kv, () => gate);
  const lateWrite = writeSnapshot(late, catalog, new Date());
  const first = await writeSnapshot(kv, catalog, new Date());
  assert.equal(first?.revision, 7);
  open();
  assert.equal(await lateWrite, null);
  assert.equal((await kv.get<SnapshotHead>(keys.snapshotHead())).value?.id, first?.id);
  assert.equal((await kv.get(keys.snapshotLease())).value, null, "the lease is let go");
});

/** A database with 120 active jobs and a snapshot of them, for spoiling. */
async function snapshotted() {
  const kv = await Deno.openKv(":memory:");
  const writer = new JobStore(kv, () => new Date(), { snapshotMinJobs: 1 });
  await writer.importJobs(generated(120, 5));
  const catalog = await writer.active();
  assert.equal(await writer.saveSnapshot(), true);
  const head = (await kv.get<SnapshotHead>(keys.snapshotHead())).value!;
  return { kv, head, expected: everyJob(catalog) };
}

Deno.test("a corrupt, torn, old-format or other-code snapshot is found out and the catalogue loaded whole", async (t) => {
  const spoilings: [string, (kv: Deno.Kv, head: SnapshotHead) => Promise<unknown>][] = [
    ["a flipped byte", async (kv, head) => {
      const chunk = (await kv.get<Uint8Array>(keys.snapshotChunk(head.id, 0))).value!;
      chunk[Math.floor(chunk.length / 2)] ^= 0xff;
      await kv.set(keys.snapshotChunk(head.id, 0), chunk);
    }],
    ["a missing chunk", (kv, head) => kv.delete(keys.snapshotChunk(head.id, head.chunks - 1))],
    ["an older format", (kv, head) => kv.set(keys.snapshotHead(), { ...head, format: 0 })],
    ["other search code", (kv, head) => kv.set(keys.snapshotHead(), { ...head, fingerprint: "x" })],
    [
      "a head that lies about its revision",
      (kv, head) => kv.set(keys.snapshotHead(), { ...head, revision: head.revision - 1 }),
    ],
    ["a value that is not bytes", (kv, head) => kv.set(keys.snapshotChunk(head.id, 0), "text")],
  ];
  for (const [name, spoil] of spoilings) {
    await t.step(name, async () => {
      const { kv, head, expected } = await snapshotted();
      try {
        await spoil(kv, head);
        const cold = await coldStart(kv);
        try {
          assert.equal(cold.loadedWhole, true);
          assert.deepEqual(everyJob(cold.catalog), expected);
        } finally {
          await cold.store.close();
        }
      } finally {
        kv.close();
      }
    });
  }
});

Deno.test("the search code's fingerprint is the same in every process", async () => {
  const module = new URL("../../kv/jobs/snapshot.ts", import.meta.url).href;
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { searchFingerprint } from "${module}"; console.log(await searchFingerprint());`,
    ],
    stdout: "piped",
  }).output();
  assert.ok(success);
  assert.equal(new TextDecoder().decode(stdout).trim(), await searchFingerprint());
});
