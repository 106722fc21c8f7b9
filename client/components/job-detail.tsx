/** The job detail page's panels, rendered on the server with its islands. */
import type { ReactNode } from "react";
import { type Job, SKILL_GROUP_LABELS, SKILL_GROUPS } from "../../kv/schemas.ts";
import { companyPath, JobLogo, jobPath } from "./job-card.tsx";
import { formatPackage } from "./format.ts";
import { formatLongDate } from "./dates.ts";
import { expiryDay } from "../../kv/jobs/expiry.ts";
import { Island } from "./island.tsx";
import { ApplyButton, BackToJobs } from "../islands/apply.tsx";
import { ShareButton, ShareDialog } from "../islands/share.tsx";
import { SaveButton } from "../islands/save.tsx";
import type { ShareJob } from "./share.ts";

const REDIRECT_NOTE = "You'll be redirected to the company's application page";
const SHARE_DIALOG_ID = "share-dialog";

function Actions({ job }: { job: Job }) {
  return (
    <>
      <Island
        component={ApplyButton}
        props={{
          jobKey: job._id,
          href: `${jobPath(job)}/apply`,
          className: "btn btn-primary btn-lg",
        }}
      />
      <Island
        component={ShareButton}
        props={{ dialogId: SHARE_DIALOG_ID, className: "btn btn-secondary btn-lg" }}
      />
    </>
  );
}

/** The job's heading, its summary chips and its first apply, share and save buttons. */
function DetailHeader({ job }: { job: Job }) {
  return (
    <section className="panel detail-header" aria-labelledby="job-title">
      <div className="detail-heading">
        <JobLogo job={job} size={64} eager />
        <div>
          <h1 id="job-title" className="detail-title">{job.role}</h1>
          <p className="detail-company">
            <a href={companyPath(job.companyName)}>{job.companyName}</a>
          </p>
        </div>
      </div>
      <ul className="chip-list" aria-label="Job summary">
        <li className="chip chip-fact ico ico-pin">{job.location}</li>
        <li className="chip chip-fact ico ico-briefcase">{job.experience}</li>
        <li className="chip chip-fact ico ico-clock">{job.employmentType}</li>
        {job.workMode && <li className="chip chip-fact chip-mode">{job.workMode}</li>}
      </ul>
      <div className="action-row">
        <Actions job={job} />
        <Island
          component={SaveButton}
          props={{
            job: {
              id: job._id,
              jobId: job.jobId,
              role: job.role,
              companyName: job.companyName,
            },
            className: "btn btn-ghost btn-lg",
          }}
        />
      </div>
      <p className="muted small">{REDIRECT_NOTE}</p>
    </section>
  );
}

/** The package, description, qualifications and skills. */
function DetailBody({ job }: { job: Job }) {
  const skillGroups = SKILL_GROUPS.filter((group) => job.skills[group].length > 0);
  return (
    <>
      {job.estPackage && (
        <section className="panel package-panel" aria-labelledby="package-title">
          <h2 id="package-title" className="panel-title">Estimated Package</h2>
          <p className="package-figure">{formatPackage(job.estPackage)}</p>
        </section>
      )}

      <section className="panel" aria-labelledby="description-title">
        <h2 id="description-title" className="panel-title">Job Description</h2>
        <p className="prewrap">{job.description}</p>
      </section>

      <section className="panel" aria-labelledby="degree-title">
        <h2 id="degree-title" className="panel-title">Required Qualifications</h2>
        <p className="prewrap">{job.requiredDegree}</p>
      </section>

      {skillGroups.length > 0 && (
        <section className="panel" aria-labelledby="skills-title">
          <h2 id="skills-title" className="panel-title">Required Skills</h2>
          {skillGroups.map((group) => (
            <div key={group} className="skill-group">
              <h3 className="skill-group-title">{SKILL_GROUP_LABELS[group]}</h3>
              <ul className="chip-list tags">
                {job.skills[group].map((skill, i) => <li key={`${i}-${skill}`}>{skill}</li>)}
              </ul>
            </div>
          ))}
        </section>
      )}
    </>
  );
}

function ApplyPanel({ job, timeZone }: { job: Job; timeZone: string }) {
  return (
    <section className="panel apply-panel" aria-labelledby="apply-title">
      <h2 id="apply-title" className="panel-title">Interested in this job?</h2>
      {job.expiresAt && (
        <p className="apply-by">
          Apply by{" "}
          <time dateTime={expiryDay(job.expiresAt)}>
            {formatLongDate(job.expiresAt, timeZone)}
          </time>
        </p>
      )}
      <div className="action-row">
        <Actions job={job} />
      </div>
      <p className="muted small">{REDIRECT_NOTE}</p>
    </section>
  );
}

function JobInformation(
  { job, views, timeZone }: { job: Job; views: ReactNode; timeZone: string },
) {
  return (
    <section className="panel" aria-labelledby="info-title">
      <h2 id="info-title" className="panel-title">Job Information</h2>
      <dl className="info-list">
        <div>
          <dt>Job ID</dt>
          <dd>{job.jobId}</dd>
        </div>
        <div>
          <dt>Date Posted</dt>
          <dd>
            <time dateTime={job.datePosted}>{formatLongDate(job.datePosted, timeZone)}</time>
          </dd>
        </div>
        <div>
          <dt>Employment Type</dt>
          <dd>{job.employmentType}</dd>
        </div>
        <div>
          <dt>Experience Level</dt>
          <dd>{job.experience}</dd>
        </div>
        {job.workMode && (
          <div>
            <dt>Work Mode</dt>
            <dd>{job.workMode}</dd>
          </div>
        )}
        {job.category && (
          <div>
            <dt>Role Category</dt>
            <dd>
              <a href={`/jobs?${new URLSearchParams({ category: job.category })}`}>
                {job.category}
              </a>
            </dd>
          </div>
        )}
        <div>
          <dt>Views</dt>
          <dd>{views}</dd>
        </div>
      </dl>
    </section>
  );
}

export function JobDetail(
  { job, share, views, similar, timeZone }: {
    job: Job;
    share: ShareJob;
    /** The view count, or a placeholder filled per request when the page is served from cache. */
    views: ReactNode;
    similar: ReactNode;
    /** The site's: the posting date is shown as a day there. */
    timeZone: string;
  },
) {
  return (
    <div className="wrap page-body">
      <Island component={BackToJobs} props={{}} />
      <div className="detail-grid">
        <div className="detail-main">
          <DetailHeader job={job} />
          <DetailBody job={job} />
        </div>

        <aside className="detail-side" aria-label="About this job">
          <ApplyPanel job={job} timeZone={timeZone} />
          <JobInformation job={job} views={views} timeZone={timeZone} />
          <section className="panel" aria-labelledby="similar-title">
            <h2 id="similar-title" className="panel-title">Similar Jobs</h2>
            {similar}
          </section>
        </aside>
      </div>
      <Island
        component={ShareDialog}
        props={{ job: share, dialogId: SHARE_DIALOG_ID }}
      />
    </div>
  );
}

export function SimilarJobs({ jobs }: { jobs: Job[] }) {
  if (jobs.length === 0) return <p className="muted small">No similar jobs right now.</p>;
  return (
    <ul className="similar-list">
      {jobs.map((job) => (
        <li key={job._id} className="similar-item">
          <JobLogo job={job} size={40} />
          <div>
            <a href={jobPath(job)} className="similar-role">{job.role}</a>
            <p className="muted small">{job.companyName}</p>
            <p className="muted small">{job.location}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function JobNotFound() {
  return (
    <div className="wrap page-body not-found">
      <h1 className="page-title">Job Not Found</h1>
      <p className="muted">The position you're looking for doesn't exist or has been filled.</p>
      <a href="/jobs" className="btn btn-primary">Explore Other Jobs</a>
    </div>
  );
}
