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

/** Share links for X, LinkedIn, WhatsApp and Telegram. */
export function shareTargets(job: ShareJob): ShareTarget[] {
  const text = shareText(job);
  const headline = `${job.role} at ${job.companyName}`;
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    { name: "X", href: `https://x.com/intent/post?${query({ text: headline, url: job.url })}` },
    {
      name: "LinkedIn",
      href: `https://www.linkedin.com/sharing/share-offsite/?${query({ url: job.url })}`,
    },
    { name: "WhatsApp", href: `https://wa.me/?${query({ text })}` },
    { name: "Telegram", href: `https://t.me/share/url?${query({ url: job.url, text: headline })}` },
  ];
}
