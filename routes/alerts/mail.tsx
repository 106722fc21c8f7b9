/**
 * The job alert mails: the confirmation and the digest, each as plain text and HTML (React,
 * which escapes every text), with the site's name and postal address and the unsubscribe and
 * manage links.
 */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Alert, AlertQuery } from "../../kv/alerts.ts";
import type { Job } from "../../kv/schemas.ts";
import { PENDING_ALERT_DAYS } from "../../kv/constants.ts";
import type { Mail } from "../../server/mail.ts";
import { POSTAL_ADDRESS } from "../../client/components/site.tsx";
import { jobPath } from "../../client/components/job-card.tsx";
import { SITE_NAME } from "../pages/document.tsx";
import { listSearch, postedInWords, salaryInWords } from "../pages/query.ts";

/** The alert's search in words: its quoted keywords, where (`at Acme in Pune`), the rest. */
function searchWords(query: AlertQuery) {
  const { keywords, location, company, payMin, postedWithin, ...filters } = query;
  return {
    keywords: keywords && `“${keywords}”`,
    where: [company && `at ${company}`, location && `in ${location}`].filter(Boolean).join(" "),
    rest: [
      ...Object.values(filters),
      payMin && salaryInWords(payMin),
      postedWithin && `Posted in the ${postedInWords(postedWithin).toLowerCase()}`,
    ].filter(Boolean),
  };
}

/**
 * The alert's search in words, to read after "for" (`No more mails for …`): `“python” at Acme in
 * Pune · Full-Time · 10 LPA and up · Posted in the last 7 days`, `jobs at Acme`, `all jobs`; with
 * `atStart`, as the start of a line (`Jobs at Acme`, `All jobs`).
 */
export function describeSearch(query: AlertQuery, atStart = false): string {
  const { keywords, where, rest } = searchWords(query);
  const head = keywords || (where && (atStart ? "Jobs" : "jobs"));
  const parts = [[head, where].filter(Boolean).join(" "), ...rest].filter(Boolean);
  return parts.length ? parts.join(" · ") : `${atStart ? "All" : "all"} jobs`;
}

/** A digest's count and search as one line: `2 new jobs at Acme · Remote`, `1 new job for “go”`. */
function countedSearch(count: string, query: AlertQuery): string {
  const { keywords, where, rest } = searchWords(query);
  return [`${count}${keywords ? ` for ${keywords}` : ""}${where ? ` ${where}` : ""}`, ...rest]
    .join(" · ");
}

/** The job list of the alert's search, newest first. */
export function searchUrl(site: string, query: AlertQuery): string {
  return `${site}/jobs${listSearch({ ...query, sortBy: "datePosted", page: 1 })}`;
}

export interface MailLinks {
  unsubscribe: string;
  manage: string;
}

/** Links to the alert pages, each with its token. */
export const alertLink = (site: string, page: string, token: string) =>
  `${site}/alerts/${page}?token=${encodeURIComponent(token)}`;

export const STYLE = {
  body: { fontFamily: "Arial, sans-serif", color: "#0f172a", lineHeight: 1.5 },
  muted: { color: "#475569", fontSize: "13px" },
  button: {
    display: "inline-block",
    background: "#4f46e5",
    color: "#ffffff",
    padding: "10px 18px",
    borderRadius: "8px",
    textDecoration: "none",
  },
};

export function Frame({ children, footer }: { children: ReactNode; footer: ReactNode }) {
  return (
    <html lang="en">
      <body style={STYLE.body}>
        <h1 style={{ fontSize: "20px" }}>{SITE_NAME}</h1>
        {children}
        <hr />
        <div style={STYLE.muted}>
          {footer}
          <p>
            {SITE_NAME}, {POSTAL_ADDRESS.join(", ")}
          </p>
        </div>
      </body>
    </html>
  );
}

export const html = (element: ReactNode) => `<!DOCTYPE html>${renderToStaticMarkup(element)}`;
export const textFooter = (lines: string[]) =>
  ["", "-- ", ...lines, `${SITE_NAME}, ${POSTAL_ADDRESS.join(", ")}`].join("\n");

export function confirmationMail(
  site: string,
  alert: Alert,
  confirm: string,
  links: MailLinks,
): Mail {
  const search = describeSearch(alert.query);
  const url = alertLink(site, "confirm", confirm);
  const intro = `Someone, we hope you, asked ${SITE_NAME} to e-mail this address new jobs for: ` +
    `${search} (${alert.frequency}).`;
  const ignore = "Nothing is sent before you confirm. If it was not you, ignore this mail: the " +
    `request is deleted in ${PENDING_ALERT_DAYS} days.`;
  return {
    to: alert.email,
    subject: `Confirm your job alert on ${SITE_NAME}`,
    unsubscribe: links.unsubscribe,
    text: [
      intro,
      "",
      `Confirm the alert: ${url}`,
      "",
      ignore,
      textFooter([
        `Cancel this request: ${links.unsubscribe}`,
        `Manage your alerts: ${links.manage}`,
      ]),
    ].join("\n"),
    html: html(
      <Frame
        footer={
          <p>
            <a href={links.unsubscribe}>Cancel this request</a> ·{" "}
            <a href={links.manage}>Manage your alerts</a>
          </p>
        }
      >
        <p>{intro}</p>
        <p>
          <a href={url} style={STYLE.button}>Confirm the alert</a>
        </p>
        <p style={STYLE.muted}>{ignore}</p>
      </Frame>,
    ),
  };
}

export function digestMail(
  site: string,
  alert: Alert,
  jobs: Job[],
  more: boolean,
  links: MailLinks,
): Mail {
  const search = describeSearch(alert.query);
  const all = searchUrl(site, alert.query);
  const counted = countedSearch(
    `${jobs.length}${more ? "+" : ""} new ${jobs.length === 1 && !more ? "job" : "jobs"}`,
    alert.query,
  );
  const facts = (job: Job) =>
    [job.companyName, job.location, job.employmentType, job.experience].join(" · ");
  const why =
    `You get this ${alert.frequency} mail because you confirmed a job alert for: ${search}.`;
  return {
    to: alert.email,
    subject: `${counted} | ${SITE_NAME}`,
    unsubscribe: links.unsubscribe,
    text: [
      `${counted}:`,
      "",
      ...jobs.flatMap((job) => [job.role, facts(job), `${site}${jobPath(job)}`, ""]),
      `${more ? "More new jobs and all" : "All"} jobs for this search: ${all}`,
      textFooter([
        why,
        `Unsubscribe: ${links.unsubscribe}`,
        `Manage your alerts: ${links.manage}`,
      ]),
    ].join("\n"),
    html: html(
      <Frame
        footer={
          <>
            <p>{why}</p>
            <p>
              <a href={links.unsubscribe}>Unsubscribe</a> ·{" "}
              <a href={links.manage}>Manage your alerts</a>
            </p>
          </>
        }
      >
        <p>{`${counted}:`}</p>
        <ul style={{ paddingLeft: "18px" }}>
          {jobs.map((job) => (
            <li key={job._id} style={{ marginBottom: "12px" }}>
              <a href={`${site}${jobPath(job)}`} style={{ fontWeight: "bold" }}>{job.role}</a>
              <br />
              <span style={STYLE.muted}>{facts(job)}</span>
            </li>
          ))}
        </ul>
        <p>
          <a href={all} style={STYLE.button}>
            {more ? "See more new jobs and all for this search" : "See all jobs for this search"}
          </a>
        </p>
      </Frame>,
    ),
  };
}
