/**
 * The KV Connect test endpoint (tests/helpers/kv-connect.ts) is a real remote Deno KV: Deno's own
 * client speaks to it from this process and from another, it refuses what self-hosted denokv
 * refuses with denokv's status and text, it pushes changes to a watch, and the app works on it.
 */
import assert from "node:assert/strict";
import { KV_CONNECT_TOKEN, openKvConnect, startKvConnect } from "../helpers/kv-connect.ts";
import { asMain } from "../helpers/admins.ts";
import { sampleJob, testApp } from "../helpers/server.ts";
import { cli } from "../helpers/cli.ts";
import { keys } from "../../kv/keys.ts";
import type { BulkResult } from "../../kv/jobs/bulk.ts";

Deno.test("reads and writes go through the endpoint with versionstamps, checks and sums", async () => {
  await using remote = await openKvConnect();
  const { kv, endpoint } = remote;
  const first = await kv.set(["job", 1], { role: "Engineer", at: new Date(0) });
  assert.ok(first.ok);
  await kv.set(["job", 2], new Uint8Array([1, 2, 3]));
  await kv.set(["job", 3], "three");
  await kv.set(["other"], 1);

  const one = await kv.get(["job", 1]);
  assert.deepEqual(one.value, { role: "Engineer", at: new Date(0) });
  assert.equal(one.versionstamp, first.versionstamp);
  const keysOf = async (options: Deno.KvListOptions) =>
    (await Array.fromAsync(kv.list({ prefix: ["job"] }, options))).map((entry) => entry.key);
  assert.deepEqual(await keysOf({}), [["job", 1], ["job", 2], ["job", 3]]);
  assert.deepEqual(await keysOf({ reverse: true, limit: 2 }), [["job", 3], ["job", 2]]);
  assert.deepEqual(await keysOf({ batchSize: 1 }), [["job", 1], ["job", 2], ["job", 3]]);
  assert.deepEqual((await kv.get(["job", 2])).value, new Uint8Array([1, 2, 3]));

  const stale = await kv.atomic().check(one).set(["job", 1], "changed").commit();
  assert.ok(stale.ok);
  assert.ok(stale.versionstamp > first.versionstamp);
  const lost = await kv.atomic().check(one).set(["job", 1], "lost").commit();
  assert.equal(lost.ok, false);
  assert.equal((await kv.get(["job", 1])).value, "changed");

  await kv.atomic().sum(["count"], 5n).commit();
  await kv.atomic().sum(["count"], 7n).commit();
  assert.equal((await kv.get<Deno.KvU64>(["count"])).value?.value, 12n);
  await kv.delete(["other"]);
  assert.equal((await kv.get(["other"])).versionstamp, null);
  assert.ok((endpoint.answers.get("snapshot_read 200") ?? 0) > 0);
  assert.ok((endpoint.answers.get("atomic_write 200") ?? 0) > 0);
});

Deno.test("a commit with 11 checks is refused as denokv refuses it; 10 pass", async () => {
  await using remote = await openKvConnect();
  const { kv, endpoint } = remote;
  const withChecks = (count: number) => {
    const op = kv.atomic();
    for (let i = 0; i < count; i++) op.check({ key: ["check", i], versionstamp: null });
    return op.set(["done", count], true).commit();
  };
  assert.ok((await withChecks(10)).ok);
  await assert.rejects(withChecks(11), /status=400.*Too many checks included in atomic write\./);
  assert.equal(endpoint.answers.get("atomic_write 400"), 1);
  assert.equal((await kv.get(["done", 11])).versionstamp, null);
});

Deno.test("the endpoint answers bad requests with denokv's statuses", async () => {
  await using endpoint = startKvConnect();
  const post = (path: string, headers: Record<string, string>, body?: BodyInit) =>
    fetch(`${endpoint.url}${path}`, { method: "POST", headers, body });
  const json = { "content-type": "application/json" };
  const bearer = { authorization: `Bearer ${KV_CONNECT_TOKEN}` };
  const answer = async (response: Response) => [response.status, await response.text()];

  assert.deepEqual(
    await answer(await post("/", { ...json, authorization: "Bearer wrong" }, "{}")),
    [
      400,
      "The server could not negotiate a protocol version. The server requires protocol version 2 or 3.",
    ],
  );
  const wrongToken = { ...json, authorization: "Bearer wrong-token-123" };
  assert.deepEqual(
    await answer(await post("/", wrongToken, '{"supportedVersions":[3]}')),
    [401, "Invalid access token."],
  );
  const exchange = await post("/", { ...json, ...bearer }, '{"supportedVersions":[1,2,3]}');
  const metadata = await exchange.json();
  assert.equal(metadata.version, 3);
  assert.deepEqual(metadata.endpoints, [{ url: "/v2", consistency: "strong" }]);

  const dataPath = {
    ...bearer,
    "x-denokv-version": "3",
    "x-denokv-database-id": metadata.databaseId,
  };
  assert.deepEqual(await answer(await post("/v2/snapshot_read", bearer)), [
    400,
    "Expected protocol version 2.",
  ]);
  // Eleven ReadRange messages, each with limit 1 (field 3): one more range than denokv reads.
  const range = [0x0a, 0x02, 0x18, 0x01];
  const elevenRanges = new Uint8Array(Array.from({ length: 11 }, () => range).flat());
  assert.deepEqual(await answer(await post("/v2/snapshot_read", dataPath, elevenRanges)), [
    400,
    "Too many read ranges requested in one read request.",
  ]);
  // Eleven WatchKey messages: denokv watches at most ten keys.
  const elevenKeys = new Uint8Array(
    Array.from({ length: 11 }, () => [0x0a, 0x03, 0x0a, 0x01, 0x02]).flat(),
  );
  assert.deepEqual(await answer(await post("/v2/watch", dataPath, elevenKeys)), [
    400,
    "Too many keys watched in a single watch request.",
  ]);
  assert.deepEqual(await answer(await post("/v2/nothing", dataPath)), [404, "Resource not found."]);
});

Deno.test("a watch through the endpoint sees each change", async () => {
  await using remote = await openKvConnect();
  const { kv } = remote;
  const stream = kv.watch([["watched"]]);
  const reader = stream.getReader();
  assert.equal((await reader.read()).value?.[0].versionstamp, null);
  await kv.set(["watched"], "first");
  assert.equal((await reader.read()).value?.[0].value, "first");
  await kv.set(["watched"], "second");
  assert.equal((await reader.read()).value?.[0].value, "second");
  await reader.cancel();
});

Deno.test("a watch stream the endpoint breaks is taken up again by Deno's client", async () => {
  await using remote = await openKvConnect();
  const { kv, endpoint } = remote;
  const reader = kv.watch([["watched"]]).getReader();
  assert.equal((await reader.read()).value?.[0].versionstamp, null);
  endpoint.breakWatches();
  await kv.set(["watched"], "after the break");
  // The client reconnects after a short back-off; its first answer is the current value.
  assert.equal((await reader.read()).value?.[0].value, "after the break");
  assert.equal(endpoint.answers.get("watch 200"), 2);
  await reader.cancel();
});

Deno.test("another process works on the endpoint through DENO_KV_URL: the demo seed", async () => {
  await using remote = await openKvConnect();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "seed"],
    env: { DENO_KV_URL: remote.endpoint.url, DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const seeded = Number(stdout.match(/(\d+) jobs/)?.[1]);
  assert.ok(seeded > 0, stdout);
  const jobs = await Array.fromAsync(remote.kv.list({ prefix: keys.jobs() }));
  assert.equal(jobs.length, seeded);
});

Deno.test("a bulk upload of 200 jobs through the app succeeds on the endpoint", async () => {
  await using t = await testApp({ kvConnect: true });
  const rows = Array.from({ length: 200 }, (_, i) => sampleJob({ role: `Bulk Role ${i}` }));
  const answer = await asMain(t, "POST", "/api/jobs/bulk", { jobs: rows });
  assert.equal(answer.status, 201, JSON.stringify(answer.body).slice(0, 500));
  const body = answer.body as BulkResult & { summary: unknown };
  assert.deepEqual(body.summary, { created: 200, duplicates: 0, errors: 0 });
  assert.equal((await t.services.jobs.statusCounts()).all, 200);
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: keys.jobs() }))).length, 200);
});
