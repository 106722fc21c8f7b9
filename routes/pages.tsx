/**
 * The public site: `/`, `/jobs`, `/jobs/{id}` and its apply link, `/saved`, the RSS feed, the
 * sitemap and robots.txt, and a redirect to `/` for any other path. Pages read the job store
 * directly and are cached per URL for one revision of the job data (routes/pages/cache.ts).
 */
import { type Context, Hono } from "hono";
import type { ReactElement } from "react";
import type { AppEnv, Services } from "../server/context.ts";
import type { Config } from "../server/config.ts";
import { canonicalHiringLink, type Job } from "../kv/schemas.ts";
import {
  HOME_RECENT_JOBS,
  PUBLIC_PAGE_SIZE,
  SIMILAR_JOBS_FETCHED,
  SIMILAR_JOBS_SHOWN,
} from "../kv/constants.ts";
import { jobPath } from "../client/components/job-card.tsx";
import {
  type CachedPage,
  cachedPage,
  onceAnswer,
  pageAnswer,
  pageCache,
  type PageEncoding,
} from "./pages/cache.ts";
import {
  isCrawler,
  renderDocument,
  settledInTime,
  streamDocument,
  track,
  type Tracked,
} from "./pages/render.ts";
import { type PageMeta, SITE_NAME } from "./pages/document.tsx";
import { shareImagePath } from "./share-image.ts";
import { HomePage } from "./pages/home.tsx";
import { type JobListData, JobsPage } from "./pages/jobs.tsx";
import { type JobExtras, JobPage, NotFoundPage } from "./pages/job.tsx";
import { SavedPage } from "./pages/saved.tsx";
import {
  hasFilters,
  type ListQuery,
  listSearch,
  parseListQuery,
  searchOf,
  withoutTags,
} from "./pages/query.ts";
import { postedClock } from "../kv/jobs/catalogue.ts";
import {
  jobPosting,
  lastChange,
  robotsTxt,
  rssXml,
  SITEMAP_URLS,
  type SitemapEntry,
  sitemapFiles,
  sitemapIndexXml,
  sitemapXml,
} from "./pages/seo.ts";
import { textAnswer } from "../server/cache.ts";
import type { ActiveCatalog } from "../kv/jobs/catalogue.ts";
import { iconUrl } from "./icons.ts";

/** Newest jobs in the RSS feed. */
const FEED_ITEMS = 50;

const XML_HEADERS: [string, string][] = [["content-type", "application/xml; charset=UTF-8"]];
const RSS_HEADERS: [string, string][] = [["content-type", "application/rss+xml; charset=UTF-8"]];

/**
 * The origin absolute links are built on: SITE_URL, else the request's own when its host is one
 * the site answers to (ALLOWED_HOSTS, or this machine), else this machine. The Host header is the
 * client's to write, so it never puts another site's address into a page, a feed or a cache.
 */
export function publicOrigin(
  config: Pick<Config, "SITE_URL" | "ALLOWED_HOSTS" | "PORT">,
  requestUrl: string,
): string {
  if (config.SITE_URL) return config.SITE_URL;
  const url = new URL(requestUrl);
  const host = url.hostname.toLowerCase();
  const local = host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  return local || config.ALLOWED_HOSTS.includes(host)
    ? url.origin
    : `http://localhost:${config.PORT}`;
}

export function publicPages(services: Services) {
  const { jobs, counter, config } = services;
  const cache = pageCache(services.cache);
  /** Data being loaded for a page, shared by every request that misses the cache meanwhile. */
  const loading = new Map<string, Tracked<unknown>>();
  const app = new Hono<AppEnv>();

  const siteUrl = (c: Context) => publicOrigin(config, c.req.url);
  const jobUrl = (c: Context) => (job: Pick<Job, "jobId">) => `${siteUrl(c)}${jobPath(job)}`;

  /** View counts being read; visitors of one job at the same moment share the read. */
  const viewReads = new Map<string, Promise<number>>();

  function viewsOf(jobKey: string): Promise<number> {
    let read = viewReads.get(jobKey);
    if (!read) {
      read = jobs.analyticsOf([jobKey], { visitor: true }).then((counts) =>
        counts.get(jobKey)?.views ?? 0
      )
        .finally(() => viewReads.delete(jobKey));
      viewReads.set(jobKey, read);
    }
    return read;
  }

  const encodingOf = (c: Context): PageEncoding =>
    /\bgzip\b/.test(c.req.header("accept-encoding") ?? "") ? "gzip" : "identity";

  async function send(c: Context, page: CachedPage, views?: number): Promise<Response> {
    if (page.parts.length > 1 && views === undefined) views = await viewsOf(page.jobKey!);
    return pageAnswer(page, encodingOf(c), views ?? 0).response();
  }

  /**
   * Renders a page whose data `load` fetches: to a string when the data is quick (kept if the page
   * was asked for before), else as a stream with skeletons, and then the whole page is kept once
   * the data is in, for the next visitor.
   */
  async function renderPage<T>(
    c: Context,
    options: {
      key: string;
      revision: number;
      status: number;
      load: () => Promise<T>;
      page: (data: Promise<T>, cacheable: boolean) => ReactElement;
      jobKey?: string;
      views?: (data: T) => number;
      /** False for a page made without all its data (a cold start's job page): never kept. */
      keep?: boolean;
    },
  ): Promise<Response> {
    const keep = options.keep ?? true;
    const loadKey = `${options.revision} ${options.key}`;
    let data = loading.get(loadKey) as Tracked<T> | undefined;
    if (!data) {
      data = track(options.load());
      loading.set(loadKey, data);
      data.finally(() => loading.delete(loadKey)).catch(() => {});
    }
    const cacheWhole = () => {
      const cached = cache.get(options.key, options.revision);
      if (cached) return cached;
      const page = cachedPage(
        options.status,
        renderDocument(options.page(data, true)),
        options.jobKey,
      );
      cache.set(options.key, options.revision, page);
      return page;
    };
    if (!(await settledInTime(c, data))) {
      // Data this slow is worth keeping the page for at its first ask.
      if (keep) data.then(cacheWhole, () => {});
      return streamDocument(c, options.page(data, false), options.status);
    }
    const views = options.views?.(data.value!);
    if (keep && cache.askedBefore(options.key)) return send(c, cacheWhole(), views);
    const html = renderDocument(options.page(data, true));
    return onceAnswer(options.status, html, encodingOf(c), views);
  }

  /** The site's share image (1200 x 630): the preview of a link to any page. */
  const shareImage = (c: Context) => `${siteUrl(c)}${iconUrl("share.png")}`;

  function metaFor(c: Context, path: string, fields: Omit<PageMeta, "canonical">): PageMeta {
    return {
      openGraph: { type: "website", image: shareImage(c) },
      ...fields,
      canonical: `${siteUrl(c)}${path}`,
    };
  }

  app.get("/", async (c) => {
    counter.pageView(c);
    const key = `home ${siteUrl(c)}`;
    const revision = await jobs.revision();
    const hit = cache.get(key, revision);
    if (hit) return send(c, hit);
    const meta = metaFor(c, "/", {
      title: `${SITE_NAME} – Find Your Dream Job`,
      description:
        "Search jobs by keyword and location, filter by role, experience and employment type, and apply on the company's own page.",
    });
    return renderPage(c, {
      key,
      revision,
      status: 200,
      load: () => jobs.list({ page: 1, limit: HOME_RECENT_JOBS }).then((result) => result.jobs),
      page: (recent) => <HomePage meta={meta} recent={recent} timeZone={config.TIMEZONE} />,
    });
  });

  const searchJobs = (query: ListQuery, limit: number, now: number) =>
    jobs.search({
      ...searchOf(query),
      page: query.page,
      limit,
      sortBy: query.sortBy ?? "relevance",
      sortOrder: "desc",
      now,
    });

  app.get("/jobs", async (c) => {
    const url = new URL(c.req.url);
    const { search: asked, tags } = withoutTags(url.search);
    // Only canonical URLs are cached, so a hit needs no parsing of the query.
    const now = postedClock(services.now().getTime());
    const key = `jobs${asked} ${siteUrl(c)} ${now}`;
    const revision = await jobs.revision();
    const hit = cache.get(key, revision);
    if (hit) {
      counter.pageView(c);
      counter.search(c, url.searchParams.get("keywords") ?? undefined);
      return send(c, hit);
    }
    const query = parseListQuery(url.searchParams);
    const search = listSearch(query);
    // One URL per result page: empty fields of a no-script form and unknown values are dropped
    // (a campaign's tags are kept for the counter).
    if (asked !== search) {
      return c.redirect(`/jobs${search}${tags ? `${search ? "&" : "?"}${tags}` : ""}`, 302);
    }
    const results = searchJobs(query, PUBLIC_PAGE_SIZE, now);
    if (query.page > 1) {
      // A page past the end (an old link, a list that shrank) goes to the last page there is.
      const { totalPages } = (await results).pagination;
      if (query.page > totalPages) return c.redirect(`/jobs${listSearch(query, totalPages)}`, 302);
    }
    counter.pageView(c);
    counter.search(c, query.keywords);
    const filtered = hasFilters(query);
    // Search results are for the visitor who asked: search engines follow their links but do not
    // index them, and nothing the visitor typed is echoed into the page's description.
    const meta = metaFor(c, `/jobs${search}`, {
      title: `Find Your Next Job${query.page > 1 ? ` – Page ${query.page}` : ""} | ${SITE_NAME}`,
      description: filtered
        ? `Active job openings matching a search on ${SITE_NAME}.`
        : `Browse every active job opening on ${SITE_NAME}, newest first.`,
      noindex: filtered,
      feed: `/jobs/feed.xml${listSearch(query, 1)}`,
    });
    return renderPage(c, {
      key,
      revision,
      status: 200,
      load: async (): Promise<JobListData> => {
        const result = await results;
        const empty = result.pagination.totalJobs === 0 && filtered;
        return {
          ...result,
          looser: empty ? await jobs.looser({ ...searchOf(query), now }) : null,
        };
      },
      page: (data) => <JobsPage meta={meta} query={query} data={data} timeZone={config.TIMEZONE} />,
    });
  });

  /** A feed is built once per revision of the job data and kept with the pages. */
  app.get("/jobs/feed.xml", async (c) => {
    const query = { ...parseListQuery(new URL(c.req.url).searchParams), page: 1 };
    const search = listSearch(query);
    const now = postedClock(services.now().getTime());
    const answer = await services.cache.remember(
      `rss ${siteUrl(c)} ${search} ${now}`,
      await jobs.revision(),
      async () => {
        const { jobs: list } = await jobs.list({
          ...searchOf(query),
          page: 1,
          now,
          limit: FEED_ITEMS,
          sortBy: "datePosted",
          sortOrder: "desc",
        });
        return textAnswer(
          rssXml({
            title: `${SITE_NAME} – ${hasFilters(query) ? "Matching jobs" : "Latest jobs"}`,
            link: `${siteUrl(c)}/jobs${search}`,
            selfLink: `${siteUrl(c)}/jobs/feed.xml${search}`,
            jobs: list,
            jobUrl: jobUrl(c),
          }),
          RSS_HEADERS,
        );
      },
    );
    return answer.response();
  });

  /** 'Job Not Found': 404 for an unknown job, 410 for one that is no longer active. */
  const notFoundPage = (c: Context, job: Job | null) =>
    cachedPage(
      job ? 410 : 404,
      renderDocument(
        <NotFoundPage
          meta={metaFor(c, c.req.path, {
            title: `Job Not Found | ${SITE_NAME}`,
            description: "The position you're looking for doesn't exist or has been filled.",
            noindex: true,
          })}
        />,
      ),
    );

  app.get("/jobs/:id", async (c) => {
    const id = c.req.param("id");
    const key = `job ${id} ${siteUrl(c)}`;
    // A page kept under no revision is about to be rendered: its job and view count are read in
    // one trip to a nearby replica.
    const read = cache.holds(key) ? null : await jobs.pageRead(id);
    const revision = read?.revision ?? await jobs.revision();
    const hit = cache.get(key, revision);
    if (hit) {
      counter.pageView(c, hit.status === 200 ? hit.jobKey : undefined);
      return send(c, hit, read?.views);
    }
    const job = read?.job ?? await jobs.get(id, { visitor: true });
    if (!job || job.status !== "active") {
      counter.pageView(c);
      const page = notFoundPage(c, job);
      // Closed jobs are few and real, so their page is cached; unknown ids are anyone's guess.
      if (job) cache.set(key, revision, page);
      return send(c, page);
    }
    counter.pageView(c, job._id);
    const url = jobUrl(c)(job);
    const meta: PageMeta = {
      ...metaFor(c, jobPath(job), {
        title: `${job.role} at ${job.companyName} – ${job.location} | ${SITE_NAME}`,
        description:
          `${job.role} at ${job.companyName} in ${job.location}: ${job.employmentType}, ${job.experience} experience. Apply on ${SITE_NAME}.`,
        openGraph: { type: "article", image: `${siteUrl(c)}${shareImagePath(job)}` },
        structuredData: jobPosting(job, url),
      }),
      canonical: url,
    };
    // While a cold process loads its catalogue, a visitor gets the page at once with Similar Jobs
    // streamed in when it is ready; a crawler, which waits for whole pages, gets it from the job's
    // own record without them, and that page is not kept.
    const warm = jobs.loadedCatalog() !== null || !isCrawler(c);
    const extras = () =>
      Promise.all([
        warm ? jobs.similar(job, SIMILAR_JOBS_FETCHED, revision) : [],
        read?.views ?? viewsOf(job._id),
      ]).then((
        [similar, views],
      ): JobExtras => ({ similar: similar.slice(0, SIMILAR_JOBS_SHOWN), views }));
    return renderPage(c, {
      key,
      revision,
      status: 200,
      load: extras,
      keep: warm,
      jobKey: job._id,
      views: (data) => data.views,
      page: (data, cacheable) => (
        <JobPage
          meta={meta}
          job={job}
          url={url}
          extras={data}
          cacheable={cacheable}
          timeZone={config.TIMEZONE}
        />
      ),
    });
  });

  app.get("/jobs/:id/apply", async (c) => {
    const job = await jobs.get(c.req.param("id"), { visitor: true });
    // A link stored before links were checked strictly may not be usable: never redirect to it.
    const link = job?.status === "active" ? canonicalHiringLink(job.hiringLink) : null;
    if (!job || !link) return send(c, notFoundPage(c, job));
    await counter.durableClick(c, job._id);
    c.header("cache-control", "no-store");
    c.header("x-robots-tag", "noindex");
    return c.redirect(link, 303);
  });

  app.get("/saved", (c) => {
    counter.pageView(c);
    const meta = metaFor(c, "/saved", {
      title: `Saved Jobs | ${SITE_NAME}`,
      description: `The jobs you saved on ${SITE_NAME}, kept in your browser.`,
      noindex: true,
    });
    // The page is the same for everyone (the lists are filled in the browser): no job revision.
    return renderPage(c, {
      key: `saved ${siteUrl(c)}`,
      revision: 0,
      status: 200,
      load: () => Promise.resolve(null),
      page: () => <SavedPage meta={meta} />,
    });
  });

  app.get("/robots.txt", (c) => c.text(robotsTxt(siteUrl(c))));

  /**
   * Every URL the sitemaps list, in sitemaps of at most SITEMAP_URLS: the two list pages (changed
   * when any job last did), then every active job, newest first.
   */
  function sitemaps(c: Context, catalog: ActiveCatalog): SitemapEntry[][] {
    const jobUrls = catalog.list().map(({ job }) => ({
      loc: jobUrl(c)(job),
      lastmod: job.updatedAt,
    }));
    const changed = lastChange(jobUrls);
    return sitemapFiles([
      { loc: `${siteUrl(c)}/`, lastmod: changed },
      { loc: `${siteUrl(c)}/jobs`, lastmod: changed },
      ...jobUrls,
    ]);
  }

  /** The sitemap index and each sitemap are built once per revision of the job data. */
  app.get("/sitemap.xml", async (c) => {
    const catalog = await jobs.active();
    const answer = await services.cache.remember(
      `sitemap-index ${siteUrl(c)}`,
      catalog.revision,
      () =>
        textAnswer(
          sitemapIndexXml(
            sitemaps(c, catalog).map((urls, i) => ({
              loc: `${siteUrl(c)}/sitemaps/${i + 1}.xml`,
              lastmod: lastChange(urls),
            })),
          ),
          XML_HEADERS,
        ),
    );
    return answer.response();
  });

  app.get("/sitemaps/:file{[1-9][0-9]{0,5}\\.xml}", async (c) => {
    const number = parseInt(c.req.param("file"));
    const catalog = await jobs.active();
    // The two list pages come first, then every active job.
    if ((number - 1) * SITEMAP_URLS >= catalog.byId.size + 2) return c.text("Not found", 404);
    const answer = await services.cache.remember(
      `sitemap ${siteUrl(c)} ${number}`,
      catalog.revision,
      () => textAnswer(sitemapXml(sitemaps(c, catalog)[number - 1]), XML_HEADERS),
    );
    return answer.response();
  });

  app.get("/jobs/", (c) => c.redirect("/jobs", 301));

  // Mounted last in the app: any other public path goes home. A file probe that follows it is no
  // navigation, so the counter does not take it for a visit.
  app.get("*", (c) => c.redirect("/"));
  return app;
}
