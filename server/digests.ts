/**
 * Job alert digests: every due alert gets the jobs that became active since its last digest and
 * match its search (the job list's own search engine and filters), at most `DIGEST_JOBS` in one mail
 * with a link to the whole search, and no mail when nothing is new. `Deno.cron` runs this every
 * quarter hour (main.ts), so digests leave at `DIGEST_HOUR` in any TIMEZONE; `deno task alerts:send`
 * runs it now.
 *
 * Each alert is claimed before its mail goes (kv/alert-digests.ts), so however many runs overlap,
 * here or in other processes, one digest goes out once. Alerts are read ten at a time, and their
 * claims (with their links' tokens) and the ends of their sends (with the day's count) are written
 * in groups of up to ten. A send the SMTP server refuses leaves the alert due, and the next run
 * tries again with the same jobs.
 */
import pLimit from "p-limit";
import type { Services } from "./context.ts";
import {
  type Alert,
  ALERT_FREQUENCIES,
  type AlertFrequency,
  isDue,
  nextDigestAt,
} from "../kv/alerts.ts";
import type { HeldAlert } from "../kv/alert-digests.ts";
import type { Job } from "../kv/schemas.ts";
import { digestSenders, newestMatches } from "./digest-mails.ts";
import { siteOf } from "../routes/alerts/request.ts";

/** How long a claim holds an alert: far longer than one send takes. */
const CLAIM_MS = 10 * 60 * 1000;
/** Groups of alerts worked on at once: their reads overlap, their sends keep to the rate. */
const CONCURRENCY = 4;
/** Alerts read together: as many as KV gives in one read. */
const READ_GROUP = 10;

export interface DigestRun {
  /** Alerts that were due. */
  due: number;
  sent: number;
  failed: number;
  /** Due alerts with nothing new: no mail. */
  empty: number;
  /** Due alerts another run had already taken. */
  taken: number;
}

/** Paces sends to `perSecond`, however many run at once. */
function pacer(perSecond: number): () => Promise<void> {
  const gapMs = 1000 / perSecond;
  let next = 0;
  return () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + gapMs;
    return at > now ? new Promise((resolve) => setTimeout(resolve, at - now)) : Promise.resolve();
  };
}

/**
 * Sends every digest due now; none while this process's clock disagrees with the others' (a clock
 * days fast would send every alert's digest at once and set each next one days late).
 */
export async function sendDigests(services: Services): Promise<DigestRun> {
  const { alerts, jobs, config } = services;
  const { inStep, reason } = await services.clock.verify();
  if (!inStep) {
    console.error(`Job alert digests not sent: ${reason}`);
    return { due: 0, sent: 0, failed: 0, empty: 0, taken: 0 };
  }
  const runAt = services.now();
  const site = siteOf(config);
  const ids = await alerts.due(runAt);
  const run: DigestRun = { due: ids.length, sent: 0, failed: 0, empty: 0, taken: 0 };
  // The catalogue follows other processes' writes while requests come; a run after a quiet spell
  // first catches it up with every job written anywhere, so a digest misses none.
  if (ids.length > 0) await jobs.active({ fresh: true });
  const writes = alerts.digestWrites();
  const matches = newestMatches(jobs);
  const senderOf = digestSenders(site, services.mailer);
  const nextDigestOf = Object.fromEntries(
    ALERT_FREQUENCIES.map((frequency) => [
      frequency,
      nextDigestAt(frequency, runAt, config.TIMEZONE),
    ]),
  ) as Record<AlertFrequency, Date>;
  const pace = pacer(config.MAIL_RATE_PER_SECOND);

  async function digest(
    held: HeldAlert,
    addressIdOf: (email: string) => Promise<string | undefined>,
  ) {
    const { alert } = held;
    if (!isDue(alert, runAt)) return run.taken++;
    const nextDue = nextDigestOf[alert.frequency];
    const fresh = newSince(await matches(alert.query), alert, runAt);
    if (fresh.length === 0) {
      return (await writes.advance(held, runAt, nextDue)) ? run.empty++ : run.taken++;
    }
    const addressId = await addressIdOf(alert.email);
    // Its address went since the alert was read, and so did the alert: the claim would fail.
    if (!addressId) return run.taken++;
    const links = alerts.mailTokens(alert, addressId);
    // Claimed only if unchanged since it was read: then its `since` is the one matched above.
    const claimed = await writes.claim(held, runAt, CLAIM_MS, links);
    if (!claimed) return run.taken++;
    const send = senderOf(alert, fresh);
    await pace();
    // The same digest sent again after a crash (see kv/alert-digests.ts) has the same id, by
    // which mailbox providers may drop the second.
    const since = Date.parse(alert.since ?? alert.confirmedAt ?? alert.createdAt);
    const error = await send(links, `<digest-${alert.id}-${since}@${new URL(site).hostname}>`)
      .then(() => null, (error) => error ?? "refused");
    // Marked at once, before anything else: a failed send leaves the jobs unsent and the alert
    // due at once, for the next run.
    await writes.finish(claimed, error ? null : runAt, error ? runAt : nextDue);
    if (error) {
      console.error(`Sending a job alert digest failed: ${error?.message ?? error}`);
      run.failed++;
    } else run.sent++;
  }

  // Ten alerts a read; a few reads at once, each with its alerts' sends under way.
  const limit = pLimit(CONCURRENCY);
  const groups = Array.from(
    { length: Math.ceil(ids.length / READ_GROUP) },
    (_, i) => ids.slice(i * READ_GROUP, (i + 1) * READ_GROUP),
  );
  await Promise.all(groups.map((group) =>
    limit(async () => {
      const held = await writes.read(group).catch((error) => {
        console.error(`Reading job alerts failed: ${error}`);
        return [];
      });
      run.taken += group.length - held.length;
      // The group's addresses' ids (for the manage links) are read together, once an alert of
      // the group has a mail to send.
      let addressIds: Promise<Map<string, string>> | undefined;
      const addressIdOf = async (email: string) =>
        (await (addressIds ??= alerts.addressIds(held.map((one) => one.alert.email)))).get(email);
      await Promise.all(held.map((one) =>
        digest(one, addressIdOf).catch((error) => {
          // The claim keeps the alert until it ends; then it is due again.
          console.error(`A job alert digest failed: ${error}`);
          run.failed++;
        })
      ));
    })
  ));
  return run;
}

/** The matches that became active after the alert's last digest and by the run's start. */
function newSince(matches: Job[], alert: Alert, runAt: Date): Job[] {
  const since = Date.parse(alert.since ?? alert.confirmedAt ?? alert.createdAt);
  return matches.filter((job) => {
    const posted = Date.parse(job.datePosted);
    return posted > since && posted <= runAt.getTime();
  });
}
