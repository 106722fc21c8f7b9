/**
 * The browser build in a copy of the checkout: built once for its inputs by whichever of several
 * starts gets there first, skipped when nothing changed, and written beside the folder running
 * servers serve, which stays readable until no process serves it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTaskProcess } from "../helpers/process.ts";
import { checkoutCopy } from "../helpers/checkout.ts";

async function build(dir: string): Promise<string> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: dir,
  }).output();
  const decoder = new TextDecoder();
  assert.ok(success, decoder.decode(stderr));
  return decoder.decode(stdout);
}

async function folders(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(dir, "client/dist"))) {
    if (entry.isDirectory) names.push(entry.name);
  }
  return names.sort();
}

const current = (dir: string) =>
  Deno.readTextFile(join(dir, "client/dist/current")).then((s) => s.trim());

/** The asset URLs a page links (the stylesheet, scripts, preloads). */
async function assetUrls(base: string): Promise<string[]> {
  const html = await (await fetch(`${base}/jobs`)).text();
  const urls = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(urls.length >= 2, `the page links its assets:\n${html.slice(0, 500)}`);
  return [...new Set(urls)].map((url) => `${base}${url.replaceAll("&amp;", "&")}`);
}

async function fetchAll(urls: string[]): Promise<string[]> {
  return await Promise.all(urls.map(async (url) => {
    const response = await fetch(url);
    const body = await response.text();
    assert.equal(response.status, 200, url);
    return body;
  }));
}

Deno.test("the build: shared by starts at the same moment, skipped when unchanged, beside what is served", async (t) => {
  const dir = await checkoutCopy("careeredge-build-");
  const kvPath = join(dir, "db.sqlite");
  try {
    await t.step("three `deno task start`s at once on a fresh checkout all come up", async () => {
      const servers = await Promise.all([1, 2, 3].map(() => startTaskProcess(dir, kvPath)));
      try {
        for (const server of servers) {
          const page = await fetch(`${server.url}/`);
          assert.equal(page.status, 200);
          await page.body?.cancel();
          await fetchAll(await assetUrls(server.url));
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
      assert.deepEqual(await folders(dir), [await current(dir)], "one build");
    });

    const first = await current(dir);
    await t.step("a build with unchanged inputs changes nothing", async () => {
      const manifest = join(dir, "client/dist", first, "manifest.json");
      const before = (await Deno.stat(manifest)).mtime;
      assert.match(await build(dir), /up to date/);
      assert.equal(await current(dir), first);
      assert.deepEqual((await Deno.stat(manifest)).mtime, before);
    });

    await t.step(
      "a changed source builds beside: a running server's files stay readable",
      async () => {
        await using server = await startTaskProcess(dir, kvPath);
        const urls = await assetUrls(server.url);
        const bodies = await fetchAll(urls);
        const wake = join(dir, "client/wake.ts");
        await Deno.writeTextFile(
          wake,
          `${await Deno.readTextFile(wake)}\nconsole.debug("changed");\n`,
        );

        let building = true;
        const reads = (async () => {
          let rounds = 0;
          while (building || rounds === 0) {
            assert.deepEqual(await fetchAll(urls), bodies);
            rounds++;
          }
          return rounds;
        })();
        const output = await build(dir).finally(() => building = false);
        assert.ok(await reads > 0);
        assert.match(output, /Built \d+ assets/);
        const second = await current(dir);
        assert.notEqual(second, first);
        assert.deepEqual(await folders(dir), [first, second].sort(), "the served build is kept");
        assert.deepEqual(await fetchAll(urls), bodies);

        await using next = await startTaskProcess(dir, kvPath);
        const nextUrls = await assetUrls(next.url);
        assert.notDeepEqual(nextUrls, urls, "a new start serves the new build");
        assert.ok((await fetchAll(nextUrls)).some((body) => body.includes('"changed"')));
      },
    );

    await t.step(
      "back to earlier sources: the kept build is used again, unserved ones go",
      async () => {
        const wake = join(dir, "client/wake.ts");
        const source = await Deno.readTextFile(wake);
        await Deno.writeTextFile(wake, source.replace(`\nconsole.debug("changed");\n`, ""));
        assert.match(await build(dir), /has build/);
        assert.equal(await current(dir), first);
        assert.deepEqual(await folders(dir), [first]);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
