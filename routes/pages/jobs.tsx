/** `/jobs`: search, filters, results and pagination; its route. */
import { type Context, Hono } from "hono";
import { Suspense, use } from "react";
import type { AppEnv } from "../../server/context.ts";
import type { Pagination } from "../../kv/jobs/paging.ts";
import type { Counted, Facets } from "../../kv/search/search.ts";
import type { Loosenable } from "../../kv/search/looser.ts";
import { companyKey } from "../../kv/search/codes.ts";
import { parseKeywords } from "../../kv/search/query.ts";
import type { Job } from "../../kv/schemas.ts";
import { CARD_DESCRIPTION_CUT, PUBLIC_PAGE_SIZE } from "../../kv/constants.ts";
import { PUBLIC_FILTERS } from "../../kv/job-fields.ts";
import { Island } from "../../client/components/island.tsx";
import { type Choice, RESULTS_ID } from "../../client/components/search-forms.tsx";
import { Filters } from "../../client/islands/filters.tsx";
import { AlertForm } from "../../client/islands/alert.tsx";
import { describeSearch } from "../alerts/mail.tsx";
import { JobCardItem } from "./cards.tsx";
import { PageLinks } from "../../client/components/pagination.tsx";
import { JobGridSkeleton } from "../../client/components/skeletons.tsx";
import { formatCount } from "../../client/components/format.ts";
import { Document, type PageMeta, ReloadWithoutScript, SITE_NAME } from "./document.tsx";
import {
  hasFilters,
  type ListQuery,
  listQueryOf,
  listSearch,
  parseListQuery,
  postedInWords,
  salaryInWords,
  searchOf,
  withoutTags,
} from "./query.ts";
import { answerKeys, postedMinute } from "../cache-policy.ts";
import type { PublicSite } from "./site.ts";

export interface JobListData {
  jobs: Job[];
  pagination: Pagination;
  facets: Facets;
  /** Whether no job has every word searched for, and these have the most of them. */
  partial: boolean;
  /** For an empty result: the same search without one filter or word, when that finds jobs. */
  looser: { search: Loosenable; total: number } | null;
  /** The last minute (ms) the jobs and counts hold for (`SearchPage.until`). */
  until: number;
}

/** Each option with the number of jobs it would give: `Full-Time (42)`. */
const choices = (counted: Counted[]): Choice[] =>
  counted.map(([value, jobs]) => ({ value, label: `${value} (${formatCount(jobs)})` }));

/**
 * "3 LPA and up (42)": the salary bands giving jobs, and the chosen figure always, in its place
 * among them (an alert's link may ask a figure that is no band: it gives the jobs found).
 */
function salaryChoices(counted: Counted[], chosen: string | undefined, found: number): Choice[] {
  const all = !chosen || counted.some(([value]) => value === chosen)
    ? counted
    : [...counted, [chosen, found] as Counted].sort(([a], [b]) => Number(a) - Number(b));
  return all.filter(([value, jobs]) => jobs > 0 || value === chosen).map(([value, jobs]) => ({
    value,
    label: `${salaryInWords(value)} (${formatCount(jobs)})`,
  }));
}

/** "Last 24 hours (5)", "Last 7 days (40)". */
const postedChoices = (counted: Counted[]): Choice[] =>
  counted.map(([days, jobs]) => ({
    value: days,
    label: `${postedInWords(days)} (${formatCount(jobs)})`,
  }));

/** Each dropdown's options, by its query parameter. */
function panelChoices(facets: Facets, query: ListQuery, found: number): Record<string, Choice[]> {
  return {
    ...Object.fromEntries(
      PUBLIC_FILTERS.map(({ param, facet }) => [param, choices(facets[facet])]),
    ),
    payMin: salaryChoices(facets.salaries, query.payMin, found),
    postedWithin: postedChoices(facets.posted),
    company: choices(facets.companies),
  };
}

const LOOSENED: [keyof Loosenable & keyof ListQuery, string][] = [
  ["role", "without the role filter"],
  ["category", "without the role category filter"],
  ["workMode", "without the work mode filter"],
  ["experience", "without the experience filter"],
  ["employmentType", "without the employment type filter"],
  ["company", "at any company"],
  ["payMin", "at any salary"],
  ["postedWithin", "posted at any time"],
];

/** What a looser search leaves out, in the visitor's words. */
function loosened(query: ListQuery, search: Loosenable): string {
  const left = LOOSENED.find(([field]) => query[field] && search[field] === undefined);
  if (left) return left[1];
  if (query.experience && !search.experience) return "without the experience filter";
  if (query.employmentType && !search.employmentType) return "without the employment type filter";
  if (query.location && !search.location) return "in any location";
  return search.keywords ? `for “${search.keywords}”` : "without the keywords";
}

function Results(
  { query, data, timeZone }: { query: ListQuery; data: Promise<JobListData>; timeZone: string },
) {
  const { jobs, pagination, facets, looser, partial } = use(data);
  // A pay phrase in the keyword box (`3 lpa`) is the Salary filter when it asks for more than the
  // dropdown: said here, or the seeker would not know why well-paid jobs only are listed.
  const typedPay = parseKeywords(query.keywords).payMin ?? 0;
  const phrasePay = typedPay > Number(query.payMin ?? 0) ? typedPay : 0;
  const { totalJobs, currentPage } = pagination;
  const first = (currentPage - 1) * PUBLIC_PAGE_SIZE + 1;
  const last = first + jobs.length - 1;
  return (
    <>
      <Island
        component={Filters}
        props={{
          values: query,
          choices: panelChoices(facets, query, totalJobs),
        }}
        sent={{ values: query }}
      />
      <div className="results-head" id={RESULTS_ID}>
        <div aria-live="polite" aria-atomic="true">
          <h2 className="results-title">{`${formatCount(totalJobs)} Jobs Found`}</h2>
          {jobs.length > 0 && (
            <p className="muted">
              {`Showing ${formatCount(first)} - ${formatCount(last)} of ${
                formatCount(totalJobs)
              } results`}
            </p>
          )}
          {partial && (
            <p className="muted">
              No job has every word you searched for: these have the most of them.
            </p>
          )}
          {phrasePay > 0 && (
            <p className="muted">
              {`Pay ${
                salaryInWords(String(phrasePay))
              }: the pay in your search works as the Salary filter.`}
            </p>
          )}
        </div>
        <p className="muted small">Updated daily</p>
      </div>
      {jobs.length > 0
        ? (
          <ul className="job-grid">
            {jobs.map((job) => (
              <JobCardItem
                key={job._id}
                job={job}
                descriptionCut={CARD_DESCRIPTION_CUT}
                timeZone={timeZone}
              />
            ))}
          </ul>
        )
        : (
          <div className="empty-state">
            <h3 className="empty-title">No jobs found</h3>
            <p className="muted">
              We couldn't find any jobs matching your criteria. Try adjusting your search or
              filters.
            </p>
            {looser && (
              <p className="looser">
                <a href={`/jobs${listSearch(listQueryOf(looser.search, query.sortBy))}`}>
                  {`${formatCount(looser.total)} ${looser.total === 1 ? "job" : "jobs"} ${
                    loosened(query, looser.search)
                  }`}
                </a>
              </p>
            )}
            <a href="/jobs" className="btn btn-primary">Clear All Filters</a>
          </div>
        )}
      <PageLinks pagination={pagination} hrefFor={(page) => `/jobs${listSearch(query, page)}`} />
      <Island
        component={AlertForm}
        props={{
          search: alertSearch(query),
          description: describeSearch(alertSearch(query), true),
        }}
      />
    </>
  );
}

/** The list's search as an alert keeps it: its words and filters, not its page or order. */
function alertSearch(query: ListQuery): Record<string, string> {
  const { page: _page, sortBy: _sortBy, ...search } = query;
  return Object.fromEntries(
    Object.entries(search).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}

function ResultsSkeleton() {
  return (
    <div>
      <ReloadWithoutScript />
      <div className="filters skeleton-bar" aria-hidden="true" />
      <div className="results-head" id={RESULTS_ID}>
        <h2 className="results-title" aria-live="polite">Searching...</h2>
      </div>
      <JobGridSkeleton count={PUBLIC_PAGE_SIZE / 2} label="Loading jobs" />
    </div>
  );
}

export function JobsPage(
  { meta, query, data, timeZone }: {
    meta: PageMeta;
    query: ListQuery;
    data: Promise<JobListData>;
    timeZone: string;
  },
) {
  return (
    <Document meta={meta} section="jobs">
      <div className="page-head">
        <div className="wrap">
          {query.company
            ? (
              <>
                <h1 className="page-title">{`Jobs at ${query.company}`}</h1>
                <p className="muted">
                  Active openings at this company. <a href="/jobs">See every company's jobs</a>
                </p>
              </>
            )
            : (
              <>
                <h1 className="page-title">Find Your Next Job</h1>
                <p className="muted">
                  Search active openings and filter by role, experience, pay and work mode.
                </p>
              </>
            )}
        </div>
      </div>
      <div className="wrap page-body">
        <Suspense fallback={<ResultsSkeleton />}>
          <Results query={query} data={data} timeZone={timeZone} />
        </Suspense>
      </div>
    </Document>
  );
}

/**
 * The list's metadata. Search results are for the visitor who asked: search engines follow their
 * links but do not index them, and nothing the visitor typed is echoed into the description.
 */
function listMeta(site: PublicSite, c: Context, query: ListQuery): PageMeta {
  const filtered = hasFilters(query);
  return site.meta(c, `/jobs${listSearch(query)}`, {
    title: `Find Your Next Job${query.page > 1 ? ` – Page ${query.page}` : ""} | ${SITE_NAME}`,
    description: filtered
      ? `Active job openings matching a search on ${SITE_NAME}.`
      : `Browse every active job opening on ${SITE_NAME}, newest first.`,
    // A list in another order shows the same jobs as the unsorted one: no page of its own.
    noindex: filtered || query.sortBy !== undefined,
    feed: `/jobs/feed.xml${listSearch(query, 1)}`,
  });
}

export function jobListRoutes(site: PublicSite) {
  const { services, pages } = site;
  const { jobs, counter, config } = services;
  const app = new Hono<AppEnv>();

  const searchJobs = (query: ListQuery, now: number) =>
    jobs.search({
      ...searchOf(query),
      page: query.page,
      limit: PUBLIC_PAGE_SIZE,
      sortBy: query.sortBy ?? "relevance",
      sortOrder: "desc",
      now,
    });

  app.get("/jobs", async (c) => {
    // The request's URL is already in its parsed form: its query is read without parsing it again.
    const at = c.req.url.indexOf("?");
    const written = at < 0 ? "" : c.req.url.slice(at);
    const { search: asked, tags } = withoutTags(written.length > 1 ? written : "");
    // Only canonical URLs are cached, so a hit needs no parsing of the query.
    const now = postedMinute(services);
    const key = answerKeys.jobList(site.origin(c), asked);
    const revision = await jobs.revision();
    const hit = pages.get(key, revision);
    if (hit) {
      counter.pageView(c);
      counter.search(c);
      return pages.send(c, hit);
    }
    const query = parseListQuery(new URLSearchParams(written));
    // A company however written is the page of its name as its jobs give it, found by the search.
    let results = query.company ? searchJobs(query, now) : undefined;
    if (results) {
      const wanted = companyKey(query.company!);
      const named = (await results).facets.companies.find(([name]) => companyKey(name) === wanted);
      if (named) query.company = named[0];
    }
    const search = listSearch(query);
    // One URL per result page: empty fields of a no-script form and unknown values are dropped
    // (a campaign's tags are kept for the counter).
    if (asked !== search) {
      return c.redirect(`/jobs${search}${tags ? `${search ? "&" : "?"}${tags}` : ""}`, 302);
    }
    results ??= searchJobs(query, now);
    if (query.page > 1) {
      // A page past the end (an old link, a list that shrank) goes to the last page there is.
      const { totalPages } = (await results).pagination;
      if (query.page > totalPages) return c.redirect(`/jobs${listSearch(query, totalPages)}`, 302);
    }
    counter.pageView(c);
    counter.search(c);
    const meta = listMeta(site, c, query);
    return pages.render(c, {
      key,
      revision,
      status: 200,
      load: async (): Promise<JobListData> => {
        const result = await results;
        const empty = result.pagination.totalJobs === 0 && hasFilters(query);
        const looser = empty ? await jobs.looser({ ...searchOf(query), now }) : null;
        // A looser search's count holds for this minute: its own jobs were not looked at.
        return { ...result, looser, until: looser ? now : result.until };
      },
      until: (data) => data.until,
      page: (data) => <JobsPage meta={meta} query={query} data={data} timeZone={config.TIMEZONE} />,
    });
  });
  return app;
}
