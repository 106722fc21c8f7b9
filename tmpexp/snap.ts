import { generateJob, seededRandom } from "../kv/demo/generate.ts";
import { ActiveCatalog } from "../kv/jobs/catalogue.ts";
import { decodeSnapshot, encodeSnapshot, searchFingerprint } from "../kv/jobs/snapshot.ts";
const n = Number(Deno.args[0] ?? 20000);
const random = seededRandom(1);
const now = Date.now();
const cat = new ActiveCatalog(1);
let t = performance.now();
for (let i = 0; i < n; i++) {
  cat.put(
    {
      ...generateJob(random, i + 1, {
        status: "active",
        datePosted: new Date(now - random() * 6 * 864e5),
        movedToDumpAt: null,
      }),
      jobId: `JB-${1000 + i}`,
    } as any,
    "00000000000000000001",
  );
}
console.log("build", (performance.now() - t).toFixed(0));
t = performance.now();
const enc = await encodeSnapshot(cat);
console.log(
  "encode",
  (performance.now() - t).toFixed(0),
  "ms",
  enc.bytes,
  "bytes",
  enc.chunks.length,
  "chunks",
);
t = performance.now();
const back = await decodeSnapshot({
  format: 1,
  fingerprint: await searchFingerprint(),
  revision: 1,
  id: "x",
  chunks: enc.chunks.length,
  bytes: enc.bytes,
  sha256: enc.sha256,
  writtenAt: "",
  previous: null,
}, enc.chunks);
console.log("decode", (performance.now() - t).toFixed(0), "ms", back.byId.size);
t = performance.now();
console.log(
  back.page({ page: 1, limit: 12, keywords: "python engineer" }).pagination.totalJobs,
  cat.page({ page: 1, limit: 12, keywords: "python engineer" }).pagination.totalJobs,
  (performance.now() - t).toFixed(0),
);
