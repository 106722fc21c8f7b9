import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { testApp } from "../helpers/server.ts";
import { assetImports, assetUrl } from "../../server/assets.ts";

Deno.test("built assets go out precompressed and, under a hashed URL or name, cached for a year", async () => {
  await using t = await testApp();
  const url = assetUrl("admin/main.js");
  assert.match(url, /^\/assets\/admin\/main\.js\?v=[0-9a-f]{12}$/);
  const plain = await t.app.request(url);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
  const original = new Uint8Array(await plain.arrayBuffer());

  const brotli = await t.app.request(url, { headers: { "accept-encoding": "gzip, br" } });
  assert.equal(brotli.headers.get("content-encoding"), "br");
  assert.match(brotli.headers.get("vary") ?? "", /Accept-Encoding/i);
  const compressed = new Uint8Array(await brotli.arrayBuffer());
  assert.ok(compressed.length < original.length / 2);
  assert.deepEqual(new Uint8Array(brotliDecompressSync(compressed)), original);

  const gzip = await t.app.request(url, { headers: { "accept-encoding": "gzip" } });
  assert.equal(gzip.headers.get("content-encoding"), "gzip");
  assert.deepEqual(new Uint8Array(gunzipSync(new Uint8Array(await gzip.arrayBuffer()))), original);

  // A shared chunk is asked for by its content-hashed name, as an island script imports it.
  const chunk = assetImports("islands/share.js").find((url) =>
    /\/chunk-[A-Z0-9]{8}\.js$/.test(url)
  );
  assert.ok(chunk, "the share island imports a shared chunk");
  const imported = await t.app.request(chunk);
  assert.equal(imported.status, 200);
  assert.equal(imported.headers.get("cache-control"), "public, max-age=31536000, immutable");

  const unhashed = await t.app.request("/assets/styles.css");
  assert.equal(unhashed.headers.get("cache-control"), "public, max-age=300");
  assert.equal((await t.app.request("/assets/missing.js")).status, 404);
});
