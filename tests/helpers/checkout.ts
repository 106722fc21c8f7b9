/** A copy of the checkout in a temporary folder, for tests that build or watch files in it. */
import assert from "node:assert/strict";
import { join } from "node:path";

const worktree = new URL("../../", import.meta.url).pathname;
/** What `deno task start` and `deno task dev` need of a checkout. */
const COPIED = ["client", "routes", "kv", "server", "main.ts", "deno.json", "deno.lock"];

/** The copy's folder, without a browser build; it shares this checkout's node_modules. */
export async function checkoutCopy(prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  for (const name of COPIED) {
    const { success } = await new Deno.Command("cp", { args: ["-r", join(worktree, name), dir] })
      .output();
    assert.ok(success, `copying ${name}`);
  }
  await Deno.remove(join(dir, "client/dist"), { recursive: true }).catch(() => {});
  await Deno.remove(join(dir, "client/.islands"), { recursive: true }).catch(() => {});
  await Deno.symlink(join(worktree, "node_modules"), join(dir, "node_modules"));
  return dir;
}
