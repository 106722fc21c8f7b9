/**
 * Plausible sources and search terms for the demo data and the benchmark: a day's visits spread over
 * search engines, social sites, newsletters and a few referring sites, and a day's searches over
 * the jobs' roles, with a few misspellings that find nothing.
 */
import type { Job } from "../schemas.ts";
import { DIMENSION_LIMITS, type DimensionRow } from "../analytics/dimensions.ts";
import { DIRECT } from "../analytics/sources.ts";

/** Shares of a day's visits by source; the rest is direct. */
const SOURCE_SHARES: [string, number][] = [
  ["Google", 0.38],
  ["LinkedIn", 0.12],
  ["WhatsApp", 0.07],
  ["Bing", 0.04],
  ["Newsletter / E-mail", 0.04],
  ["Facebook", 0.03],
  ["X (Twitter)", 0.02],
  ["DuckDuckGo", 0.015],
  ["Reddit", 0.01],
  ["naukri-forum.example", 0.005],
  ["campus-careers.example.edu", 0.004],
];
const CAMPAIGNS = ["weekly-digest", "campus-drive", "referral-week"];
const MISSPELLINGS = ["pyhton developer", "reactjs devloper", "data scienist", "blockchian"];

/** The searched terms of a set of jobs: their roles in lower case, each with how many it finds. */
export function searchedTerms(jobs: Job[]): [term: string, results: number][] {
  const roles = new Map<string, number>();
  for (const job of jobs) {
    if (job.status !== "active") continue;
    const role = job.role.toLowerCase();
    roles.set(role, (roles.get(role) ?? 0) + 1);
  }
  const terms = [...roles].sort((a, b) => b[1] - a[1])
    .slice(0, DIMENSION_LIMITS.searches - MISSPELLINGS.length);
  return [...terms, ...MISSPELLINGS.map((term): [string, number] => [term, 0])];
}

/** One day's sources for `visits` visits and searches of `terms`, as rows `recordDimensions` writes. */
export function insightDayRows(
  visits: number,
  terms: [string, number][],
  random: () => number,
): DimensionRow[] {
  const rows: DimensionRow[] = [];
  let left = visits;
  for (const [source, share] of SOURCE_SHARES) {
    const n = Math.min(left, Math.round(visits * share * (0.8 + 0.4 * random())));
    left -= n;
    if (n) rows.push({ dimension: "sources", value: source, add: { n } });
  }
  if (left) rows.push({ dimension: "sources", value: DIRECT, add: { n: left } });
  const shared = rows.find((row) => row.value === "WhatsApp")?.add.n ?? 0;
  if (shared) rows.push({ dimension: "utm_source", value: "whatsapp", add: { n: shared } });
  const mailed = rows.find((row) => row.value === "Newsletter / E-mail")?.add.n ?? 0;
  if (mailed) {
    rows.push({ dimension: "utm_source", value: "newsletter", add: { n: mailed } });
    const campaign = CAMPAIGNS[Math.floor(random() * CAMPAIGNS.length)];
    rows.push({ dimension: "utm_campaign", value: campaign, add: { n: mailed } });
  }
  for (const [term, results] of terms) {
    // A few terms are searched a lot, most a few times.
    const n = Math.floor(random() ** 3 * 40 * (results ? 1 : 0.3));
    if (n) {
      rows.push({
        dimension: "searches",
        value: term,
        add: { n, zero: results ? 0 : n },
        latest: { results },
      });
    }
  }
  return rows;
}
