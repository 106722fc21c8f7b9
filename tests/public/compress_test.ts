/**
 * Pages, as text or as bytes, are gzipped off the request thread while other requests wait
 * (server/compress.ts), each answer to its own page, and compressed all the same when the worker
 * is gone.
 */
import assert from "node:assert/strict";
import type { Context } from "hono";
import { Compressor } from "../../server/compress.ts";

const encoder = new TextEncoder();
const request = {} as unknown as Context;

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** Runs `work` as a request answered while another request waits for the thread, as under load. */
async function underLoad<T>(compressor: Compressor, work: () => Promise<T>): Promise<T> {
  let release = () => {};
  const other = compressor.counting(request, () => new Promise((resolve) => release = resolve));
  let result: T | undefined;
  await compressor.counting(request, async () => {
    result = await work();
  });
  release();
  await other;
  return result!;
}

/** Pages of different lengths and text, so an answer given to the wrong page shows. */
const pages = Array.from(
  { length: 60 },
  (_, i) => `<p>Page ${i}: ${"Ünïcödé रोज़गार 求人 ".repeat(i * 7)}</p>`,
);

/** Every other page as text (a page made for one ask), the rest as bytes (a kept page). */
const gzipAll = (compressor: Compressor) =>
  pages.map((page, i) => compressor.gzip(i % 2 ? page : encoder.encode(page)));

Deno.test("many pages gzipped at once under load each come back as their own page", async () => {
  using compressor = new Compressor();
  const gzipped = await underLoad(compressor, () => Promise.all(gzipAll(compressor)));
  for (const [i, bytes] of gzipped.entries()) {
    assert.equal(bytes[0], 0x1f, `page ${i} is gzip`);
    assert.equal(await gunzip(bytes), pages[i]);
  }
});

Deno.test("a page answered alone is gzipped the same", async () => {
  using compressor = new Compressor();
  const gzipped = await Promise.all(gzipAll(compressor));
  for (const [i, bytes] of gzipped.entries()) assert.equal(await gunzip(bytes), pages[i]);
});

Deno.test("pages still waiting when the compressor stops are compressed all the same", async () => {
  const compressor = new Compressor();
  const gzipped = await underLoad(compressor, () => {
    const waiting = gzipAll(compressor);
    compressor[Symbol.dispose]();
    return Promise.all(waiting);
  });
  for (const [i, bytes] of gzipped.entries()) assert.equal(await gunzip(bytes), pages[i]);
});
