/** Starts CareerEdge: opens KV, seeds demo data on an empty database, registers crons, serves. */
import { ConfigError, loadConfig } from "./server/config.ts";
import { openDatabase } from "./kv/db.ts";
import { createApp, createServices } from "./server/app.ts";
import { seedDemoIfEmpty } from "./kv/seed.ts";
import { SYSTEM_ACTOR } from "./kv/activity.ts";
import { RESTORE_UNFINISHED, restoreUnfinished } from "./kv/backup.ts";
import { mailsSent } from "./routes/alerts/request.ts";
import { sendDigests } from "./server/digests.ts";

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Cannot start: ${error.message}`);
  Deno.exit(1);
}

const kv = await openDatabase(config);
if (await restoreUnfinished(kv)) {
  console.error(`Cannot start: ${RESTORE_UNFINISHED}`);
  Deno.exit(1);
}
const services = createServices({ kv, config });
const app = createApp(services);
// The public catalogue and its search index load in the background from the start; meanwhile the
// newest-first lists and job pages are answered from KV, and only searches wait for it.
services.jobs.active().catch((error) =>
  console.error(`Loading the job catalogue failed (the next search tries again): ${error}`)
);

if (config.SEED_DEMO && await seedDemoIfEmpty(services)) {
  console.log("Filled the empty database with demo jobs and 90 days of analytics.");
}

Deno.cron("job lifecycle", "0 * * * *", async () => {
  const result = await services.jobs.processStatusChanges(
    services.activity.by(SYSTEM_ACTOR, null),
  );
  if (result.movedToDump || result.movedToInactive) {
    console.log(`Lifecycle: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`);
  }
});

// Every quarter hour, so that digests leave at 08:00 in any TIMEZONE (some are 30 or 45 minutes
// off UTC); a run with nothing due reads one short range.
Deno.cron("job alert digests", "*/15 * * * *", async () => {
  const run = await sendDigests(services);
  if (run.sent || run.failed) {
    console.log(`Job alerts: ${run.sent} digests sent, ${run.failed} failed (retried next run)`);
  }
});

const server = Deno.serve({
  port: config.PORT,
  onListen: ({ port }) =>
    console.log(
      `CareerEdge is running at http://localhost:${port}/\nMails (job alerts) go to ${services.mailer.destination}.`,
    ),
}, app.fetch);

if (!(await services.admins.hasMainAdmin())) {
  const origin = config.SITE_URL ?? `http://localhost:${server.addr.port}`;
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

// Traffic counts wait in memory for up to a second: a graceful stop lets the requests in flight
// finish, then writes the counts before the process ends.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    if (stopping) return;
    stopping = true;
    await server.shutdown();
    await Promise.all([services.counter.flush(), mailsSent()]);
    Deno.exit(0);
  });
}
