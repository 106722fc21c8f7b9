/**
 * Database tasks on the configured database (DENO_KV_PATH, DENO_KV_URL or ./data/careeredge.kv):
 *
 *   deno task seed [--force]                     demo data; refuses a database that has jobs
 *   deno task db:dump [--with-secrets] [--with-alerts] [file]
 *                                                the entries as JSON lines (kv/backup.ts), to the
 *                                                file (owner-only) or standard output
 *   deno task db:restore [file]                  a dump from the file or standard input, into an
 *                                                empty database or to finish a failed restore
 *   deno task db:migrate                         upgrades stored records to the current schema
 *                                                version (kv/migrate.ts) and reads jobs' pay
 *                                                again; safe to run again
 *   deno task alerts:send                        sends the job alert digests due now, as the
 *                                                cron does (server/digests.ts)
 */
import { ConfigError, loadConfig } from "./config.ts";
import { createServices } from "./app.ts";
import { dirname } from "node:path";
import { DatabaseError, openDatabase } from "../kv/db.ts";
import {
  dumpDatabase,
  type DumpOptions,
  type DumpResult,
  RESTORE_UNFINISHED,
  restoreDatabase,
  restoreUnfinished,
  TaskError,
} from "../kv/backup.ts";
import { seedDemo, seedDemoIfEmpty } from "../kv/seed.ts";
import { kindLine, migrateDatabase } from "../kv/migrate.ts";
import { sendDigests } from "./digests.ts";

async function openConfigured(): Promise<Deno.Kv> {
  return await openDatabase(loadConfig(Deno.env.toObject()));
}

async function seedCommand(force: boolean) {
  const config = loadConfig(Deno.env.toObject());
  using kv = await openDatabase(config);
  if (await restoreUnfinished(kv)) throw new TaskError(`Cannot seed: ${RESTORE_UNFINISHED}`);
  const services = createServices({ kv, config });
  if (force) {
    const jobs = await seedDemo(services);
    console.log(`Added ${jobs.length} demo jobs.`);
  } else if (await seedDemoIfEmpty(services)) {
    console.log(`Seeded the demo data: ${(await services.jobs.statusCounts()).all} jobs.`);
  } else {
    throw new TaskError(
      "The database has (or had) jobs; `deno task seed --force` adds the demo set anyway",
    );
  }
}

const USAGE =
  "Usage: deno run -A server/cli.ts seed [--force] | dump [--with-secrets] [--with-alerts] [file] | restore [file] | migrate | send-alerts";

/** Sends the due job alert digests with the server's own code, and says what it did. */
async function sendAlertsCommand() {
  const config = loadConfig(Deno.env.toObject());
  using kv = await openDatabase(config);
  if (await restoreUnfinished(kv)) throw new TaskError(`Cannot send: ${RESTORE_UNFINISHED}`);
  const services = createServices({ kv, config });
  try {
    const run = await sendDigests(services);
    console.log(
      `Job alerts: ${run.due} due, ${run.sent} digests sent, ${run.empty} with nothing new, ` +
        `${run.failed} failed (retried next run), ${run.taken} taken by another run.`,
    );
  } finally {
    services.mailer.close();
  }
}

/** Upgrades stored records to the current schema version and says what it did. */
async function migrateCommand() {
  const config = loadConfig(Deno.env.toObject());
  using kv = await openDatabase(config);
  if (await restoreUnfinished(kv)) throw new TaskError(`Cannot migrate: ${RESTORE_UNFINISHED}`);
  const report = await migrateDatabase(kv, {
    retentionDays: config.ACTIVITY_RETENTION_DAYS,
    now: new Date(),
  });
  for (const kind of report.kinds) console.log(kindLine(kind));
  if (report.payRead) {
    console.log(
      `Jobs: ${report.payRead} read their pay again from the package text, as the pay reader reads it now.`,
    );
  }
  for (const conflict of report.conflicts) {
    console.log(
      `${conflict.jobId} ("${conflict.role}" at ${conflict.companyName}): its hiring link ${conflict.hiringLink} is the same as that of the older ${conflict.keptBy}, which keeps it; change ${conflict.jobId}'s link or take it off the active list.`,
    );
  }
}

/**
 * Writes a dump to `path` readable by its owner only, through a temporary file in the same folder
 * that replaces `path` once complete: a failed dump never leaves a half-written backup in its place,
 * and a file that existed with wider permissions is replaced, not reused.
 */
async function dumpToFile(kv: Deno.Kv, path: string, options: DumpOptions): Promise<DumpResult> {
  const temporary = await Deno.makeTempFile({
    dir: dirname(path),
    prefix: ".dump-",
    suffix: ".tmp",
  });
  try {
    await Deno.chmod(temporary, 0o600);
    const file = await Deno.open(temporary, { write: true, truncate: true });
    const result = await dumpDatabase(kv, file.writable, options);
    await Deno.rename(temporary, path);
    return result;
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

const DUMP_FLAGS = ["--with-secrets", "--with-alerts"];

/** `db:dump`: its flags, then at most a file; says what it left out and what the dump holds. */
async function dumpCommand(args: string[]) {
  const flags = args.filter((arg) => DUMP_FLAGS.includes(arg));
  const files = args.filter((arg) => !DUMP_FLAGS.includes(arg));
  if (files.length > 1 || files[0]?.startsWith("--") || new Set(flags).size < flags.length) {
    throw new TaskError(USAGE);
  }
  const withSecrets = flags.includes("--with-secrets");
  const withAlerts = flags.includes("--with-alerts");
  const file = files[0] && files[0] !== "-" ? files[0] : null;
  using kv = await openConfigured();
  const { entries, alertEntriesLeftOut } = file
    ? await dumpToFile(kv, file, { withSecrets, withAlerts })
    : await dumpDatabase(kv, Deno.stdout.writable, { withSecrets, withAlerts });
  console.error(
    `Dumped ${entries} entries${file ? ` to ${file}` : ""}${
      withSecrets ? ", with the signing key and sessions" : ""
    }.`,
  );
  if (withAlerts) {
    console.error(
      "This dump holds personal data: the e-mail addresses and searches of job alert subscribers. Keep it as safe as the database, and delete it when it is no longer needed.",
    );
  } else if (alertEntriesLeftOut > 0) {
    console.error(
      `Left out the job alerts (${alertEntriesLeftOut} entries: subscribers' e-mail addresses); a database restored from this dump has none. \`--with-alerts\` keeps them.`,
    );
  }
}

if (import.meta.main) {
  const [command, ...rest] = Deno.args;
  try {
    if (command === "seed") {
      if (rest.length > 1 || (rest.length === 1 && rest[0] !== "--force")) {
        throw new TaskError(USAGE);
      }
      await seedCommand(rest[0] === "--force");
    } else if (command === "dump") {
      await dumpCommand(rest);
    } else if (command === "send-alerts") {
      if (rest.length > 0) throw new TaskError(USAGE);
      await sendAlertsCommand();
    } else if (command === "migrate") {
      if (rest.length > 0) throw new TaskError(USAGE);
      await migrateCommand();
    } else if (command === "restore") {
      if (rest.length > 1) throw new TaskError(USAGE);
      const config = loadConfig(Deno.env.toObject());
      using kv = await openDatabase(config);
      const input = rest[0] && rest[0] !== "-"
        ? (await Deno.open(rest[0])).readable
        : Deno.stdin.readable;
      const { entries, resumed } = await restoreDatabase(kv, input, {
        activityRetentionDays: config.ACTIVITY_RETENTION_DAYS,
      });
      console.error(
        `Restored ${entries} entries${resumed ? " (finished an earlier restore)" : ""}.`,
      );
    } else {
      throw new TaskError(USAGE);
    }
  } catch (error) {
    const expected = error instanceof TaskError || error instanceof ConfigError ||
      error instanceof DatabaseError ||
      error instanceof Deno.errors.NotFound;
    if (!expected) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
