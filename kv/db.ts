/**
 * The only place that opens Deno KV: DENO_KV_PATH, else DENO_KV_URL, else the database Deno Deploy
 * provisions for the app when running there, else ./data/careeredge.kv.
 */

export const DEFAULT_KV_PATH = "./data/careeredge.kv";

/** Where the database is, as the configuration names it. */
export interface DatabaseLocation {
  DENO_KV_PATH?: string;
  DENO_KV_URL?: string;
  DENO_KV_ACCESS_TOKEN?: string;
}

export async function openDatabase(config: DatabaseLocation): Promise<Deno.Kv> {
  if (config.DENO_KV_URL) {
    // Deno's remote KV client reads its token from this variable.
    Deno.env.set("DENO_KV_ACCESS_TOKEN", config.DENO_KV_ACCESS_TOKEN ?? "");
    return await Deno.openKv(config.DENO_KV_URL);
  }
  if (!config.DENO_KV_PATH && Deno.env.get("DENO_DEPLOYMENT_ID")) return await Deno.openKv();
  const path = config.DENO_KV_PATH ?? DEFAULT_KV_PATH;
  if (path !== ":memory:") {
    const folder = path.replace(/[^/]*$/, "");
    if (folder) await Deno.mkdir(folder, { recursive: true });
  }
  return retryBusyCommits(await Deno.openKv(path));
}

/**
 * A database file shared by several processes answers a commit that raced another process's write
 * (any atomic operation with a check) with SQLite's "database is locked". Nothing was written, so
 * the same operation is committed again: its checks then decide, as they would have.
 */
function retryBusyCommits(kv: Deno.Kv): Deno.Kv {
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      for (let attempt = 1;; attempt++) {
        try {
          return await commit();
        } catch (error) {
          const busy = error instanceof TypeError && error.message === "database is locked";
          if (!busy || attempt >= 200) throw error;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.random() * Math.min(20, attempt))
          );
        }
      }
    };
    return op;
  };
  return kv;
}
