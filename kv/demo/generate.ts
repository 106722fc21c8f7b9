/**
 * The demo job generator: complete, realistic jobs drawn from the tables with a seeded generator, so
 * the demo set is the same on every machine. The benchmark uses it to fill a database with 100,000
 * varied jobs.
 */
import { withDerived } from "../jobs/derived.ts";
import { newId } from "../atomic.ts";
import { DAY_MS, DAYS_ACTIVE_BEFORE_DUMP, DAYS_IN_DUMP_BEFORE_INACTIVE } from "../constants.ts";
import {
  type EmploymentType,
  type Experience,
  EXPERIENCE_OPTIONS,
  type Job,
  type JobStatus,
  type Skills,
} from "../schemas.ts";
import { COMPANIES, LOCATIONS, PERKS } from "./companies.ts";
import { ROLES, type RoleTemplate } from "./roles.ts";

/** Levels of people still studying: their openings are internships. */
const STUDENT_LEVELS: ReadonlySet<Experience> = new Set(["intern", "2027 passout"]);
/** The employment types of every other level, Full-Time most often. */
const GRADUATE_TYPES: readonly EmploymentType[] = [
  "Full-Time",
  "Full-Time",
  "Full-Time",
  "Part-Time",
  "Contract",
  "Freelance",
];

/** How much more than the entry package each experience level earns. */
const EXPERIENCE_FACTOR: Record<Experience, number> = {
  "0-1": 1,
  "1-2": 1.3,
  "2-3": 1.6,
  "3+": 2,
  "4+": 2.3,
  "5+": 2.7,
  "6+": 3.1,
  intern: 0,
  "2026 passout": 0.9,
  "2025 passout": 1,
  "2027 passout": 0,
};

/** A small seeded generator (mulberry32), so the demo set is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)];

/** A few entries of `list`, in their original order, at least one when the list has any. */
function some<T>(random: () => number, list: readonly T[]): T[] {
  const chosen = list.filter(() => random() < 0.7);
  return chosen.length || list.length === 0 ? chosen : [list[0]];
}

function packageText(template: RoleTemplate, experience: Experience, type: EmploymentType) {
  if (type === "Internship" || EXPERIENCE_FACTOR[experience] === 0) {
    return `${10 + 5 * Math.round(template.basePackage[0] / 2)}k per month stipend`;
  }
  const factor = EXPERIENCE_FACTOR[experience];
  const low = Math.round(template.basePackage[0] * factor);
  const high = Math.max(low + 2, Math.round(template.basePackage[1] * factor));
  if (type === "Freelance" || type === "Contract") return `${low}-${high} LPA (pro rata)`;
  return `${low}-${high} LPA`;
}

/** Two office days are a hybrid job's perk, and lunch in the office is none of a remote job's. */
const perkFits = (perk: string, location: string) =>
  perk.startsWith("Hybrid")
    ? location.startsWith("Hybrid")
    : !(perk.endsWith("in the office") && location.startsWith("Remote"));

const slugify = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/-$/, "");

export interface JobPlacement {
  status: JobStatus;
  datePosted: Date;
  movedToDumpAt: Date | null;
  experience?: Experience;
  employmentType?: EmploymentType;
  /** The role's template; one drawn at random unless given. */
  template?: RoleTemplate;
}

/**
 * One complete, realistic job (everything but `jobId`). `serial` makes the hiring link unique; the
 * rest is drawn from `random`.
 */
export function generateJob(
  random: () => number,
  serial: number,
  placement: JobPlacement,
): Omit<Job, "jobId"> {
  const company = pick(random, COMPANIES);
  const template = placement.template ?? pick(random, ROLES);
  const location = pick(random, LOCATIONS);
  const experience = placement.experience ?? pick(random, EXPERIENCE_OPTIONS);
  const employmentType = placement.employmentType ??
    (STUDENT_LEVELS.has(experience) ? "Internship" : pick(random, GRADUATE_TYPES));
  const duties = some(random, template.duties);
  // Drawn from every perk, so the rest of the draw is the same whatever the place.
  const drawn = some(random, PERKS).filter((perk) => perkFits(perk, location));
  const perks = (drawn.length > 0 ? drawn : PERKS.filter((perk) => perkFits(perk, location)))
    .slice(0, 4);
  const description = [
    `${company.name} ${company.pitch}. We are looking for a ${template.role} to ${template.summary}.`,
    `What you will do:\n${duties.map((duty) => `- ${duty}`).join("\n")}`,
    `Why ${company.name}:\n${perks.map((perk) => `- ${perk}`).join("\n")}`,
    location.startsWith("Remote")
      ? "This is a remote role; you will meet the team in person twice a year."
      : `You will work from our ${location.split(",")[0].replace("Hybrid - ", "")} office.`,
  ].join("\n\n");
  const skills = Object.fromEntries(
    Object.entries(template.skills).map(([group, list]) => [group, some(random, list)]),
  ) as unknown as Skills;
  const created = placement.datePosted.toISOString();
  return withDerived({
    _id: newId(placement.datePosted),
    companyName: company.name,
    role: template.role,
    location,
    experience,
    employmentType,
    description,
    requiredDegree: template.degree,
    hiringLink: `https://careers.${company.slug}.example/jobs/${slugify(template.role)}-${serial}`,
    ...(random() < 0.85 ? { estPackage: packageText(template, experience, employmentType) } : {}),
    skills,
    keywords: some(random, template.keywords),
    status: placement.status,
    datePosted: created,
    movedToDumpAt: placement.movedToDumpAt?.toISOString() ?? null,
    createdAt: created,
    updatedAt: (placement.movedToDumpAt ?? placement.datePosted).toISOString(),
  });
}

/** Days in dump of the demo's dump jobs: the chip's plain, yellow (15+) and red (25+) states. */
export const DEMO_DUMP_DAYS = [1, 3, 5, 9, 12, 16, 19, 22, 25, 27, 28] as const;
const DEMO_ACTIVE = 60;
const DEMO_INACTIVE = 8;

/**
 * The demo jobs, placed in time relative to `now`. Hiring links are numbered from `firstSerial`, so
 * a second demo set in one database (`deno task seed --force`) never repeats an active job's link.
 */
export function demoJobs(now: Date, firstSerial = 1): Omit<Job, "jobId">[] {
  const random = seededRandom(20_240_601);
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  const jobs: Omit<Job, "jobId">[] = [];
  for (let i = 0; i < DEMO_ACTIVE; i++) {
    const experience = EXPERIENCE_OPTIONS[i % EXPERIENCE_OPTIONS.length];
    // Posted at least a day before the move to dump, so the first hourly lifecycle run leaves them.
    const hoursAgo = (i * 37) % ((DAYS_ACTIVE_BEFORE_DUMP - 1) * 24 - 1) + random();
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "active",
      datePosted: at(hoursAgo / 24),
      movedToDumpAt: null,
      experience,
      employmentType: STUDENT_LEVELS.has(experience)
        ? "Internship"
        : GRADUATE_TYPES[i % GRADUATE_TYPES.length],
      // Every role is open, so the home page's chips (Software Engineer, Data Science,
      // Marketing) find their jobs.
      template: ROLES[i % ROLES.length],
    }));
  }
  for (const days of DEMO_DUMP_DAYS) {
    const moved = at(days);
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "dump",
      datePosted: new Date(moved.getTime() - (DAYS_ACTIVE_BEFORE_DUMP + random()) * DAY_MS),
      movedToDumpAt: moved,
    }));
  }
  for (let i = 0; i < DEMO_INACTIVE; i++) {
    const moved = at(DAYS_IN_DUMP_BEFORE_INACTIVE + 1 + i * 4);
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "inactive",
      datePosted: new Date(moved.getTime() - DAYS_ACTIVE_BEFORE_DUMP * DAY_MS),
      movedToDumpAt: moved,
    }));
  }
  // Oldest first, so jobIds grow with the posting date as they would have in real use.
  return jobs.sort((a, b) => Date.parse(a.datePosted) - Date.parse(b.datePosted));
}
