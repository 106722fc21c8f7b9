/**
 * The caching policy of the answers the site keeps in the answer cache (server/cache.ts): the key
 * each kind of answer is kept under, and, for the public pages, the loads in progress that asks
 * missing the cache at the same moment share and the rule of when a rendered page is kept.
 */
import type { Context } from "hono";
import type { ReactElement } from "react";
import type { Services } from "../server/context.ts";
import { type AnswerCache, encodingOf, type KeptAnswer, type Sized } from "../server/cache.ts";
import { postedClock } from "../kv/jobs/catalogue.ts";
import { type CachedPage, cachedPage, onceAnswer, pageAnswer, pageCache } from "./pages/cache.ts";
import {
  renderDocument,
  settledInTime,
  streamDocument,
  track,
  type Tracked,
} from "./pages/render.ts";

/**
 * Every key an answer is kept under. A key holds all that shapes the answer besides the version it
 * is kept for (the job revision, with the analytics version where counts show): the site's origin
 * (links are absolute) and the canonical question. An answer that lists jobs by a search is kept
 * with the last minute it holds for (`SearchPage.until`: when one of its jobs leaves a Date posted
 * window), not under the minute it was made in. Pages are kept apart from the rest by the page store
 * (`pageCache`).
 */
export const answerKeys = {
  home: (site: string) => `home ${site}`,
  jobList: (site: string, search: string) => `jobs${search} ${site}`,
  job: (site: string, id: string) => `job ${id} ${site}`,
  saved: (site: string) => `saved ${site}`,
  feed: (site: string, search: string) => `rss ${site} ${search}`,
  sitemapIndex: (site: string) => `sitemap-index ${site}`,
  sitemap: (site: string, number: number) => `sitemap ${site} ${number}`,
  /** `GET /api/jobs`, by its normalised query. */
  apiJobs: (query: string) => `api:jobs ${query}`,
  filterOptions: () => "api:filter-options",
  /** An admin job list (`list` names which), by its normalised query. */
  adminList: (list: string, query: string) => `${list} ${query}`,
  /** A job's share image, kept for the job's `updatedAt`. */
  shareImage: (id: string) => `share-image ${id}`,
};

/**
 * The minute a search's Date posted windows end at now (`postedClock`): a kept answer that lists
 * jobs by a search is given while it is at most the answer's `until`.
 */
export const postedMinute = (services: Pick<Services, "now">): number =>
  postedClock(services.now().getTime());

/**
 * The kept answer under `key` that lists jobs by a search (the API's, a feed's), made by `make`
 * with the last minute it holds for (`SearchPage.until`), and given while the minute `now` is at
 * most that.
 */
export async function rememberSearch(
  cache: AnswerCache,
  key: string,
  revision: number,
  now: number,
  make: () => Promise<{ answer: Sized<KeptAnswer>; until: number }>,
): Promise<KeptAnswer> {
  const { answer } = await cache.remember(
    key,
    revision,
    async () => {
      const { answer: { value, bytes }, until } = await make();
      return { value: { answer: value, until }, bytes };
    },
    ({ until }) => until >= now,
  );
  return answer;
}

/** A page to answer: what it shows, where it is kept, and the data it waits for. */
export interface PageOrder<T> {
  key: string;
  revision: number;
  status: number;
  load: () => Promise<T>;
  page: (data: Promise<T>, cacheable: boolean) => ReactElement;
  /** The job a job page shows, whose views are counted and shown. */
  jobKey?: string;
  views?: (data: T) => number;
  /** False for a page made without all its data (a cold start's job page): never kept. */
  keep?: boolean;
  /**
   * The last minute (ms) the page holds for, by its data: a kept page asked later is made again.
   * Absent for a page no Date posted window shapes, which holds at every minute.
   */
  until?: (data: T) => number;
}

/**
 * The public pages' side of the policy: pages are kept per key and job revision from their second
 * ask (`pageCache`), the data of a page being rendered is loaded once for every ask that misses
 * meanwhile, and so is a job's view count, which is written into its kept page on each answer.
 */
export class PagePolicy {
  private kept: ReturnType<typeof pageCache>;
  /** Data being loaded for a page, by revision and key; gone once settled. */
  private loading = new Map<string, Tracked<unknown>>();
  /** View counts being read, by job; visitors of one job at the same moment share the read. */
  private viewReads = new Map<string, Promise<number>>();

  constructor(private services: Pick<Services, "cache" | "jobs" | "now">) {
    this.kept = pageCache(services.cache);
  }

  /** The page kept under `key` for `revision`, if it holds this minute. */
  get(key: string, revision: number): CachedPage | undefined {
    return this.kept.get(key, revision, postedMinute(this.services));
  }

  /** Whether a page is kept under `key` for any revision. */
  holds(key: string): boolean {
    return this.kept.holds(key);
  }

  keep(key: string, revision: number, page: CachedPage): void {
    this.kept.set(key, revision, page);
  }

  viewsOf(jobKey: string): Promise<number> {
    let read = this.viewReads.get(jobKey);
    if (!read) {
      read = this.services.jobs.analyticsOf([jobKey], { visitor: true })
        .then((counts) => counts.get(jobKey)?.views ?? 0)
        .finally(() => this.viewReads.delete(jobKey));
      this.viewReads.set(jobKey, read);
    }
    return read;
  }

  /** The answer of a kept page, with the job's view count written in where it has one. */
  async send(c: Context, page: CachedPage, views?: number): Promise<Response> {
    if (page.parts.length > 1 && views === undefined) views = await this.viewsOf(page.jobKey!);
    return pageAnswer(page, encodingOf(c), views ?? 0).response();
  }

  /**
   * Renders a page whose data `order.load` fetches: to a string when the data is quick (kept if
   * the page was asked for before), else as a stream with skeletons, and then the whole page is
   * kept once the data is in, for the next visitor.
   */
  async render<T>(c: Context, order: PageOrder<T>): Promise<Response> {
    const keep = order.keep ?? true;
    const data = this.load(order);
    const until = () => order.until?.(data.value!) ?? Infinity;
    const cacheWhole = () => {
      const cached = this.get(order.key, order.revision);
      if (cached) return cached;
      const html = renderDocument(order.page(data, true));
      const page = cachedPage(order.status, html, { jobKey: order.jobKey, until: until() });
      this.keep(order.key, order.revision, page);
      return page;
    };
    if (!(await settledInTime(c, data))) {
      // Data this slow is worth keeping the page for at its first ask.
      if (keep) data.then(cacheWhole, () => {});
      return streamDocument(c, order.page(data, false), order.status);
    }
    const views = order.views?.(data.value!);
    if (keep && this.kept.askedBefore(order.key)) return this.send(c, cacheWhole(), views);
    const html = renderDocument(order.page(data, true));
    return keep
      ? this.kept.firstAnswer(
        { key: order.key, revision: order.revision, status: order.status, until: until() },
        html,
        encodingOf(c),
        views,
      )
      : onceAnswer(order.status, html, encodingOf(c), views);
  }

  /** The page's data, loading or loaded by an ask for the same page and revision. */
  private load<T>({ key, revision, load }: PageOrder<T>): Tracked<T> {
    const loadKey = `${revision} ${key}`;
    let data = this.loading.get(loadKey) as Tracked<T> | undefined;
    if (!data) {
      data = track(load());
      this.loading.set(loadKey, data);
      data.finally(() => this.loading.delete(loadKey)).catch(() => {});
    }
    return data;
  }
}
