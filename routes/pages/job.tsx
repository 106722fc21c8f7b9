/**
 * `/jobs/{id}`: the job detail page, and the 'Job Not Found' page for unknown and closed jobs; its
 * routes, with the no-script apply link `/jobs/{id}/apply`.
 */
import { type Context, Hono } from "hono";
import { Suspense, use } from "react";
import type { AppEnv } from "../../server/context.ts";
import {
  canonicalHiringLink,
  type Job,
  SKILL_GROUP_LABELS,
  SKILL_GROUPS,
} from "../../kv/schemas.ts";
import { SIMILAR_JOBS_FETCHED, SIMILAR_JOBS_SHOWN } from "../../kv/constants.ts";
import { jobPath } from "../../client/components/job-card.tsx";
import { JobDetail, JobNotFound, SimilarJobs } from "../../client/components/job-detail.tsx";
import { LineSkeleton } from "../../client/components/skeletons.tsx";
import { formatCount } from "../../client/components/format.ts";
import type { ShareJob } from "../../client/components/share.ts";
import { Document, type PageMeta, ReloadWithoutScript, SITE_NAME } from "./document.tsx";
import { cachedPage, VIEWS_PLACEHOLDER } from "./cache.ts";
import { isCrawler, renderDocument } from "./render.ts";
import { jobPosting } from "./seo.ts";
import { shareImagePath } from "../share-image.ts";
import { answerKeys } from "../cache-policy.ts";
import type { PublicSite } from "./site.ts";

export interface JobExtras {
  similar: Job[];
  views: number;
}

function Similar({ extras }: { extras: Promise<JobExtras> }) {
  return <SimilarJobs jobs={use(extras).similar} />;
}

function Views({ extras }: { extras: Promise<JobExtras> }) {
  return <>{formatCount(use(extras).views)}</>;
}

export function shareJob(job: Job, url: string): ShareJob {
  const { role, companyName, location, experience, employmentType, estPackage } = job;
  const skillGroups = SKILL_GROUPS.map((group) => ({
    label: SKILL_GROUP_LABELS[group],
    skills: job.skills[group],
  }));
  return { role, companyName, location, experience, employmentType, estPackage, skillGroups, url };
}

/**
 * With `cacheable`, the view count is left as a placeholder that each response fills in, so one
 * rendering serves every visitor until the job data changes.
 */
export function JobPage(
  { meta, job, url, extras, cacheable, timeZone }: {
    meta: PageMeta;
    job: Job;
    url: string;
    extras: Promise<JobExtras>;
    cacheable: boolean;
    timeZone: string;
  },
) {
  const views = cacheable
    ? (
      // deno-lint-ignore react-no-danger -- a constant comment that no escaped job text can match
      <span dangerouslySetInnerHTML={{ __html: VIEWS_PLACEHOLDER }} />
    )
    : (
      <Suspense fallback={<LineSkeleton label="Loading views" />}>
        <Views extras={extras} />
      </Suspense>
    );
  return (
    <Document meta={meta} section="jobs">
      <JobDetail
        job={job}
        share={shareJob(job, url)}
        views={views}
        timeZone={timeZone}
        similar={
          <Suspense
            fallback={
              <>
                <ReloadWithoutScript />
                <LineSkeleton label="Loading similar jobs" />
              </>
            }
          >
            <Similar extras={extras} />
          </Suspense>
        }
      />
    </Document>
  );
}

export function NotFoundPage({ meta }: { meta: PageMeta }) {
  return (
    <Document meta={meta} section="jobs">
      <JobNotFound />
    </Document>
  );
}

/** 'Job Not Found': 404 for an unknown job, 410 for one that is no longer active. */
const notFoundPage = (site: PublicSite, c: Context, job: Job | null) =>
  cachedPage(
    job ? 410 : 404,
    renderDocument(
      <NotFoundPage
        meta={site.meta(c, c.req.path, {
          title: `Job Not Found | ${SITE_NAME}`,
          description: "The position you're looking for doesn't exist or has been filled.",
          noindex: true,
        })}
      />,
    ),
  );

function jobMeta(site: PublicSite, c: Context, job: Job, url: string): PageMeta {
  return {
    ...site.meta(c, jobPath(job), {
      title: `${job.role} at ${job.companyName} – ${job.location} | ${SITE_NAME}`,
      description:
        `${job.role} at ${job.companyName} in ${job.location}: ${job.employmentType}, ${job.experience} experience. Apply on ${SITE_NAME}.`,
      openGraph: { type: "article", image: `${site.origin(c)}${shareImagePath(job)}` },
      structuredData: jobPosting(job, url),
    }),
    canonical: url,
  };
}

/**
 * The page of an active job, rendered and kept under `key` for `revision`; `views` is the count
 * read with the job, if it was.
 */
function renderJobPage(
  site: PublicSite,
  c: Context,
  job: Job,
  kept: { key: string; revision: number; views?: number; similar?: Job[] },
) {
  const { jobs, config } = site.services;
  const url = site.jobUrl(c, job);
  const meta = jobMeta(site, c, job, url);
  // While a cold process loads its catalogue, a visitor gets the page at once with Similar Jobs
  // streamed in when it is ready; a crawler, which waits for whole pages, gets it from the job's
  // own record without them, and that page is not kept.
  const warm = jobs.loadedCatalog() !== null || !isCrawler(c);
  const extras = () =>
    Promise.all([
      kept.similar ?? (warm ? jobs.similar(job, SIMILAR_JOBS_FETCHED, kept.revision) : []),
      kept.views ?? site.pages.viewsOf(job._id),
    ]).then((
      [similar, views],
    ): JobExtras => ({ similar: similar.slice(0, SIMILAR_JOBS_SHOWN), views }));
  return site.pages.render(c, {
    key: kept.key,
    revision: kept.revision,
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
}

/**
 * The address of a job number written in other capitals (`jb-1042`, as typed or read out), with
 * the rest of the path and the query; null for any other id. The job is stored under its number as
 * shown, so without it the visitor would read that an open job does not exist.
 */
function asShown(c: Context): string | null {
  const id = c.req.param("id") ?? "";
  if (id.startsWith("JB-") || !/^jb-\d+$/i.test(id)) return null;
  const url = new URL(c.req.url);
  return url.pathname.replace(`/jobs/${id}`, `/jobs/${id.toUpperCase()}`) + url.search;
}

export function jobPageRoutes(site: PublicSite) {
  const { services: { jobs, counter }, pages } = site;
  const app = new Hono<AppEnv>();

  app.get("/jobs/:id", async (c) => {
    const shown = asShown(c);
    if (shown) return c.redirect(shown, 301);
    const id = c.req.param("id");
    const key = answerKeys.job(site.origin(c), id);
    // A page kept under no revision is about to be rendered: its job and view count are read in
    // one trip to a nearby replica, and its Similar Jobs found meanwhile.
    const read = pages.holds(key) ? null : await jobs.pageRead(id);
    const revision = read?.revision ?? await jobs.revision();
    const hit = pages.get(key, revision);
    if (hit) {
      counter.pageView(c, hit.status === 200 ? hit.jobKey : undefined);
      return pages.send(c, hit, read?.views);
    }
    const job = read?.job ?? await jobs.get(id, { visitor: true });
    if (!job || job.status !== "active") {
      counter.pageView(c);
      const page = notFoundPage(site, c, job);
      // Closed jobs are few and real, so their page is cached; unknown ids are anyone's guess.
      if (job) pages.keep(key, revision, page);
      return pages.send(c, page);
    }
    counter.pageView(c, job._id);
    return renderJobPage(site, c, job, {
      key,
      revision,
      views: read?.views,
      similar: read?.similar,
    });
  });

  app.get("/jobs/:id/apply", async (c) => {
    const shown = asShown(c);
    if (shown) return c.redirect(shown, 301);
    const job = await jobs.get(c.req.param("id"), { visitor: true });
    // A link stored before links were checked strictly may not be usable: never redirect to it.
    const link = job?.status === "active" ? canonicalHiringLink(job.hiringLink) : null;
    if (!job || !link) return pages.send(c, notFoundPage(site, c, job));
    await counter.durableClick(c, job._id);
    c.header("cache-control", "no-store");
    c.header("x-robots-tag", "noindex");
    return c.redirect(link, 303);
  });
  return app;
}
