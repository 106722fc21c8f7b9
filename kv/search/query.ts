/**
 * What a visitor's words ask for: the keyword box's filter words (employment types, experience,
 * remote) taken out as filters, the rest as words to find, and the location box's words with the
 * other names of India's renamed cities.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { fold, words } from "./text.ts";

type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
type Experience = (typeof EXPERIENCE_OPTIONS)[number];

/** A condition from the keyword box: a job meets it by any of the listed values. */
export interface FilterWord {
  employmentTypes?: EmploymentType[];
  experiences?: Experience[];
  /** Location words, any of which the job's location must hold. */
  locations?: string[];
}

export interface KeywordQuery {
  /** Words to find in the job text, in the order typed, each once. */
  words: string[];
  /** Every one of these must hold. */
  filters: FilterWord[];
}

const STUDENT: Experience[] = ["intern", "2025 passout", "2026 passout", "2027 passout"];

/**
 * Spellings of the filter words, after folding and with hyphens turned to spaces. Longer phrases
 * are tried first, so `part time` is one filter, not the word `part` and the word `time`.
 */
const FILTER_PHRASES: [string, FilterWord][] = [
  ["full time", { employmentTypes: ["Full-Time"] }],
  ["fulltime", { employmentTypes: ["Full-Time"] }],
  ["part time", { employmentTypes: ["Part-Time"] }],
  ["parttime", { employmentTypes: ["Part-Time"] }],
  ["internships", { employmentTypes: ["Internship"] }],
  ["internship", { employmentTypes: ["Internship"] }],
  ["interns", { employmentTypes: ["Internship"], experiences: ["intern"] }],
  ["intern", { employmentTypes: ["Internship"], experiences: ["intern"] }],
  ["contractual", { employmentTypes: ["Contract"] }],
  ["contract", { employmentTypes: ["Contract"] }],
  ["freelancer", { employmentTypes: ["Freelance"] }],
  ["freelance", { employmentTypes: ["Freelance"] }],
  ["freshers", { experiences: ["0-1", ...STUDENT] }],
  ["fresher", { experiences: ["0-1", ...STUDENT] }],
  ["work from home", { locations: ["remote"] }],
  ["wfh", { locations: ["remote"] }],
  ["remote", { locations: ["remote"] }],
];

const PASSOUT = /^(20\d\d) ?pass ?outs?$/;

/** Splits the keyword box into filter words and words to find. */
export function parseKeywords(text: string | undefined): KeywordQuery {
  const found = words(
    fold(text ?? "").replace(/(\p{L})-(?=\p{L})/gu, "$1 "),
  ).filter((word) => !word.includes("-"));
  const filters: FilterWord[] = [];
  const rest: string[] = [];
  for (let i = 0; i < found.length;) {
    const match = matchAt(found, i);
    if (match) {
      filters.push(match.filter);
      i += match.length;
    } else rest.push(found[i++]);
  }
  return { words: [...new Set(rest)], filters };
}

function matchAt(found: string[], at: number): { filter: FilterWord; length: number } | null {
  for (let length = 3; length >= 1; length--) {
    const phrase = found.slice(at, at + length).join(" ");
    if (found.length - at < length) continue;
    const passout = PASSOUT.exec(phrase);
    if (passout) {
      const experience = `${passout[1]} passout`;
      if ((EXPERIENCE_OPTIONS as readonly string[]).includes(experience)) {
        return { filter: { experiences: [experience as Experience] }, length };
      }
    }
    const entry = FILTER_PHRASES.find(([spelling]) => spelling === phrase);
    if (entry) return { filter: entry[1], length };
  }
  return null;
}

/** Each name of a city, with every other name it goes by (Delhi NCR: its cities). */
const PLACE_NAMES: string[][] = [
  ["bengaluru", "bangalore"],
  ["mumbai", "bombay"],
  ["chennai", "madras"],
  ["kolkata", "calcutta"],
  ["gurugram", "gurgaon"],
];
const NCR = ["delhi", "noida", "gurugram", "gurgaon", "ghaziabad", "faridabad", "ncr"];

/**
 * The location box as groups of words: a job's location must hold a word of every group. `Delhi
 * NCR` (or `NCR`) is one group of the region's cities.
 */
export function locationGroups(text: string | undefined): string[][] {
  const found = words(text ?? "").filter((word) => !/^\p{N}+$/u.test(word) || word.length > 3);
  const groups: string[][] = [];
  for (let i = 0; i < found.length; i++) {
    const word = found[i];
    if (word === "ncr" || (word === "delhi" && found[i + 1] === "ncr")) {
      groups.push(NCR);
      if (word === "delhi") i++;
      continue;
    }
    groups.push(PLACE_NAMES.find((names) => names.includes(word)) ?? [word]);
  }
  return groups;
}
