/**
 * The database's files and folder are its owner's alone, a mistyped path starts nothing, and nor
 * does a process whose clock is not the machine's.
 */
import assert from "node:assert/strict";
import { DatabaseError, openDatabase, opensFile } from "../../kv/db.ts";
import { loadConfig, seedsDemo } from "../../server/config.ts";

const mode = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

Deno.test("a new database file and its -wal and -shm are created 0600", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const path = `${folder}/site.kv`;
    const kv = await openDatabase({ DENO_KV_PATH: path });
    await kv.set(["written"], "so the -wal file exists");
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      assert.equal((await mode(file)).toString(8), "600", file);
    }
    kv.close();
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a database file others can read is made owner-only at start", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const path = `${folder}/site.kv`;
    const before = await openDatabase({ DENO_KV_PATH: path });
    await before.set(["token-signing key"], "secret");
    before.close();
    await Deno.chmod(path, 0o644);
    const kv = await openDatabase({ DENO_KV_PATH: path });
    assert.equal((await mode(path)).toString(8), "600");
    assert.equal((await kv.get(["token-signing key"])).value, "secret");
    kv.close();
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a folder other users can write to, or one that does not exist, is refused", async () => {
  const folder = await Deno.makeTempDir();
  try {
    await Deno.chmod(folder, 0o777);
    await assert.rejects(
      () => openDatabase({ DENO_KV_PATH: `${folder}/site.kv` }),
      (error) =>
        error instanceof DatabaseError && /can be written by other users/.test(error.message),
    );
    await assert.rejects(
      () => openDatabase({ DENO_KV_PATH: `${folder}/mistyped/site.kv` }),
      (error) => error instanceof DatabaseError && /folder that does not exist/.test(error.message),
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

async function start(env: Record<string, string>, wrapper: string[] = []) {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const [command, ...args] = [...wrapper, Deno.execPath(), "run", "-A", main];
  const output = await new Deno.Command(command, {
    args,
    env: { PORT: "0", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("an empty DENO_KV_PATH, or one in a missing folder, stops the start with one line", async () => {
  const empty = await start({ DENO_KV_PATH: "" });
  assert.equal(empty.code, 1);
  assert.equal(
    empty.stderr,
    "Cannot start: DENO_KV_PATH is set but empty; unset it to use ./data/careeredge.kv, or name the database file\n",
  );
  const missing = await start({ DENO_KV_PATH: "/nonexistent-folder-27/careeredge.kv" });
  assert.equal(missing.code, 1);
  assert.equal(
    missing.stderr,
    "Cannot start: DENO_KV_PATH /nonexistent-folder-27/careeredge.kv is in a folder that does " +
      "not exist: /nonexistent-folder-27/\n",
  );
});

Deno.test("demo data only on the default local database, or with SEED_DEMO=true", () => {
  assert.equal(seedsDemo(loadConfig({})), true);
  assert.equal(seedsDemo(loadConfig({ DENO_KV_PATH: "/srv/careeredge/site.kv" })), false);
  assert.equal(seedsDemo(loadConfig({ DENO_KV_PATH: "/srv/site.kv", SEED_DEMO: "true" })), true);
  assert.equal(seedsDemo(loadConfig({ SEED_DEMO: "false" })), false);
});

Deno.test("a process whose clock is not the machine's does not open the database, whose entries its clock would expire", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const path = `${folder}/site.kv`;
    {
      using kv = await openDatabase({ DENO_KV_PATH: path });
      await kv.set(["session"], "signed in for an hour", { expireIn: 3_600_000 });
    }
    const env = { DENO_KV_PATH: path, SEED_DEMO: "false" };
    for (
      const [offset, words] of [["+8d", "about 11,520 minutes ahead of"], [
        "-2h",
        "about 120 minutes behind",
      ]]
    ) {
      const started = await start(env, ["faketime", "-f", offset]);
      assert.equal(started.code, 1, offset);
      assert.equal(
        started.stderr,
        `Cannot start: this process's clock is ${words} this machine's, and Deno KV would expire ` +
          "the database's sessions, links and records by it; start it with the machine's clock\n",
      );
    }
    // Only a process that opens the file itself is checked: over the network the database's
    // clock expires entries, and in memory nobody else has any.
    assert.equal(opensFile(env), true);
    assert.equal(opensFile({}), true, "the default database is a file");
    assert.equal(opensFile({ DENO_KV_PATH: ":memory:" }), false);
    assert.equal(opensFile({ DENO_KV_URL: "http://127.0.0.1:4512" }), false);
    // Opened by a process two hours fast, Deno KV deletes the session at once; refused, it is kept.
    using kv = await openDatabase({ DENO_KV_PATH: path });
    assert.equal((await kv.get(["session"])).value, "signed in for an hour");
    const left = [...Deno.readDirSync(folder)].map((entry) => entry.name).filter((name) =>
      name.startsWith(".clock-")
    );
    assert.deepEqual(left, [], "the clock's probe files are removed");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
