/** A job in a list: the home page's recent jobs and the job list. */
import type { Job } from "../../kv/schemas.ts";
import { CARD_SKILL_CHIPS } from "../../kv/constants.ts";
import { cutText, formatPackage } from "./format.ts";
import { formatShortDate, siteDay } from "./dates.ts";
import { CompanyLogo } from "./company-logo.tsx";

/** The list of a company's active jobs. */
export function companyPath(companyName: string): string {
  return `/jobs?${new URLSearchParams({ company: companyName })}`;
}

export function jobPath(job: Pick<Job, "jobId">): string {
  return `/jobs/${encodeURIComponent(job.jobId)}`;
}

/** The company's logo over its first letter, at one of the sizes the public pages use. */
export function JobLogo(
  { job, size, eager }: { job: Job; size: 40 | 48 | 64; eager?: boolean },
) {
  return (
    <CompanyLogo
      name={job.companyName}
      logo={job.companyLogo}
      size={size}
      className={`logo logo-${size}`}
      eager={eager}
    />
  );
}

/** Up to 3 languages and 3 technologies; '+N more' counts the rest when a job has over 6 skills. */
export function SkillChips({ job }: { job: Job }) {
  const shown = [
    ...job.skills.languages.slice(0, CARD_SKILL_CHIPS),
    ...job.skills.technologies.slice(0, CARD_SKILL_CHIPS),
  ];
  const total = Object.values(job.skills).reduce((sum, list) => sum + list.length, 0);
  if (shown.length === 0 && total === 0) return null;
  return (
    <ul className="chip-list tags" aria-label="Skills">
      {shown.map((skill, i) => <li key={`${i}-${skill}`}>{skill}</li>)}
      {total > CARD_SKILL_CHIPS * 2 && <li className="more">{`+${total - shown.length} more`}</li>}
    </ul>
  );
}

/** `timeZone`: the site's, whose calendar day the posting date is shown in. */
export function JobCard(
  { job, descriptionCut, timeZone }: { job: Job; descriptionCut: number; timeZone: string },
) {
  const href = jobPath(job);
  return (
    <article className="job-card">
      <div className="card-top">
        <JobLogo job={job} size={48} />
        <div className="card-company">
          <p className="company-name">
            <a href={companyPath(job.companyName)} title={job.companyName}>{job.companyName}</a>
          </p>
          <p className="muted small ico ico-clock">
            <time dateTime={siteDay(job.datePosted, timeZone)}>
              {formatShortDate(job.datePosted, timeZone)}
            </time>
          </p>
        </div>
        <span className="badge">{job.employmentType}</span>
      </div>
      <h3 className="card-role">
        <a href={href}>{job.role}</a>
      </h3>
      <p className="card-facts">
        <span className="ico ico-pin">{job.location}</span>
        <span className="ico ico-briefcase">{job.experience}</span>
        {job.workMode && <span className="chip chip-mode">{job.workMode}</span>}
      </p>
      <p className="card-description">{cutText(job.description, descriptionCut)}</p>
      <SkillChips job={job} />
      <div className="card-bottom">
        {job.estPackage ? <p className="package">{formatPackage(job.estPackage)}</p> : <span />}
        <a href={href} className="link-arrow">
          View Details<span className="sr-only">{`: ${job.role} at ${job.companyName}`}</span>
        </a>
      </div>
    </article>
  );
}
