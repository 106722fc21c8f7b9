/**
 * The database's files and folder are its owner's alone, a mistyped path starts nothing, and nor
 * does a process whose clock is not the machine's.
 */
import assert from "node:assert/strict";
import { lchown } from "node:fs/promises";
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

/** Another local user (`nobody`), as root can play one: only there can a test own files as them. */
const NOBODY = 65534;
const asRoot = { ignore: Deno.uid() !== 0 };

/** A sticky folder all may write to, as /tmp is, and in it the files another user made first. */
async function othersFiles(names: string[]): Promise<string> {
  const folder = await Deno.makeTempDir();
  await Deno.chmod(folder, 0o1777);
  for (const name of names) {
    await Deno.writeFile(`${folder}/${name}`, new Uint8Array());
    await Deno.chmod(`${folder}/${name}`, 0o666);
    await Deno.chown(`${folder}/${name}`, NOBODY, NOBODY);
  }
  return folder;
}

const belongsToNobody = (file: string) =>
  `${file} belongs to another user (uid ${NOBODY}), who could read the database through it; ` +
  "remove it, or keep the database in a folder only this user can write to";

Deno.test({
  name: "a database file, -wal or -shm another user made first is refused, and left unread",
  ...asRoot,
}, async () => {
  for (
    const names of [["x.kv", "x.kv-wal", "x.kv-shm"], ["x.kv-wal"], ["x.kv-shm"], ["x.kv"]]
  ) {
    const folder = await othersFiles(names);
    try {
      await assert.rejects(
        () => openDatabase({ DENO_KV_PATH: `${folder}/x.kv` }),
        (error) =>
          error instanceof DatabaseError &&
          error.message === belongsToNobody(`${folder}/${names[0]}`),
        names.join(", "),
      );
      for (const name of names) {
        const info = await Deno.stat(`${folder}/${name}`);
        assert.deepEqual([info.uid, info.mode! & 0o777, info.size], [NOBODY, 0o666, 0], name);
      }
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  }
});

Deno.test({
  name: "another user's link is refused as their file is, and a link of ours is refused too",
  ...asRoot,
}, async () => {
  const folder = await othersFiles(["theirs"]);
  try {
    const path = `${folder}/x.kv`;
    await Deno.writeFile(`${folder}/mine`, new Uint8Array(), { mode: 0o600 });
    await Deno.symlink(`${folder}/mine`, `${path}-shm`);
    await lchown(`${path}-shm`, NOBODY, NOBODY);
    await assert.rejects(
      () => openDatabase({ DENO_KV_PATH: path }),
      (error) => error instanceof DatabaseError && error.message === belongsToNobody(`${path}-shm`),
    );
    // SQLite would keep the -wal and -shm beside the file a link names, where nothing checks them;
    // a -wal that is a link would hand the log to whatever it names.
    for (const [link, target] of [[path, "mine"], [`${path}-wal`, "theirs"]]) {
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        await Deno.remove(file).catch(() => {});
      }
      await Deno.symlink(`${folder}/${target}`, link);
      await assert.rejects(
        () => openDatabase({ DENO_KV_PATH: path }),
        (error) =>
          error instanceof DatabaseError &&
          error.message ===
            `${link} is a symbolic link; the database and its -wal and -shm must be plain files`,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test({
  name: "a -wal another user makes in the instant before SQLite opens it is refused too",
  ...asRoot,
}, async () => {
  const folder = await othersFiles([]);
  // As when another process of ours, the last to close the database, has just had SQLite delete
  // the -wal this one made: another user's comes in its place, and SQLite opens that.
  using _openKv = beforeOpenKv(async (path) => {
    await Deno.remove(`${path}-wal`);
    await Deno.writeFile(`${path}-wal`, new Uint8Array(), { mode: 0o666 });
    await Deno.chown(`${path}-wal`, NOBODY, NOBODY);
  });
  try {
    const path = `${folder}/x.kv`;
    // Opened again, the database meets another user's -wal each time, as it would from a user
    // making one whenever it is gone.
    await assert.rejects(
      () => openDatabase({ DENO_KV_PATH: path }),
      (error) =>
        error instanceof DatabaseError &&
        error.message ===
          `${path}-wal was replaced while the database opened (by another process of this site ` +
            "closing it, or by another user, who could read the database through it); start again",
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a database another process of this site closes in the instant this one opens it opens", async () => {
  const folder = await Deno.makeTempDir();
  const path = `${folder}/x.kv`;
  let opens = 0;
  // SQLite deletes the -wal and -shm at the last connection's close; it makes them again, ours,
  // when this process's connection opens.
  using _openKv = beforeOpenKv(async (at) => {
    if (opens++ === 0) await Promise.all([`${at}-wal`, `${at}-shm`].map((f) => Deno.remove(f)));
  });
  try {
    using kv = await openDatabase({ DENO_KV_PATH: path });
    await kv.set(["k"], "v");
    assert.equal((await kv.get(["k"])).value, "v");
    assert.equal(opens, 2);
    const names = (await Array.fromAsync(Deno.readDir(folder))).map((entry) => entry.name);
    assert.deepEqual(names.filter((name) => name.includes(".claimed-")), []);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

/**
 * Runs `before` with the path each time the database is opened, just before SQLite opens it, until
 * disposed: what another process or user does in that instant.
 */
function beforeOpenKv(before: (path: string) => Promise<void>): Disposable {
  const openKv = Object.getOwnPropertyDescriptor(Deno, "openKv")!;
  const open = Deno.openKv;
  Object.defineProperty(Deno, "openKv", {
    configurable: true,
    value: async (path: string) => {
      await before(path);
      return await open(path);
    },
  });
  return { [Symbol.dispose]: () => Object.defineProperty(Deno, "openKv", openKv) };
}

async function start(env: Record<string, string>, wrapper: string[] = []) {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const [command, ...args] = [...wrapper, Deno.execPath(), "run", "-A", main];
  const output = await new Deno.Command(command, {
    args,
    env: { PORT: "0", ...env },
    stdout: "piped",
    stderr: "piped",
    // A server that starts when it should have refused fails the test instead of holding it.
    signal: AbortSignal.timeout(60_000),
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

Deno.test({
  name: "another user's database files in a sticky folder stop the start with one line, untouched",
  ...asRoot,
}, async () => {
  const folder = await othersFiles(["x.kv", "x.kv-wal", "x.kv-shm"]);
  try {
    const started = await start({ DENO_KV_PATH: `${folder}/x.kv`, SEED_DEMO: "false" });
    assert.equal(started.code, 1);
    assert.equal(started.stderr, `Cannot start: ${belongsToNobody(`${folder}/x.kv`)}\n`);
    for (const name of ["x.kv", "x.kv-wal", "x.kv-shm"]) {
      const info = await Deno.stat(`${folder}/${name}`);
      assert.deepEqual([info.uid, info.mode! & 0o777, info.size], [NOBODY, 0o666, 0], name);
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a DENO_KV_PATH that names a folder stops the start with one line", async () => {
  const folder = await Deno.makeTempDir();
  try {
    for (const path of [folder, `${folder}/`]) {
      const started = await start({ DENO_KV_PATH: path, SEED_DEMO: "false" });
      assert.equal(started.code, 1);
      assert.equal(
        started.stderr,
        `Cannot start: DENO_KV_PATH ${path} is a folder; name a file in it, such as ` +
          `${folder}/careeredge.kv\n`,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
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
