import assert from "node:assert/strict";
import { keys } from "../../kv/keys.ts";
import { cli, task } from "../helpers/cli.ts";
import { TEST_KV_CONNECT } from "../helpers/kv.ts";

const shortLived = new Set(keys.shortLivedTables().map(([table]) => table));

/** The entries a dump holds: all but the tables that live two days at most (the job change log). */
async function count(kvPath: string) {
  using kv = await Deno.openKv(kvPath);
  let entries = 0;
  for await (const entry of kv.list({ prefix: [] })) {
    if (!shortLived.has(entry.key[0])) entries++;
  }
  return entries;
}

Deno.test("the seed, db:dump and db:restore tasks work on the configured database", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const source = `${folder}/source.kv`;
    await Deno.mkdir(`${folder}/nested`);
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

Deno.test("db:dump writes a file only its owner can read, also over a file that was open to all", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const source = `${folder}/source.kv`;
    {
      using kv = await Deno.openKv(source);
      await kv.set(keys.config("jwt_secret"), "signing-key-signing-key-signing-key-0123");
      await kv.set(keys.session("a-live-session"), { adminId: "a" });
      await kv.set(["admins", "a"], { username: "Main Admin" });
    }
    const dump = `${folder}/dump.jsonl`;
    await Deno.writeTextFile(dump, "an old dump\n", { mode: 0o644 });
    await Deno.chmod(dump, 0o644);

    const dumped = await task(source, "dump", dump);
    assert.equal(dumped.code, 0, dumped.stderr);
    // The database file the test made with the usual umask is made owner-only first, as it says
    // (by a task that opens the file itself; through an endpoint the file is the endpoint's); its
    // -wal and -shm, gone when the test closed it, are made anew owner-only.
    const madePrivate = TEST_KV_CONNECT ? "" : `Made ${source} owner-only (was 0644, now 0600)\n`;
    assert.equal(dumped.stderr, madePrivate + `Dumped 1 entries to ${dump}.`);
    assert.equal((await Deno.stat(dump)).mode! & 0o777, 0o600);
    const text = await Deno.readTextFile(dump);
    assert.ok(!text.includes("signing-key") && !text.includes("a-live-session"), text);
    assert.ok(text.includes("Main Admin"));
    // Nothing else is left in the folder (the dump goes through a temporary file).
    const names = [];
    for await (const entry of Deno.readDir(folder)) names.push(entry.name);
    assert.deepEqual(names.filter((name) => name.startsWith(".dump-")), []);

    const secret = `${folder}/secret.jsonl`;
    const withSecrets = await task(source, "dump", "--with-secrets", secret);
    assert.equal(withSecrets.code, 0, withSecrets.stderr);
    assert.equal(
      withSecrets.stderr,
      `Dumped 3 entries to ${secret}, with the signing key and sessions.`,
    );
    assert.equal((await Deno.stat(secret)).mode! & 0o777, 0o600);
    assert.ok((await Deno.readTextFile(secret)).includes("signing-key"));

    // Job alerts are left out, and the task says so; asked for, the dump says it holds personal data.
    {
      using kv = await Deno.openKv(source);
      await kv.set(keys.alertAddress("subscriber@example.com"), { alertIds: ["a1"] });
    }
    const left = await task(source, "dump", dump);
    assert.equal(left.code, 0, left.stderr);
    assert.ok(!(await Deno.readTextFile(dump)).includes("subscriber@example.com"));
    assert.match(
      left.stderr,
      /\nLeft out the job alerts \(1 entries: subscribers' e-mail addresses\); a database restored from this dump has none\. `--with-alerts` keeps them\.$/,
    );
    const personal = `${folder}/personal.jsonl`;
    const withAlerts = await task(source, "dump", "--with-alerts", "--with-secrets", personal);
    assert.equal(withAlerts.code, 0, withAlerts.stderr);
    assert.equal(
      withAlerts.stderr,
      `Dumped 4 entries to ${personal}, with the signing key and sessions.\n` +
        "This dump holds personal data: the e-mail addresses and searches of job alert subscribers. Keep it as safe as the database, and delete it when it is no longer needed.",
    );
    assert.equal((await Deno.stat(personal)).mode! & 0o777, 0o600);
    assert.ok((await Deno.readTextFile(personal)).includes("subscriber@example.com"));

    const twice = await task(source, "dump", "--with-alerts", "--with-alerts", dump);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /^Usage: /);
    const wrong = await task(source, "dump", "--with-secret", dump);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^Usage: /);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("after a failed restore the server and the seed task refuse the database; a rerun finishes it", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const target = `${folder}/target.kv`;
    const good = `${folder}/good.jsonl`;
    const lines = Array.from(
      { length: 3_000 },
      (_, i) =>
        JSON.stringify({
          key: ["jobs_by_link", `https://example.com/${i}/${"x".repeat(200)}`],
          value: `${i}`,
        }),
    );
    await Deno.writeTextFile(good, lines.join("\n") + "\n");
    const broken = `${folder}/broken.jsonl`;
    await Deno.writeTextFile(broken, lines.slice(0, 2_000).join("\n") + "\n{cut off\n");

    const failed = await task(target, "restore", broken);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /^Line 2001 is not a dump entry/);
    assert.ok(await count(target) > 1);

    const server = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname],
      env: { DENO_KV_PATH: target, PORT: "0", SEED_DEMO: "false" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(server.code, 1);
    // After the lines making the file owner-only where an endpoint had made it.
    assert.match(
      new TextDecoder().decode(server.stderr),
      /^Cannot start: a restore into this database has not finished; run `deno task db:restore` again/m,
    );
    const seed = await task(target, "seed");
    assert.equal(seed.code, 1);
    assert.match(seed.stderr, /^Cannot seed: a restore into this database has not finished/);

    const rerun = await task(target, "restore", good);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(rerun.stderr, "Restored 3000 entries (finished an earlier restore).");
    assert.equal(await count(target), 3_000);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
