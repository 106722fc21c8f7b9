/** `/`: the hero search, the newest jobs and How It Works; its route. */
import { Hono } from "hono";
import { Suspense, use } from "react";
import type { AppEnv } from "../../server/context.ts";
import type { Job } from "../../kv/schemas.ts";
import { HOME_DESCRIPTION_CUT, HOME_RECENT_JOBS } from "../../kv/constants.ts";
import { Island } from "../../client/components/island.tsx";
import { HeroSearch } from "../../client/islands/hero-search.tsx";
import { JobCardItem } from "./cards.tsx";
import { JobGridSkeleton } from "../../client/components/skeletons.tsx";
import { Document, type PageMeta, ReloadWithoutScript, SITE_NAME } from "./document.tsx";
import { answerKeys } from "../cache-policy.ts";
import type { PublicSite } from "./site.ts";

const STEPS = [
  {
    title: "Search & Discover",
    text: "Browse jobs by keyword, location, role, experience and employment type.",
  },
  {
    title: "Apply with Ease",
    text: "Open a job, read the details and apply on the company's own page in one click.",
  },
  {
    title: "Get Hired",
    text: "Hear back from the company, land the interview and start your next role.",
  },
];

function RecentJobs({ jobs, timeZone }: { jobs: Promise<Job[]>; timeZone: string }) {
  const list = use(jobs);
  if (list.length === 0) {
    return <p className="muted">No jobs have been posted yet. Check back soon.</p>;
  }
  return (
    <ul className="job-grid">
      {list.map((job) => (
        <JobCardItem
          key={job._id}
          job={job}
          descriptionCut={HOME_DESCRIPTION_CUT}
          timeZone={timeZone}
        />
      ))}
    </ul>
  );
}

export function HomePage(
  { meta, recent, timeZone }: { meta: PageMeta; recent: Promise<Job[]>; timeZone: string },
) {
  return (
    <Document meta={meta} section="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="wrap hero-inner">
          <h1 id="hero-title" className="hero-title">Find Your Dream Job</h1>
          <p className="hero-lead">
            Discover opportunities from leading companies and take the next step in your career.
          </p>
          <Island component={HeroSearch} props={{}} />
        </div>
      </section>

      <section className="wrap section" aria-labelledby="recent-title">
        <div className="section-head">
          <h2 id="recent-title" className="section-title">Recent Job Postings</h2>
          <p className="muted">The latest openings, fresh from our partner companies</p>
        </div>
        <Suspense
          fallback={
            <>
              <ReloadWithoutScript />
              <JobGridSkeleton count={HOME_RECENT_JOBS} label="Loading recent jobs" />
            </>
          }
        >
          <RecentJobs jobs={recent} timeZone={timeZone} />
        </Suspense>
        <p className="center section-more">
          <a href="/jobs" className="btn btn-primary btn-lg">View All Jobs</a>
        </p>
      </section>

      <section className="how" aria-labelledby="how-title">
        <div className="wrap section">
          <h2 id="how-title" className="section-title center">How It Works</h2>
          <ol className="steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="step">
                <span className="step-number" aria-hidden="true">{i + 1}</span>
                <h3 className="step-title">{step.title}</h3>
                <p className="muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </Document>
  );
}

export function homeRoutes(site: PublicSite) {
  const { services: { jobs, counter, config }, pages } = site;
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    counter.pageView(c);
    const key = answerKeys.home(site.origin(c));
    const revision = await jobs.revision();
    const hit = pages.get(key, revision);
    if (hit) return pages.send(c, hit);
    const meta = site.meta(c, "/", {
      title: `${SITE_NAME} – Find Your Dream Job`,
      description:
        "Search jobs by keyword and location, filter by role, experience and employment type, and apply on the company's own page.",
    });
    return pages.render(c, {
      key,
      revision,
      status: 200,
      load: () => jobs.list({ page: 1, limit: HOME_RECENT_JOBS }).then((result) => result.jobs),
      page: (recent) => <HomePage meta={meta} recent={recent} timeZone={config.TIMEZONE} />,
    });
  });
  return app;
}
