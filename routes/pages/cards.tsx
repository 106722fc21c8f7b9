/**
 * Job cards as the lists show them, each rendered once and kept: a results page is mostly its
 * twelve cards, and a job on one search's first page is on many others'. A card is kept for the
 * very job object it was rendered from; the catalogue makes a new object whenever a job changes, so
 * a kept card can never show an old version of its job
 * (docs/decisions/030-job-cards-rendered-once-per-job-version.md).
 */
import type { Job } from "../../kv/schemas.ts";
import { BoundedCache, CACHE_BUDGETS, roughBytes } from "../../kv/bounded-cache.ts";
import { JobCard } from "../../client/components/job-card.tsx";
import { keptMarkup } from "./render.ts";

const cards = new BoundedCache<string>(CACHE_BUDGETS.jobCards, { admission: true });
const versions = new WeakMap<Job, number>();
let lastVersion = 0;

function versionOf(job: Job): number {
  let version = versions.get(job);
  if (version === undefined) versions.set(job, version = ++lastVersion);
  return version;
}

/** `job`'s card in a list item; `timeZone`: the site's, whose day the posting date is shown in. */
export function JobCardItem(
  { job, descriptionCut, timeZone }: { job: Job; descriptionCut: number; timeZone: string },
) {
  const key = `${descriptionCut} ${timeZone} ${job._id}`;
  const version = versionOf(job);
  let html = cards.get(key, version);
  if (html === undefined) {
    html = keptMarkup(
      <JobCard job={job} descriptionCut={descriptionCut} timeZone={timeZone} />,
    );
    cards.set(key, version, html, roughBytes(html));
  }
  // deno-lint-ignore react-no-danger -- React's own rendering of the card, escaped as the page is
  return <li dangerouslySetInnerHTML={{ __html: html }} />;
}
