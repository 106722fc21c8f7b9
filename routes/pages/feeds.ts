/**
 * The site's machine-read answers: the RSS feed of a list (`/jobs/feed.xml`), robots.txt, the
 * sitemap index and the sitemaps, each built once per revision of the job data and kept with the
 * pages (the formats: routes/pages/seo.ts).
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../server/context.ts";
import { textAnswer } from "../../server/cache.ts";
import type { ActiveCatalog } from "../../kv/jobs/catalogue.ts";
import { answerKeys, postedMinute, rememberSearch } from "../cache-policy.ts";
import { FEED_ITEMS } from "../../kv/constants.ts";
import { SITE_NAME } from "./document.tsx";
import { hasFilters, listSearch, parseListQuery, searchOf } from "./query.ts";
import {
  lastChange,
  robotsTxt,
  rssXml,
  SITEMAP_URLS,
  type SitemapEntry,
  sitemapFiles,
  sitemapIndexXml,
  sitemapXml,
} from "./seo.ts";
import type { PublicSite } from "./site.ts";

const XML_HEADERS: [string, string][] = [["content-type", "application/xml; charset=UTF-8"]];
const RSS_HEADERS: [string, string][] = [["content-type", "application/rss+xml; charset=UTF-8"]];

/**
 * Every URL the sitemaps list, in sitemaps of at most SITEMAP_URLS: the two list pages (changed
 * when any job last did), then every active job, newest first.
 */
function sitemaps(site: PublicSite, c: Context, catalog: ActiveCatalog): SitemapEntry[][] {
  const jobUrls = catalog.list().map(({ job }) => ({
    loc: site.jobUrl(c, job),
    lastmod: job.updatedAt,
  }));
  const changed = lastChange(jobUrls);
  return sitemapFiles([
    { loc: `${site.origin(c)}/`, lastmod: changed },
    { loc: `${site.origin(c)}/jobs`, lastmod: changed },
    ...jobUrls,
  ]);
}

export function feedRoutes(site: PublicSite) {
  const { services } = site;
  const { jobs, cache } = services;
  const app = new Hono<AppEnv>();

  app.get("/jobs/feed.xml", async (c) => {
    const query = { ...parseListQuery(new URL(c.req.url).searchParams), page: 1 };
    const search = listSearch(query);
    const now = postedMinute(services);
    const origin = site.origin(c);
    const answer = await rememberSearch(
      cache,
      answerKeys.feed(origin, search),
      await jobs.revision(),
      now,
      async () => {
        // A feed lists the jobs its search matches, never the partial matches a page offers.
        const { jobs: found, partial, until } = await jobs.list({
          ...searchOf(query),
          page: 1,
          now,
          limit: FEED_ITEMS,
          sortBy: "datePosted",
          sortOrder: "desc",
        });
        const answer = textAnswer(
          rssXml({
            title: `${SITE_NAME} – ${hasFilters(query) ? "Matching jobs" : "Latest jobs"}`,
            link: `${origin}/jobs${search}`,
            selfLink: `${origin}/jobs/feed.xml${search}`,
            jobs: partial ? [] : found,
            jobUrl: (job) => site.jobUrl(c, job),
          }),
          RSS_HEADERS,
        );
        return { answer, until };
      },
    );
    return answer.response(c);
  });

  app.get("/robots.txt", (c) => c.text(robotsTxt(site.origin(c))));

  app.get("/sitemap.xml", async (c) => {
    const catalog = await jobs.active();
    const answer = await cache.remember(
      answerKeys.sitemapIndex(site.origin(c)),
      catalog.revision,
      () =>
        textAnswer(
          sitemapIndexXml(
            sitemaps(site, c, catalog).map((urls, i) => ({
              loc: `${site.origin(c)}/sitemaps/${i + 1}.xml`,
              lastmod: lastChange(urls),
            })),
          ),
          XML_HEADERS,
        ),
    );
    return answer.response(c);
  });

  app.get("/sitemaps/:file{[1-9][0-9]{0,5}\\.xml}", async (c) => {
    const number = parseInt(c.req.param("file"));
    const catalog = await jobs.active();
    // The two list pages come first, then every active job.
    if ((number - 1) * SITEMAP_URLS >= catalog.byId.size + 2) return c.text("Not found", 404);
    const answer = await cache.remember(
      answerKeys.sitemap(site.origin(c), number),
      catalog.revision,
      () => textAnswer(sitemapXml(sitemaps(site, c, catalog)[number - 1]), XML_HEADERS),
    );
    return answer.response(c);
  });
  return app;
}
