import assert from "node:assert/strict";

const cli = new URL("../../kv/cli.ts", import.meta.url).pathname;

/** Runs kv/cli.ts as `deno task` does, on the database at `kvPath`. */
async function task(kvPath: string, ...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    env: { DENO_KV_PATH: kvPath },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

async function count(kvPath: string) {
  using kv = await Deno.openKv(kvPath);
  let entries = 0;
  for await (const _ of kv.list({ prefix: [] })) entries++;
  return entries;
}

Deno.test("the seed, db:dump and db:restore tasks work on the configured database", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const source = `${folder}/source.kv`;
    const target = `${folder}/nested/target.kv`;
    const dump = `${folder}/dump.jsonl`;

    const seeded = await task(source, "seed");
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /^Seeded the demo data: \d+ jobs\.$/);
    const again = await task(source, "seed");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /has \(or had\) jobs/);

    const dumped = await task(source, "dump", dump);
    assert.equal(dumped.code, 0, dumped.stderr);
    const entries = await count(source);
    assert.equal(dumped.stderr, `Dumped ${entries} entries to ${dump}.`);

    const restored = await task(target, "restore", dump);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(restored.stderr, `Restored ${entries} entries.`);
    assert.equal(await count(target), entries);
    const refused = await task(target, "restore", dump);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not empty/);

    const wrong = await task(source, "backup");
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^Usage: /);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a bad configuration stops a task with a one-line reason", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "dump"],
    env: { DENO_KV_PATH: ":memory:", DENO_KV_URL: "https://kv.example" },
    stderr: "piped",
  }).output();
  assert.equal(output.code, 1);
  const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
  assert.equal(lines.length, 1);
  assert.match(lines[0], /DENO_KV_PATH or DENO_KV_URL/);
});
