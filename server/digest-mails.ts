/**
 * What a digest run works out once and shares between alerts, each in a cache bounded in bytes for
 * the run: a search's newest matches, and a digest's mail. Alerts with one search and frequency
 * whose last digest went in the same run (every daily one, after its first) get the same jobs, so
 * their mails differ only in address, Message-ID and links: rendered and built once as a template
 * (server/mail.ts) with stand-in tokens, each alert's copy puts in its own.
 */
import type { Services } from "./context.ts";
import type { Mailer, MailTemplate } from "./mail.ts";
import { BoundedCache, CACHE_BUDGETS } from "../kv/bounded-cache.ts";
import { type Alert, type AlertQuery, newToken } from "../kv/alerts.ts";
import type { Job } from "../kv/schemas.ts";
import { DIGEST_JOBS } from "../kv/constants.ts";
import { alertLink, digestMail } from "../routes/alerts/mail.tsx";
import { searchOf } from "../routes/pages/query.ts";

/** The newest matches read per search, of which the new ones are sent. */
const NEWEST_READ = 50;
/** What one job in a list of matches costs: a reference to the catalogue's copy. */
const MATCH_BYTES = 8;

/** A search's key: the same for any order of its fields. */
const searchKey = (query: AlertQuery) => JSON.stringify(Object.entries(query).sort());

/** The newest matches of an alert's search, shared by the run's alerts with that search. */
export function newestMatches(jobs: Services["jobs"]): (query: AlertQuery) => Promise<Job[]> {
  const newest = new BoundedCache<Promise<Job[]>>(CACHE_BUDGETS.digestMatches);
  return (query) => {
    const key = searchKey(query);
    let found = newest.get(key, 0);
    if (!found) {
      // A digest holds only the jobs new since the last one: a Date posted window adds nothing
      // to a daily digest and would drop from a weekly one jobs that were never sent. A page of
      // partial matches (no job has every word) offers what is near; a digest holds only the
      // jobs the search matches.
      const { postedWithin: _window, ...search } = searchOf({ ...query, page: 1 });
      found = jobs.search({
        ...search,
        page: 1,
        limit: NEWEST_READ,
        sortBy: "datePosted",
        sortOrder: "desc",
      }).then((page) => page.partial ? [] : page.jobs);
      newest.set(key, 0, found, NEWEST_READ * MATCH_BYTES);
    }
    return found;
  };
}

/**
 * Sends the digest of `fresh` (an alert's new jobs, newest first) to the alert's address, with its
 * own links and Message-ID; alerts with the same search, frequency and jobs share one template.
 */
export function digestSenders(site: string, mailer: Mailer): (
  alert: Alert,
  fresh: Job[],
) => (links: { unsubscribe: string; manage: string }, messageId: string) => Promise<void> {
  const templates = new BoundedCache<Promise<MailTemplate>>(CACHE_BUDGETS.digestMails);
  // Stand-ins no job's text can hold: new random tokens, as long as the real ones.
  const stand = { unsubscribe: newToken(), manage: newToken() };
  return (alert, fresh) => {
    const key = `${searchKey(alert.query)} ${alert.frequency} ${fresh.map((job) => job._id)}`;
    let template = templates.get(key, 0);
    if (!template) {
      const mail = digestMail(
        site,
        alert,
        fresh.slice(0, DIGEST_JOBS),
        fresh.length > DIGEST_JOBS,
        {
          unsubscribe: alertLink(site, "unsubscribe", stand.unsubscribe),
          manage: alertLink(site, "manage", stand.manage),
        },
      );
      template = mailer.template(mail);
      // Kept as the mail's texts twice (the mail, and its built headers and parts), two bytes each.
      templates.set(key, 0, template, 4 * (mail.text.length + mail.html.length));
      template.catch(() => templates.delete(key));
    }
    const made = template;
    return async (links, messageId) => {
      const own = (text: string) =>
        text.replaceAll(stand.unsubscribe, links.unsubscribe).replaceAll(
          stand.manage,
          links.manage,
        );
      await (await made)(alert.email, messageId, own);
    };
  };
}
