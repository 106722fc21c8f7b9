/**
 * `deno run -A tests/bench/alerts-send.ts <database>`: what `deno task alerts:send` costs. Writes
 * 10,000 confirmed alerts, all due, over the database's active jobs (searches of the kinds visitors
 * make: a word of a role, a city, a filter, two together), then runs the digests with the task's
 * own code against a local SMTP server (tests/bench/smtp-sink.ts) at 1,000 mails a second, and
 * prints one JSON line: the run, its time, and its memory over the process with the catalogue
 * loaded. The database is changed: give it a copy.
 */
import { createServices } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { sendDigests } from "../../server/digests.ts";
import { keys } from "../../kv/keys.ts";
import { type Alert, ALERT_VERSION, type AlertQuery } from "../../kv/alerts.ts";
import { stampedAt } from "../../kv/schema-version.ts";
import type { Job } from "../../kv/schemas.ts";
import { DAY_MS } from "../../kv/constants.ts";
import { cpuUsage } from "node:process";

/** `BENCH_ALERTS` alerts (10,000 by default): fewer for a quick profile. */
const ALERTS = Number(Deno.env.get("BENCH_ALERTS") ?? 10_000);
const PER_WRITE = 100;

/** Searches as visitors make them, drawn from the jobs themselves. */
function queries(jobs: Job[]): AlertQuery[] {
  const found: AlertQuery[] = [];
  for (const [i, job] of jobs.entries()) {
    const word = job.role.split(/\s+/)[i % 2].toLowerCase();
    const city = job.location.split(",")[0];
    const kinds: AlertQuery[] = [
      { keywords: word },
      { location: city },
      { keywords: word, location: city },
      { employmentType: job.employmentType, experience: job.experience },
      { keywords: word, employmentType: job.employmentType },
    ];
    found.push(kinds[i % kinds.length]);
  }
  return found;
}

async function writeAlerts(kv: Deno.Kv, searches: AlertQuery[], now: Date) {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  for (let start = 0; start < ALERTS; start += PER_WRITE) {
    const op = kv.atomic();
    for (let i = start; i < start + PER_WRITE; i++) {
      const email = `seeker${i}@example.com`;
      const alert: Alert = {
        id: crypto.randomUUID(),
        email,
        query: searches[i % searches.length],
        frequency: i % 5 ? "daily" : "weekly",
        status: "active",
        createdAt: since,
        confirmedAt: since,
        since,
        dueAt: now.getTime() - 1000,
        sendingUntil: null,
      };
      // As the store writes a confirmed address: with its id, which its manage links name.
      const addressId = crypto.randomUUID();
      op.set(keys.alert(alert.id), stampedAt(alert, ALERT_VERSION))
        .set(keys.alertAddress(email), { alertIds: [alert.id], id: addressId })
        .set(keys.alertAddressById(addressId), { email })
        .set(keys.alertDue(alert.dueAt!, alert.id), null);
    }
    if (!(await op.commit()).ok) throw new Error("writing the alerts failed");
  }
}

const [kvPath] = Deno.args;
if (!kvPath) throw new Error("Usage: deno run -A tests/bench/alerts-send.ts <database copy>");
const sink = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("./smtp-sink.ts", import.meta.url).pathname],
  stdout: "piped",
}).spawn();
try {
  const reader = sink.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const port = Number((await reader.read()).value?.trim());
  const config = loadConfig({
    DENO_KV_PATH: kvPath,
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_RATE_PER_SECOND: "1000",
    SITE_URL: "https://jobs.example.com",
    SEED_DEMO: "false",
  });
  const kv = await Deno.openKv(kvPath);
  const services = createServices({ kv, config });
  const catalog = await services.jobs.active();
  const jobs = catalog.list().map(({ job }) => job);
  // `BENCH_SEARCHES` searches (2,000 by default), taken by the alerts in turn.
  const searches = Number(Deno.env.get("BENCH_SEARCHES") ?? 2000);
  await writeAlerts(kv, queries(jobs.slice(0, searches)), new Date());
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 50);
  const started = performance.now();
  const cpuBefore = cpuUsage();
  const run = await sendDigests(services);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuUsage(cpuBefore);
  clearInterval(sampler);
  peak = Math.max(peak, Deno.memoryUsage().rss);
  services.mailer.close();
  kv.close();
  console.log(JSON.stringify({
    activeJobs: jobs.length,
    run,
    seconds: Number(seconds.toFixed(1)),
    // The process's own CPU time: on a shared machine, what the run costs whatever the load.
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
    rssBeforeMb: Math.round(before / 1048576),
    addedMb: Math.round((peak - before) / 1048576),
  }));
} finally {
  sink.kill();
  await sink.status;
}
