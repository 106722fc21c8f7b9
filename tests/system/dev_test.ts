/**
 * The dev loop: `deno task dev` in a copy of the checkout serves pages that live-reload; a change
 * to a stylesheet or an island reaches the served build and the reload stream, remaking only what
 * it reaches, and a change made while the loop was stopped is built when it starts. In production
 * mode (how the tests run) there is neither the reload route (its path is answered as
 * any unknown path) nor its script.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { testApp } from "../helpers/server.ts";
import { checkoutCopy } from "../helpers/checkout.ts";
import { waitFor } from "../helpers/wait.ts";
import { partsFor } from "../../server/build-inputs.ts";

/** Generous: the first build of a fresh copy, on a loaded machine. */
const START_DEADLINE_MS = 180_000;
const CHANGE_DEADLINE_MS = 60_000;

Deno.test("in production mode there is no reload route and no reload script", async () => {
  await using server = await testApp();
  // Answered as any unknown path is (the site sends those home).
  const unknown = await server.app.request("/no-such-page/at-all");
  await unknown.body?.cancel();
  assert.equal(unknown.status, 302);
  for (const path of ["/_dev/reload", "/_dev/reload.js"]) {
    const response = await server.app.request(path);
    await response.body?.cancel();
    assert.equal(response.status, unknown.status, path);
    assert.equal(response.headers.get("location"), unknown.headers.get("location"), path);
    assert.doesNotMatch(response.headers.get("content-type") ?? "", /event-stream|javascript/);
  }
  for (const path of ["/", "/jobs", "/admin/login", "/admin/jobs"]) {
    const response = await server.app.request(path);
    assert.equal(response.status, 200, path);
    const html = await response.text();
    assert.match(html, /<script type="module"|<link rel="stylesheet"/, path);
    assert.doesNotMatch(html, /_dev\//, path);
  }
});

Deno.test("a change remakes only the parts of the browser build it can reach", () => {
  const scripts = {
    islands: new Set([
      "client/islands/save.tsx",
      "client/components/dates.ts",
      "kv/jobs/fields.ts",
    ]),
    admin: new Set(["client/admin/main.tsx", "client/components/dates.ts"]),
  };
  const parts = (...paths: string[]) => [...partsFor(paths, scripts)].sort();
  assert.deepEqual(parts("client/public.css"), ["styles"]);
  assert.deepEqual(parts("client/islands/save.tsx"), ["islands", "styles"]);
  assert.deepEqual(parts("client/admin/main.tsx"), ["admin", "styles"]);
  assert.deepEqual(parts("client/components/dates.ts"), ["admin", "islands", "styles"]);
  assert.deepEqual(parts("routes/pages/home.tsx"), ["styles"]);
  assert.deepEqual(parts("kv/jobs/fields.ts"), ["islands"]);
  assert.deepEqual(parts("server/app.ts", "main.ts"), []);
});

interface Heard {
  /** The first message: the server's build and start ids. */
  data: string;
  /** Whether the server has ended the stream (or the connection broke). */
  ended(): boolean;
  close(): Promise<void>;
}

async function listen(base: string): Promise<Heard> {
  const response = await fetch(`${base}/_dev/reload`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let data: string | undefined;
  while (data === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before a message: ${text}`);
    text += value;
    data = text.match(/^data: (.+)$/m)?.[1];
  }
  let ended = false;
  (async () => {
    while (!(await reader.read()).done) { /* comments that keep it open */ }
  })().catch(() => {}).finally(() => ended = true);
  return { data, ended: () => ended, close: () => reader.cancel().catch(() => {}) };
}

/** The first reload message of a server other than the one `before` heard: a restart's. */
function reloaded(base: string, before: Heard, what: string): Promise<Heard> {
  return waitFor(
    what,
    () => listen(base).then((heard) => heard.data !== before.data && heard, () => undefined),
    CHANGE_DEADLINE_MS,
  );
}

async function stylesheet(base: string): Promise<string> {
  const html = await (await fetch(`${base}/jobs`)).text();
  const href = html.match(/<link rel="stylesheet" href="([^"]+)"/)?.[1];
  assert.ok(href, "the page links its stylesheet");
  return await (await fetch(`${base}${href.replaceAll("&amp;", "&")}`)).text();
}

function freePort(): number {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** `deno task dev` in `dir`, serving `base`; `stop` ends it whole. */
function startDev(dir: string, base: string) {
  // In a session of its own, so that its process group (the task, the loop, the server) can be
  // stopped whole.
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "task", "dev"],
    cwd: dir,
    env: {
      PORT: new URL(base).port,
      DENO_KV_PATH: ":memory:",
      SEED_DEMO: "false",
      JWT_SECRET: "dev-test-secret-dev-test-secret-dev-0123",
      MAIN_ADMIN_SECRET: "dev-test-main-admin-secret",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  const drain = (stream: ReadableStream<Uint8Array<ArrayBuffer>>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (text) => void (log += text) }),
    );
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  return {
    log: () => log,
    /** The first reload message of its server. */
    started: () =>
      waitFor(
        "the dev server's reload stream",
        () => listen(base).catch(() => undefined),
        START_DEADLINE_MS,
      ).catch((error) => Promise.reject(new Error(`${error.message}\n${log}`))),
    async stop() {
      try {
        Deno.kill(-child.pid, "SIGTERM");
      } catch { /* the group is gone */ }
      await child.status;
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch { /* every process of it stopped */ }
      await drained;
    },
  };
}

/** Adds a line to a source file of the copy. */
async function append(dir: string, path: string, line: string) {
  const file = join(dir, path);
  await Deno.writeTextFile(file, `${await Deno.readTextFile(file)}\n${line}\n`);
}

Deno.test("deno task dev rebuilds what a change reaches and the open page hears of it", async () => {
  const dir = await checkoutCopy("careeredge-dev-");
  const base = `http://localhost:${freePort()}`;
  let dev = startDev(dir, base);
  try {
    const first = await dev.started();
    assert.doesNotMatch(await stylesheet(base), /dev-loop-probe/);

    await append(dir, "client/public.css", ".dev-loop-probe { color: rebeccapurple; }");
    await waitFor("the old server's stream to end", first.ended, CHANGE_DEADLINE_MS);
    const next = await reloaded(base, first, "a reload message naming a new build and start");
    assert.notEqual(next.data.split(" ")[0], first.data.split(" ")[0], "a new build");
    assert.match(await stylesheet(base), /\.dev-loop-probe/);
    assert.match(dev.log(), /Dev build in \d+ ms/);

    // An island's change remakes the public pages' scripts; the admin app's are the files of the
    // build before, linked.
    const builtFile = (heard: Heard, file: string) =>
      join(dir, "client/dist", heard.data.split(" ")[0], file);
    const adminBefore = await Deno.stat(builtFile(next, "admin/login.js"));
    await append(
      dir,
      "client/islands/hero-search.tsx",
      `export const devLoopProbe = "dev-loop-island-probe";`,
    );
    await waitFor("the second server's stream to end", next.ended, CHANGE_DEADLINE_MS);
    const third = await reloaded(base, next, "a reload message naming the island's build");
    await next.close();
    assert.match(
      await Deno.readTextFile(builtFile(third, "islands/hero-search.js")),
      /dev-loop-island-probe/,
    );
    const adminAfter = await Deno.stat(builtFile(third, "admin/login.js"));
    assert.equal(adminAfter.ino, adminBefore.ino, "the admin app's script is linked, not remade");
    await third.close();

    // A change that does not compile says where, and the server before keeps serving.
    const island = join(dir, "client/islands/hero-search.tsx");
    const source = await Deno.readTextFile(island);
    await Deno.writeTextFile(island, `${source}\nexport const broken = ;\n`);
    await waitFor(
      "the loop to say the build failed",
      () => /Dev build failed[^\n]*\n[^\n]*hero-search\.tsx:\d+/.test(dev.log()),
      CHANGE_DEADLINE_MS,
    );
    const kept = await listen(base);
    await kept.close();
    assert.equal(kept.data, third.data, "the same server, on the same build");
    await Deno.writeTextFile(island, source);
    const fixed = await reloaded(base, third, "a reload message once it compiles again");
    await fixed.close();

    // Server code that does not compile: the server before keeps serving, until it is mended.
    const serverFile = join(dir, "server/security.ts");
    const serverSource = await Deno.readTextFile(serverFile);
    await Deno.writeTextFile(serverFile, `${serverSource}\nexport const broken = ;\n`);
    await waitFor(
      "the loop to say the server code does not start",
      () =>
        /Changed: server\/security\.ts[^]*The changed server code does not start/.test(dev.log()),
      CHANGE_DEADLINE_MS,
    );
    assert.match(dev.log(), /security\.ts:\d+/);
    const serving = await listen(base);
    await serving.close();
    assert.equal(serving.data, fixed.data, "the same server still answers");
    await Deno.writeTextFile(serverFile, serverSource);
    const mended = await reloaded(base, fixed, "a reload message once the server code starts");
    await mended.close();

    // A new island gets its script, beside the others.
    await Deno.writeTextFile(
      join(dir, "client/islands/dev-loop-probe.tsx"),
      `export function DevLoopProbe() {\n  return <p>dev-loop-new-island</p>;\n}\n`,
    );
    const added = await reloaded(base, mended, "a reload message naming the new island's build");
    await added.close();
    assert.match(
      await Deno.readTextFile(builtFile(added, "islands/dev-loop-probe.js")),
      /dev-loop-new-island/,
    );
    assert.match(
      await Deno.readTextFile(builtFile(added, "islands/hero-search.js")),
      /dev-loop-island-probe/,
    );

    // A change made while the loop was stopped is built whole when it starts again.
    await dev.stop();
    await append(dir, "client/admin/login.tsx", `console.debug("dev-loop-admin-probe");`);
    dev = startDev(dir, base);
    const restarted = await dev.started();
    await restarted.close();
    assert.match(
      await Deno.readTextFile(builtFile(restarted, "admin/login.js")),
      /dev-loop-admin-probe/,
    );
  } finally {
    await dev.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
