/** The text and links of the Share Job dialog, the same on server and client. */
import { DEFAULT_PACKAGE_TEXT, SHARE_SKILLS_PER_GROUP } from "../../kv/constants.ts";
import { formatPackage } from "./format.ts";

/**
 * The fields of a job the share dialog needs; nothing else is sent to the browser. Skills come
 * grouped and labelled by the server, so the browser bundle needs no schema code.
 */
export interface ShareJob {
  role: string;
  companyName: string;
  location: string;
  experience: string;
  employmentType: string;
  estPackage?: string;
  skillGroups: { label: string; skills: string[] }[];
  /** The job's absolute public URL. */
  url: string;
}

export function shareText(job: ShareJob): string {
  const lines = [
    `${job.role} at ${job.companyName}`,
    "",
    `Location: ${job.location}`,
    `Experience: ${job.experience}`,
    `Employment Type: ${job.employmentType}`,
    `Package: ${job.estPackage ? formatPackage(job.estPackage) : DEFAULT_PACKAGE_TEXT}`,
  ];
  const groups = job.skillGroups.filter((group) => group.skills.length > 0);
  if (groups.length > 0) {
    lines.push("", "Skills:");
    for (const { label, skills } of groups) {
      lines.push(`${label}: ${skills.slice(0, SHARE_SKILLS_PER_GROUP).join(", ")}`);
    }
  }
  lines.push("", `Apply here: ${job.url}`);
  return lines.join("\n");
}

export interface ShareTarget {
  name: string;
  href: string;
}

/**
 * `value` as a form field writes it (what URLSearchParams gives): rendered on every first view of
 * a job page, where URL and URLSearchParams objects took a twentieth of the server's time.
 */
const formEncoded = (value: string) =>
  encodeURIComponent(value.toWellFormed()).replace(
    /[!'()~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
    .replaceAll("%20", "+");

const query = (params: Record<string, string>) =>
  Object.entries(params).map(([name, value]) => `${name}=${formEncoded(value)}`).join("&");

/**
 * The job's URL as shared on `source`: apps (WhatsApp above all) open links without a Referer, so
 * the link itself says where it was shared for the site's traffic sources. `url` is a job page's
 * canonical URL, which has no query of its own.
 */
export function sharedUrl(url: string, source: string): string {
  return `${url}?${query({ utm_source: source, utm_medium: "share" })}`;
}

/** Share links for X, LinkedIn, WhatsApp and Telegram, each with the job's URL tagged for it. */
export function shareTargets(job: ShareJob): ShareTarget[] {
  const text = shareText({ ...job, url: sharedUrl(job.url, "whatsapp") });
  const headline = `${job.role} at ${job.companyName}`;
  const on = (source: string) => sharedUrl(job.url, source);
  return [
    { name: "X", href: `https://x.com/intent/post?${query({ text: headline, url: on("x") })}` },
    {
      name: "LinkedIn",
      href: `https://www.linkedin.com/sharing/share-offsite/?${query({ url: on("linkedin") })}`,
    },
    { name: "WhatsApp", href: `https://wa.me/?${query({ text })}` },
    {
      name: "Telegram",
      href: `https://t.me/share/url?${query({ url: on("telegram"), text: headline })}`,
    },
  ];
}
