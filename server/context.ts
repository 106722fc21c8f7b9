/** What every request handler can reach: the stores, the configuration and the clock. */
import type { Config } from "./config.ts";
import type { JobStore } from "../kv/jobs.ts";
import type { Admin } from "../kv/schemas.ts";

export interface Services {
  kv: Deno.Kv;
  config: Config;
  /** The clock; tests replace it to move through days. */
  now: () => Date;
  jobs: JobStore;
}

export interface AppEnv {
  Variables: {
    /** The signed-in admin, set by the auth middleware. */
    admin: Admin;
    /** The session id (`jti`) of the admin's token. */
    sessionId: string;
  };
}
