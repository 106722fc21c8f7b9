/** Runs the database tasks (server/cli.ts) as their own process, as `deno task` does. */
export const cli = new URL("../../server/cli.ts", import.meta.url).pathname;

/** Runs server/cli.ts as `deno task` does, on the database at `kvPath`. */
export async function task(kvPath: string, ...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    env: { DENO_KV_PATH: kvPath },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}
