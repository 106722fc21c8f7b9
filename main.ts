/** Starts CareerEdge: opens KV, seeds demo data on an empty database, registers crons, serves. */
import { ConfigError, loadConfig } from "./server/config.ts";
import { openDatabase } from "./kv/db.ts";
import { createApp, createServices } from "./server/app.ts";

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Cannot start: ${error.message}`);
  Deno.exit(1);
}

const kv = await openDatabase(config);
const services = createServices({ kv, config });
const app = createApp(services);

Deno.cron("job lifecycle", "0 * * * *", async () => {
  const result = await services.jobs.processStatusChanges();
  if (result.movedToDump || result.movedToInactive) {
    console.log(`Lifecycle: ${result.movedToDump} to dump, ${result.movedToInactive} to inactive`);
  }
});

Deno.serve({
  port: config.PORT,
  onListen: ({ port }) => console.log(`CareerEdge is running at http://localhost:${port}/`),
}, app.fetch);
