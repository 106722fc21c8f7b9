/**
 * Job alert digests: every due alert gets the jobs that became active since its last digest and
 * match its search (the job list's own search engine and filters), at most 20 in one mail with a
 * link to the whole search, and no mail when nothing is new. `Deno.cron` runs this every quarter
 * hour (main.ts), so digests leave at 08:00 in any TIMEZONE; `deno task alerts:send` runs it now.
 *
 * Each alert is claimed before its mail goes (kv/alerts.ts), so however many runs overlap, here or
 * in other processes, one digest goes out once. An alert costs at most two KV writes: the claim
 * with its links' tokens, and the end of the send with the day's count (one when nothing is new). A send the SMTP server refuses leaves the alert
 * due, and the next run tries again with the same jobs.
 */
import pLimit from "p-limit";
import type { Services } from "./context.ts";
import { type Alert, type AlertQuery, isDue, nextDigestAt } from "../kv/alerts.ts";
import type { Job } from "../kv/schemas.ts";
import { alertLink, DIGEST_JOBS, digestMail } from "../routes/alerts/mail.tsx";
import { siteOf } from "../routes/alerts/request.ts";
import { searchOf } from "../routes/pages/query.ts";

/** How long a claim holds an alert: far longer than one send takes. */
const CLAIM_MS = 10 * 60 * 1000;
/** The newest matches read per search, of which the new ones are sent. */
const NEWEST_READ = 50;
/** Alerts worked on at once: their KV reads and writes overlap, their sends keep to the rate. */
const CONCURRENCY = 8;

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

/** Sends every digest due now. */
export async function sendDigests(services: Services): Promise<DigestRun> {
  const { alerts, jobs, config } = services;
  const runAt = services.now();
  const site = siteOf(config);
  const ids = await alerts.due(runAt);
  const run: DigestRun = { due: ids.length, sent: 0, failed: 0, empty: 0, taken: 0 };
  // Alerts with one search share its newest matches for the run.
  const newest = new Map<string, Promise<Job[]>>();
  const matches = (query: AlertQuery) => {
    const key = JSON.stringify(Object.entries(query).sort());
    let found = newest.get(key);
    if (!found) {
      // A digest holds only the jobs new since the last one: a Date posted window adds nothing
      // to a daily digest and would drop from a weekly one jobs that were never sent.
      const { postedWithin: _window, ...search } = searchOf({ ...query, page: 1 });
      found = jobs.search({
        ...search,
        page: 1,
        limit: NEWEST_READ,
        sortBy: "datePosted",
        sortOrder: "desc",
      }).then((page) => page.jobs);
      newest.set(key, found);
    }
    return found;
  };
  const pace = pacer(config.MAIL_RATE_PER_SECOND);

  async function digest(id: string) {
    const alert = await alerts.get(id);
    if (!alert || !isDue(alert, runAt)) return run.taken++;
    const nextDue = nextDigestAt(alert.frequency, runAt, config.TIMEZONE);
    const fresh = newSince(await matches(alert.query), alert, runAt);
    if (fresh.length === 0) {
      return (await alerts.advance(id, runAt, nextDue)) ? run.empty++ : run.taken++;
    }
    const links = await alerts.mailTokens(alert);
    // Claimed only if still due: then nothing has moved its `since` since it was read above.
    const claimed = await alerts.claim(id, runAt, CLAIM_MS, links);
    if (!claimed) return run.taken++;
    const mail = digestMail(site, alert, fresh.slice(0, DIGEST_JOBS), fresh.length > DIGEST_JOBS, {
      unsubscribe: alertLink(site, "unsubscribe", links.unsubscribe),
      manage: alertLink(site, "manage", links.manage),
    });
    await pace();
    const sent = await services.mailer.send({
      ...mail,
      messageId: `<digest-${alert.id}-${runAt.getTime()}@${new URL(site).hostname}>`,
    }).then(() => true, (error) => {
      console.error(`Sending a job alert digest failed: ${error?.message ?? error}`);
      return false;
    });
    // A failed send leaves the jobs unsent and the alert due at once: the next run tries again.
    await alerts.finish(claimed, sent ? runAt : null, sent ? nextDue : runAt);
    if (sent) run.sent++;
    else run.failed++;
  }

  const limit = pLimit(CONCURRENCY);
  await Promise.all(ids.map((id) =>
    limit(() =>
      digest(id).catch((error) => {
        // The claim keeps the alert until it ends; then it is due again.
        console.error(`A job alert digest failed: ${error}`);
        run.failed++;
      })
    )
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
