import { generateJob, seededRandom } from "../kv/demo/generate.ts";
import { ActiveCatalog } from "../kv/jobs/catalogue.ts";
import { SearchIndex } from "../kv/search/index.ts";
import { deserialize, serialize } from "node:v8";
const n = Number(Deno.args[0] ?? 20000);
const random = seededRandom(1);
const now = Date.now();
const cat = new ActiveCatalog(1);
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
const st = cat.exportState();
let t = performance.now();
const ser = serialize(st.index);
console.log("index ser", ser.length, (performance.now() - t).toFixed(0));
t = performance.now();
const gz = new Uint8Array(
  await new Response(new Blob([ser]).stream().pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer(),
);
console.log("gz", gz.length, (performance.now() - t).toFixed(0));
t = performance.now();
const un = new Uint8Array(
  await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")))
    .arrayBuffer(),
);
console.log("gunzip", (performance.now() - t).toFixed(0));
t = performance.now();
const ist = deserialize(un);
console.log("deser", (performance.now() - t).toFixed(0));
t = performance.now();
SearchIndex.fromState(ist);
console.log("fromState index", (performance.now() - t).toFixed(0));
t = performance.now();
const js = serialize(st.jobs);
console.log("jobs ser raw", js.length, (performance.now() - t).toFixed(0));
t = performance.now();
const c2 = new ActiveCatalog(1);
const tx = (c2 as any).texts;
for (const j of st.jobs) tx.listed(j);
console.log("listed()", (performance.now() - t).toFixed(0));
