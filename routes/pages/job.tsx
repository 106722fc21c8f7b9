/** `/jobs/{id}`: the job detail page, and the 'Job Not Found' page for unknown and closed jobs. */
import { Suspense, use } from "react";
import { type Job, SKILL_GROUP_LABELS, SKILL_GROUPS } from "../../kv/schemas.ts";
import { JobDetail, JobNotFound, SimilarJobs } from "../../client/components/job-detail.tsx";
import { LineSkeleton } from "../../client/components/skeletons.tsx";
import { formatCount } from "../../client/components/format.ts";
import type { ShareJob } from "../../client/components/share.ts";
import { Document, type PageMeta, ReloadWithoutScript } from "./document.tsx";
import { VIEWS_PLACEHOLDER } from "./cache.ts";

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
