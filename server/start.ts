/**
 * Starting CareerEdge: configuration, KV, the services and the app, demo data on an empty
 * database, the hourly lifecycle's work, and listening with a graceful stop. main.ts runs it under
 * `deno run` (it listens itself on PORT) and under `deno serve [--parallel]` (Deno listens and
 * each worker, one per core, runs main.ts and answers with its default export).
 */
import { ConfigError, loadConfig, seedsDemo } from "./config.ts";
import { DatabaseError, openDatabase, opensFile } from "../kv/db.ts";
import { createApp, createServices } from "./app.ts";
import type { Services } from "./context.ts";
import type { Config } from "./config.ts";
import { DEMO_ANALYTICS_DAYS, seedDemoIfEmpty } from "../kv/seed.ts";
import { SYSTEM_ACTOR } from "../kv/activity.ts";
import { RESTORE_UNFINISHED, restoreUnfinished } from "../kv/backup.ts";
import { mailsSent } from "./mail.ts";
import { sendDigests } from "./digests.ts";
import { closeLiveReloads, handedOver } from "./live-reload.ts";
import { dayStartMinute } from "../kv/days.ts";

/** How long a stop under `deno serve` waits for the rest (a KV watch, say) before it exits. */
const STOP_GRACE_MS = 10_000;

export interface CareerEdge {
  config: Config;
  services: Services;
  /** Aborted when the server stops: what runs in the background (its crons) ends with it. */
  stopSignal: AbortSignal;
  /**
   * The hourly job lifecycle. Every process, and every worker of `deno serve --parallel`, runs it;
   * each job still moves exactly once (kv/jobs/lifecycle.ts).
   */
  lifecycle(): Promise<void>;
  /** The job alert digests that are due (every quarter hour; each goes once across processes). */
  digests(): Promise<void>;
  /** Packs the insight reports' past days not packed yet (hourly; see InsightReports). */
  packAnalytics(): Promise<void>;
  /**
   * The hourly crons' schedules: the lifecycle on the minute days begin in TIMEZONE, so a job
   * whose last day has ended leaves at once (30 minutes past each hour in India), and the
   * packing of past days half an hour off it.
   */
  hourly: { lifecycle: string; packAnalytics: string };
  /** Whether Deno serves the default export (`deno serve`) rather than `listen`. */
  servedByDeno: boolean;
  /** Answers a request; under `deno serve` it also keeps count of those in flight. */
  fetch: Deno.ServeHandler;
  /** Prints where it runs and, until a main admin exists, how to make one. */
  listening(address: Deno.Addr): void;
  /**
   * Listens on PORT itself (under `deno run`), in a server the dev loop started ahead once it is
   * handed the port; SIGINT and SIGTERM stop it gracefully.
   */
  listen(): Promise<void>;
}

/**
 * Whether Deno serves this process's main module's default export (`deno serve`). Deno offers no
 * flag for it and `import.meta.main` is true both ways, so the process's command line tells (on
 * Linux; elsewhere, and on Deno Deploy, the app listens itself).
 */
export function servedByDeno(): boolean {
  try {
    const args = Deno.readTextFileSync("/proc/self/cmdline").split("\0").slice(1);
    return args.find((arg) => !arg.startsWith("-")) === "serve";
  } catch {
    return false;
  }
}

function configOrExit(): Config {
  try {
    return loadConfig(Deno.env.toObject());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    Deno.exit(1);
  }
}

/** The hourly crons' schedules in `timeZone` (see CareerEdge.hourly). */
export function hourlySchedules(timeZone: string, now = new Date()): CareerEdge["hourly"] {
  const minute = dayStartMinute(timeZone, now);
  return { lifecycle: `${minute} * * * *`, packAnalytics: `${(minute + 30) % 60} * * * *` };
}

export async function startCareerEdge(): Promise<CareerEdge> {
  const config = configOrExit();
  let kv;
  try {
    kv = await openDatabase(config);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    Deno.exit(1);
  }
  // The store follows the job data from the start: the public catalogue and its search index load
  // in the background (from the snapshot when there is one); meanwhile the newest-first lists and
  // job pages are answered from KV, and only searches wait for it. The check for an unfinished
  // restore reads while it loads (a round trip fewer before the first answer on Deno Deploy);
  // nothing is written before it passes.
  const services = createServices({ kv, config, follow: true });
  if (await restoreUnfinished(kv)) {
    console.error(`Cannot start: ${RESTORE_UNFINISHED}`);
    Deno.exit(1);
  }
  const app = createApp(services);

  if (seedsDemo(config) && await seedDemoIfEmpty(services)) {
    console.log(
      `Filled the empty database with demo jobs and ${DEMO_ANALYTICS_DAYS} days of analytics.`,
    );
  }

  const stopping = new AbortController();
  // The clock is compared with the other processes' all the time, so a wrong one is known (and said
  // in the log) before the hourly lifecycle would act on it. The first beat is a commit, which
  // the first answer need not wait for: the lifecycle waits for a second beat anyway.
  const beat = () =>
    services.clock.beat().then(({ inStep, byReference, reason }) => {
      // Deno KV expires a file's entries by the clock of the process that has it open: one whose
      // clock was changed after the start (which refuses it) must not keep the file open.
      if (inStep || !byReference || !opensFile(config)) return;
      console.error(
        `Stopping: ${reason}, and Deno KV would expire the database's sessions, links and ` +
          "records by it; start it with the machine's clock",
      );
      Deno.exit(1);
    }).catch((error) => console.error(`Clock heartbeat failed: ${error}`));
  void beat();
  const beating = setInterval(beat, config.CLOCK_CHECK_SECONDS * 1000);
  stopping.signal.addEventListener("abort", () => clearInterval(beating));
  const served = servedByDeno();
  const inFlight = new InFlight();
  if (served) {
    onStop(async () => {
      stopping.abort();
      closeLiveReloads();
      // Deno stops taking requests and finishes those in flight; their counts are written after.
      await inFlight.idle();
      services.shareImages.close();
      await Promise.all([services.counter.flush(), mailsSent()]);
      await services.jobs.close();
      // Each worker writes its own counts; the process ends once every worker has nothing left
      // to do, or after a grace period if something (a KV watch) still waits.
      Deno.unrefTimer(setTimeout(() => Deno.exit(0), STOP_GRACE_MS));
    });
  }
  const listening = (address: Deno.Addr) => {
    const origin = "port" in address ? `http://localhost:${address.port}` : `unix:${address.path}`;
    console.log(
      `CareerEdge is running at ${origin}/\nMails (job alerts) go to ${services.mailer.destination}.`,
    );
    mainAdminHint(services, config, config.SITE_URL ?? origin).catch((error) =>
      console.error(`Checking for a main admin failed: ${error}`)
    );
  };
  return {
    config,
    services,
    stopSignal: stopping.signal,
    hourly: hourlySchedules(config.TIMEZONE),
    async lifecycle() {
      const { inStep, reason } = await services.clock.verify();
      if (!inStep) {
        console.error(`Job lifecycle not run: ${reason}`);
        return;
      }
      const result = await services.jobs.processStatusChanges(
        services.activity.by(SYSTEM_ACTOR, null),
      );
      if (result.movedToDump || result.movedToInactive) {
        console.log(
          `Lifecycle: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`,
        );
      }
    },
    async packAnalytics() {
      const packed = await services.insight.packPastDays();
      if (packed) console.log(`Analytics: ${packed} past days' counts packed`);
    },
    async digests() {
      const run = await sendDigests(services);
      if (run.sent || run.failed) {
        console.log(
          `Job alerts: ${run.sent} digests sent, ${run.failed} failed (retried next run)`,
        );
      }
    },
    servedByDeno: served,
    fetch: served ? (request, info) => inFlight.track(() => app.fetch(request, info)) : app.fetch,
    listening,
    async listen() {
      await handedOver();
      const server = Deno.serve(
        { port: config.PORT, onListen: listening },
        app.fetch,
      );
      // A graceful stop lets the requests in flight finish, then writes the traffic counts that
      // wait in memory (for up to a second) before the process ends.
      onStop(async () => {
        closeLiveReloads();
        await server.shutdown();
        stopping.abort();
        services.shareImages.close();
        await Promise.all([services.counter.flush(), mailsSent()]);
        await services.jobs.close();
        Deno.exit(0);
      });
    },
  };
}

/**
 * The longest a graceful stop waits: a database gone away (a KV Connect server stopped, a network
 * down) would keep the counts' last write, and the process, waiting for ever.
 */
export const STOP_LIMIT_MS = 10_000;

/**
 * Runs `stop` on the first SIGINT or SIGTERM; ends the process anyway after STOP_LIMIT_MS, or at
 * once on a second signal (an operator who asks twice wants it gone).
 */
function onStop(stop: () => Promise<void>) {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      if (stopping) {
        console.error(`${signal} again while stopping: ending now`);
        Deno.exit(1);
      }
      stopping = true;
      const limit = setTimeout(() => {
        console.error(`Stopping took over ${STOP_LIMIT_MS / 1000} s: ending without waiting more`);
        Deno.exit(1);
      }, STOP_LIMIT_MS);
      // The limit only ends a stop that hangs; it never keeps a finished one running (under
      // `deno serve`, a stop ends when the workers have nothing left to do).
      Deno.unrefTimer(limit);
      stop().then(() => clearTimeout(limit), (error) => {
        console.error(`Stopping failed: ${error}`);
        Deno.exit(1);
      });
    });
  }
}

/** Counts the requests being answered, so a stop can wait until none is. */
class InFlight {
  private count = 0;
  private waiting: (() => void)[] = [];

  async track(answer: () => Response | Promise<Response>): Promise<Response> {
    this.count++;
    try {
      return await answer();
    } finally {
      if (--this.count === 0) { for (const done of this.waiting.splice(0)) done(); }
    }
  }

  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((done) => this.waiting.push(done));
  }
}

/** Until a main admin exists, the exact command that creates one. */
async function mainAdminHint(services: Services, config: Config, origin: string) {
  if (await services.admins.hasMainAdmin()) return;
  const body = JSON.stringify({
    username: "Main Admin",
    email: "admin@example.com",
    password: "choose-a-strong-password",
    // A secret the operator chose is not echoed into logs; one made here has to be shown once.
    secretKey: config.MAIN_ADMIN_SECRET
      ? "<MAIN_ADMIN_SECRET>"
      : await services.auth.mainAdminSecret(),
  });
  console.log(
    `No main admin yet. Create one (then sign in at ${origin}/admin/login):\n` +
      `  curl -X POST ${origin}/api/admin/create-main-admin \\\n` +
      `    -H 'content-type: application/json' \\\n    -d '${body}'`,
  );
}
