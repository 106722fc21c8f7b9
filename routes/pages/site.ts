/**
 * What every family of public pages shares: the services, the caching policy
 * (routes/cache-policy.ts), and the site's absolute links and page metadata.
 */
import type { Context } from "hono";
import type { Services } from "../../server/context.ts";
import type { Config } from "../../server/config.ts";
import type { Job } from "../../kv/schemas.ts";
import { jobPath } from "../../client/components/job-card.tsx";
import { PagePolicy } from "../cache-policy.ts";
import { iconUrl } from "../icons.ts";
import type { PageMeta } from "./document.tsx";

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

export interface PublicSite {
  services: Services;
  pages: PagePolicy;
  /** The origin of the site's absolute links for this request (`publicOrigin`). */
  origin(c: Context): string;
  jobUrl(c: Context, job: Pick<Job, "jobId">): string;
  /** A page's metadata: canonical at `path`, shared with the site's image unless `fields` say. */
  meta(c: Context, path: string, fields: Omit<PageMeta, "canonical">): PageMeta;
}

export function publicSite(services: Services): PublicSite {
  // Requests of one site share the start of their URL: its origin is worked out once, not on each.
  let last = { start: "", origin: "" };
  const origin = (c: Context) => {
    const url = c.req.url;
    const start = url.slice(0, url.indexOf("/", url.indexOf("//") + 2));
    if (start !== last.start) last = { start, origin: publicOrigin(services.config, url) };
    return last.origin;
  };
  return {
    services,
    pages: new PagePolicy(services),
    origin,
    jobUrl: (c, job) => `${origin(c)}${jobPath(job)}`,
    meta: (c, path, fields) => ({
      // The site's share image (1200 x 630): the preview of a link to any page.
      openGraph: { type: "website", image: `${origin(c)}${iconUrl("share.png")}` },
      ...fields,
      canonical: `${origin(c)}${path}`,
    }),
  };
}
