import { dirname } from "node:path";
import { KV_CONNECT_TOKEN, startKvConnect } from "./kv-connect.ts";
import { TEST_KV_CONNECT } from "./kv.ts";

/** Runs the database tasks (server/cli.ts) as their own process, as `deno task` does. */
export const cli = new URL("../../server/cli.ts", import.meta.url).pathname;

/**
 * Runs server/cli.ts as `deno task` does, on the database at `kvPath`: with TEST_KV=connect through
 * a KV Connect endpoint serving that file (DENO_KV_URL), so the task meets denokv's limits.
 */
export async function task(kvPath: string, ...args: string[]) {
  // A denokv server needs its file's folder to exist; the task itself creates it only for a path.
  if (TEST_KV_CONNECT) await Deno.mkdir(dirname(kvPath), { recursive: true });
  await using endpoint = TEST_KV_CONNECT ? startKvConnect({ path: kvPath }) : undefined;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    env: endpoint
      ? { DENO_KV_URL: endpoint.url, DENO_KV_ACCESS_TOKEN: KV_CONNECT_TOKEN }
      : { DENO_KV_PATH: kvPath },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}
