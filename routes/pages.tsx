/**
 * The public site, one module per family of pages, each with its routes: the home page
 * (routes/pages/home.tsx), the job list (`jobs.tsx`), the RSS feed, robots.txt and the sitemaps
 * (`feeds.ts`), the job page and its apply link (`job.tsx`) and the saved jobs (`saved.tsx`); and a
 * redirect to `/` for any other path. Pages read the job store directly and are kept per URL for
 * one revision of the job data by the caching policy (routes/cache-policy.ts).
 */
import { Hono } from "hono";
import type { AppEnv, Services } from "../server/context.ts";
import { publicSite } from "./pages/site.ts";
import { takeTurns, Turns } from "../server/turns.ts";
import { homeRoutes } from "./pages/home.tsx";
import { jobListRoutes } from "./pages/jobs.tsx";
import { feedRoutes } from "./pages/feeds.ts";
import { jobPageRoutes } from "./pages/job.tsx";
import { savedRoutes } from "./pages/saved.tsx";

export { publicOrigin } from "./pages/site.ts";

/** The families in the order their routes are tried: the feed's path before a job's. */
const FAMILIES = [homeRoutes, jobListRoutes, feedRoutes, jobPageRoutes, savedRoutes];

export function publicPages(services: Services) {
  const site = publicSite(services);
  const app = new Hono<AppEnv>();
  // Mounted last in the app, so only the requests these routes answer take turns (server/turns.ts).
  app.use(takeTurns(new Turns()));
  for (const family of FAMILIES) app.route("/", family(site));

  // Mounted last in the app: any other public path goes home. A file probe that follows it is no
  // navigation, so the counter does not take it for a visit. A page's path with trailing slashes
  // (a shared link, `/jobs/JB-1001/`) goes to the page, with its query; never to another host
  // (`//evil.example/` would be one).
  app.get("*", (c) => {
    const url = new URL(c.req.url);
    const page = url.pathname.replace(/\/+$/, "");
    if (page !== url.pathname && /^\/[^/]/.test(page)) return c.redirect(page + url.search, 301);
    return c.redirect("/");
  });
  return app;
}
