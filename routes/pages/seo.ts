/**
 * What search engines read: schema.org JobPosting data for Google for Jobs, the sitemap, robots.txt
 * and the RSS feed. Job text is escaped for the format it lands in, so it always stays text.
 */
import type { Job } from "../../kv/schemas.ts";
import { DAY_MS, DAYS_ACTIVE_BEFORE_DUMP } from "../../kv/constants.ts";
import { SITE_NAME } from "./document.tsx";
import { countryName, DEFAULT_COUNTRY, type JobPlace, placesOf } from "../../kv/place.ts";
import type { Pay } from "../../kv/jobs/pay.ts";

/** Google's employmentType values for ours. */
const GOOGLE_EMPLOYMENT_TYPES: Record<string, string> = {
  "Full-Time": "FULL_TIME",
  "Part-Time": "PART_TIME",
  "Contract": "CONTRACTOR",
  "Internship": "INTERN",
  "Freelance": "CONTRACTOR",
};

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** XML 1.0 text: escaped, and stripped of the control characters XML cannot hold. */
export function escapeXml(text: string): string {
  // deno-lint-ignore no-control-regex
  return escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ""));
}

/**
 * The end of the job's expiry day in TIMEZONE (stored with its offset); without one, the date it
 * leaves the active list, unless an admin renews it first.
 */
export function validThrough(job: Job): string {
  if (job.expiresAt) return job.expiresAt;
  return new Date(Date.parse(job.datePosted) + DAYS_ACTIVE_BEFORE_DUMP * DAY_MS).toISOString();
}

/**
 * Where the job is: an address for each city its location names, with its state. A remote job is
 * TELECOMMUTE, with the country its applicants must live in (India unless the location names
 * another), and keeps the addresses of the cities it may be worked from too ("Remote or
 * Hyderabad"), as Google allows; any other job has at least its country.
 */
function jobPlace(job: Job) {
  const places = placesOf(job.location);
  const addresses = places.flatMap((place) =>
    !place.remote && (place.locality || place.region) ? [address(place)] : []
  );
  const jobLocation = addresses.length === 1 ? addresses[0] : addresses;
  if (job.workMode === "Remote") {
    const named = places.find((place) => place.remote && place.country !== DEFAULT_COUNTRY);
    return {
      jobLocationType: "TELECOMMUTE",
      applicantLocationRequirements: {
        "@type": "Country",
        name: countryName(named?.country ?? DEFAULT_COUNTRY),
      },
      ...(addresses.length ? { jobLocation } : {}),
    };
  }
  return {
    jobLocation: addresses.length
      ? jobLocation
      : address({ remote: false, country: places[0].country }),
  };
}

function address(place: Extract<JobPlace, { remote: false }>) {
  return {
    "@type": "Place",
    address: {
      "@type": "PostalAddress",
      ...(place.locality ? { addressLocality: place.locality } : {}),
      ...(place.region ? { addressRegion: place.region } : {}),
      addressCountry: place.country,
    },
  };
}

const UNIT_TEXT = { year: "YEAR", month: "MONTH", hour: "HOUR" } as const;

/** The job's pay as Google reads it: a range, or a single figure as `value`; null without pay. */
function baseSalary(pay: Pay | null | undefined) {
  if (!pay) return null;
  const { min, max } = pay;
  const figures = min !== null && max !== null && min !== max
    ? { minValue: min, maxValue: max }
    : min !== null && max !== null
    ? { value: min }
    : min !== null
    ? { minValue: min }
    : { maxValue: max };
  return {
    "@type": "MonetaryAmount",
    currency: pay.currency,
    value: { "@type": "QuantitativeValue", ...figures, unitText: UNIT_TEXT[pay.period] },
  };
}

/** schema.org JobPosting as Google for Jobs asks for it; only for active jobs. */
export function jobPosting(job: Job, url: string) {
  const salary = baseSalary(job.pay);
  const skills = Object.values(job.skills).flat();
  return {
    "@context": "https://schema.org/",
    "@type": "JobPosting",
    title: job.role,
    // Google reads the description as HTML: escaped, so job text can only ever be text.
    description: `<p>${escapeHtml(job.description).replaceAll("\n", "<br>")}</p>`,
    datePosted: job.datePosted,
    validThrough: validThrough(job),
    employmentType: GOOGLE_EMPLOYMENT_TYPES[job.employmentType] ?? "OTHER",
    hiringOrganization: {
      "@type": "Organization",
      name: job.companyName,
      ...(job.companyLogo ? { logo: job.companyLogo } : {}),
    },
    ...jobPlace(job),
    identifier: { "@type": "PropertyValue", name: job.companyName, value: job.jobId },
    ...(salary ? { baseSalary: salary } : {}),
    educationRequirements: job.requiredDegree,
    ...(skills.length ? { skills: skills.join(", ") } : {}),
    url,
    directApply: false,
  };
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /jobs/*/apply",
    "Allow: /",
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** The sitemap protocol's limit of URLs in one sitemap. */
export const SITEMAP_URLS = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

const lastmodTag = (
  lastmod?: string,
) => (lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : "");

/** A sitemap: at most SITEMAP_URLS pages, each with when it last changed. */
export function sitemapXml(urls: SitemapEntry[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map(({ loc, lastmod }) =>
      `<url><loc>${escapeXml(loc)}</loc>${lastmodTag(lastmod)}</url>`
    ),
    "</urlset>",
    "",
  ].join("\n");
}

/** URLs in sitemaps of at most SITEMAP_URLS each, in order. */
export function sitemapFiles(urls: SitemapEntry[]): SitemapEntry[][] {
  const files: SitemapEntry[][] = [];
  for (let i = 0; i < urls.length; i += SITEMAP_URLS) files.push(urls.slice(i, i + SITEMAP_URLS));
  return files;
}

/** The latest `lastmod` of some URLs, if any has one. */
export function lastChange(urls: SitemapEntry[]): string | undefined {
  return urls.reduce(
    (latest, url) => (url.lastmod && url.lastmod > latest ? url.lastmod : latest),
    "",
  ) ||
    undefined;
}

/** The sitemap index: one entry per sitemap, so a board of any size is listed whole. */
export function sitemapIndexXml(sitemaps: SitemapEntry[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...sitemaps.map(({ loc, lastmod }) =>
      `<sitemap><loc>${escapeXml(loc)}</loc>${lastmodTag(lastmod)}</sitemap>`
    ),
    "</sitemapindex>",
    "",
  ].join("\n");
}

export function rssXml(
  { title, link, selfLink, jobs, jobUrl }: {
    title: string;
    link: string;
    selfLink: string;
    jobs: Job[];
    jobUrl: (job: Job) => string;
  },
): string {
  const items = jobs.map((job) =>
    [
      "<item>",
      `<title>${escapeXml(`${job.role} at ${job.companyName}`)}</title>`,
      `<link>${escapeXml(jobUrl(job))}</link>`,
      `<guid isPermaLink="true">${escapeXml(jobUrl(job))}</guid>`,
      `<pubDate>${new Date(job.datePosted).toUTCString()}</pubDate>`,
      `<category>${escapeXml(job.employmentType)}</category>`,
      `<description>${
        escapeXml(`${job.location} · ${job.experience} · ${job.description}`)
      }</description>`,
      "</item>",
    ].join("")
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "<channel>",
    `<title>${escapeXml(title)}</title>`,
    `<link>${escapeXml(link)}</link>`,
    `<description>${escapeXml(`Active job postings on ${SITE_NAME}`)}</description>`,
    "<language>en-us</language>",
    `<atom:link href="${escapeXml(selfLink)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
