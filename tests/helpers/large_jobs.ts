/** Jobs at the edge of what storage takes, in multi-byte text, for the size and bulk upload tests. */
import assert from "node:assert/strict";
import { sampleJob } from "./server.ts";
import { jobSizeProblem, validateJob } from "../../kv/jobs/validate.ts";
import type { JobInput } from "../../kv/schemas.ts";

/** `count` skills of 100 characters, each holding a character beyond U+00FF. */
export function wideSkills(count: number, mark: string): JobInput["skills"] {
  const entry = (i: number) => `${mark}${String(i).padStart(3, "0")} ${"s".repeat(94)}’`;
  const groups = ["languages", "technologies", "frameworks", "databases", "tools", "others"];
  const skills = Object.fromEntries(groups.map((group) => [group, [] as string[]]));
  for (let i = 0; i < count; i++) skills[groups[i % groups.length]].push(entry(i));
  return skills as JobInput["skills"];
}

/**
 * A job in multi-byte text (₹, €, ’, an emoji) whose plain-ASCII location is `extra` characters
 * long: each character there is one byte, so the edge can be found to the byte.
 */
export function multiByteJob(
  extra: number,
  hiringLink = "https://careers.acme.example/jobs/the-largest-job",
): JobInput {
  return sampleJob({
    description: `₹ ${"Build the services behind our product 😀 ".repeat(500)}`.slice(0, 20_000),
    requiredDegree: `€ ${"B.Tech in Computer Science or equivalent. ".repeat(60)}`.slice(0, 1_930),
    skills: wideSkills(91, "€"),
    location: "L".repeat(extra),
    keywords: ["remote’", "₹ package"],
    // One link length for every call: the usual unique links vary in length.
    hiringLink,
  });
}

/** The parsed body a request with `job` reaches the store with. */
export function parsed(job: JobInput): JobInput {
  const validation = validateJob(JSON.parse(JSON.stringify(job)));
  if (!validation.ok && !validation.message.startsWith("Job is too large")) {
    throw new Error(validation.message);
  }
  return validation.ok ? validation.job : job;
}

/** The longest location (130..200 characters, so its length prefix keeps one size) that fits. */
export function largestAccepted(
  hiringLink?: string,
): { fits: JobInput; oneByteMore: JobInput } {
  let low = 130;
  let high = 200;
  assert.equal(
    jobSizeProblem(parsed(multiByteJob(low, hiringLink))),
    null,
    "the base job must fit",
  );
  assert.notEqual(
    jobSizeProblem(parsed(multiByteJob(high, hiringLink))),
    null,
    "the base job must not fit",
  );
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (jobSizeProblem(parsed(multiByteJob(middle, hiringLink))) === null) low = middle;
    else high = middle;
  }
  return { fits: multiByteJob(low, hiringLink), oneByteMore: multiByteJob(high, hiringLink) };
}
