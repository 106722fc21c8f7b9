/**
 * Pages are gzipped in the request's thread (routes/pages/cache.ts), from text or from bytes, and a
 * gzipped page is the same page as the one sent plain.
 */
import assert from "node:assert/strict";
import { gzip } from "../../routes/pages/cache.ts";
import { testApp } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

Deno.test("a page gzips to itself, as text and as bytes, multi-byte text too", async () => {
  for (let i = 0; i < 20; i++) {
    const page = `<p>Page ${i}: ${"Ünïcödé रोज़गार 求人 😀 ".repeat(i * 37)}</p>`;
    const fromText = gzip(page);
    const fromBytes = gzip(new TextEncoder().encode(page));
    assert.equal(fromText[0], 0x1f);
    assert.equal(await gunzip(fromText), page);
    assert.deepEqual(fromBytes, fromText);
  }
});

Deno.test("a page asked for gzipped is the page sent plain, at its first ask and once kept", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{ role: "Ünïcödé Engineer – रोज़गार" }, {
    role: "Ünïcödé Engineer – रोज़गार",
  }]);
  for (const path of [`/jobs/${job.jobId}`, "/jobs?keywords=engineer", "/"]) {
    for (let ask = 0; ask < 3; ask++) {
      const plain = await t.app.request(path);
      const zipped = await t.app.request(path, { headers: { "accept-encoding": "gzip, br" } });
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.equal(zipped.headers.get("content-encoding"), "gzip");
      assert.equal(zipped.headers.get("vary"), "accept-encoding");
      const html = await plain.text();
      assert.ok(html.includes("Ünïcödé Engineer – रोज़गार"), path);
      assert.equal(await gunzip(new Uint8Array(await zipped.arrayBuffer())), html, path);
    }
  }
});
