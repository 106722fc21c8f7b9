/**
 * A job search over the index: the keyword box's words and filter words, the location, the three
 * dropdown filters, one page in relevance or date order, and how many jobs each dropdown option
 * would give with the other filters, all in one pass over compact per-job arrays.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { FIELD, type SearchIndex } from "./index.ts";
import { locationGroups, parseKeywords } from "./query.ts";
import { topK, topOf } from "./top.ts";
import { indexWords, words } from "./text.ts";

/** Where the keyword box looks: everything but the job ID (an admin-only handle). */
const KEYWORD_FIELDS = FIELD.role | FIELD.skills | FIELD.company | FIELD.description |
  FIELD.location;
/** At most this many roles are offered, the most common of the search first. */
export const MAX_ROLE_OPTIONS = 50;

export interface JobSearch {
  keywords?: string;
  location?: string;
  role?: string;
  experience?: string;
  employmentType?: string;
  /** Relevance falls back to newest first when there are no words to rank by. */
  order: "relevance" | "newest" | "oldest";
  offset: number;
  limit: number;
}

/** An option of a dropdown with the number of jobs it would give. */
export type Counted = [value: string, jobs: number];

export interface Facets {
  roles: Counted[];
  experience: Counted[];
  employmentTypes: Counted[];
}

export interface SearchAnswer {
  /** The asked page's job ids, in order. */
  ids: string[];
  total: number;
  facets: Facets;
  /**
   * Every matching job's number, for orders the index does not keep (company, role); it lives in
   * the index's reused arrays, so read it before the next search.
   */
  docs: Uint32Array;
}

const code = (values: readonly string[], value: string | undefined) =>
  value === undefined ? 0 : values.indexOf(value) + 1;

/** A set of small codes as the bits of one number. */
const bitsOf = (values: readonly string[], chosen: readonly string[] | undefined) =>
  (chosen ?? []).reduce((bits, value) => bits | (1 << code(values, value)), 0);

export function searchJobs(index: SearchIndex, query: JobSearch): SearchAnswer {
  const keywords = parseKeywords(query.keywords);
  const matched = index.match(keywords.words, KEYWORD_FIELDS);
  const located = index.located(locationGroups(query.location));
  const conditions = keywords.filters.map((filter) => ({
    types: bitsOf(EMPLOYMENT_TYPES, filter.employmentTypes),
    levels: bitsOf(EXPERIENCE_OPTIONS, filter.experiences),
    places: filter.locations ? index.located([filter.locations]) : null,
  }));
  const role = query.role === undefined ? -1 : index.roleCode.get(query.role) ?? -2;
  const level = code(EXPERIENCE_OPTIONS, query.experience);
  const type = code(EMPLOYMENT_TYPES, query.employmentType);

  const { roleOf, experienceOf, typeOf, alive } = index;
  const roleCounts = new Uint32Array(index.roleNames.length);
  const levelCounts = new Uint32Array(EXPERIENCE_OPTIONS.length + 1);
  const typeCounts = new Uint32Array(EMPLOYMENT_TYPES.length + 1);
  const candidates = matched ? matched.docs.length : index.span;
  const { docs, scores: scoreArray } = index.foundArrays();
  const scores = matched ? scoreArray : null;
  const matchedDocs = matched?.docs;
  const matchedScores = matched?.score;
  const choices = conditions.length;
  let total = 0;
  for (let i = 0; i < candidates; i++) {
    const doc = matchedDocs ? matchedDocs[i] : i;
    if (alive[doc] === 0 || (located && located[doc] === 0)) continue;
    const jobRole = roleOf[doc];
    const jobLevel = experienceOf[doc];
    const jobType = typeOf[doc];
    let meets = true;
    for (let c = 0; c < choices && meets; c++) {
      const { types, levels, places } = conditions[c];
      meets = ((types >> jobType) & 1) === 1 || ((levels >> jobLevel) & 1) === 1 ||
        places?.[doc] === 1;
    }
    if (!meets) continue;
    const roleOk = role === -1 || jobRole === role;
    const levelOk = level === 0 || jobLevel === level;
    const typeOk = type === 0 || jobType === type;
    // A job failing only one dropdown's filter counts for that dropdown's option.
    if (roleOk && levelOk && typeOk) {
      if (scores) scores[total] = matchedScores![i];
      docs[total++] = doc;
      roleCounts[jobRole]++;
      levelCounts[jobLevel]++;
      typeCounts[jobType]++;
    } else if (!roleOk && levelOk && typeOk) roleCounts[jobRole]++;
    else if (roleOk && !levelOk && typeOk) levelCounts[jobLevel]++;
    else if (roleOk && levelOk && !typeOk) typeCounts[jobType]++;
  }

  // Ranked by position in `docs`, so a score is read beside its job.
  const { posted, ids } = index;
  const newer = (a: number, b: number) => {
    const x = docs[a];
    const y = docs[b];
    return posted[x] > posted[y] || (posted[x] === posted[y] && ids[x] > ids[y]);
  };
  const before = query.order === "oldest"
    ? (a: number, b: number) => newer(b, a)
    : query.order === "relevance" && scores
    ? (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && newer(a, b))
    : newer;
  const found = docs.subarray(0, total);
  const page = topOf(total, (at) => at, query.offset + query.limit, before).slice(query.offset)
    .map((at) => docs[at]);
  return {
    ids: page.map((doc) => ids[doc]),
    total,
    docs: found,
    facets: {
      roles: roleOptions(index.roleNames, roleCounts, query.role),
      experience: counted(EXPERIENCE_OPTIONS, levelCounts, query.experience),
      employmentTypes: counted(EMPLOYMENT_TYPES, typeCounts, query.employmentType),
    },
  };
}

/** The options giving jobs, in their usual order; the chosen one always. */
function counted(values: readonly string[], counts: Uint32Array, chosen?: string): Counted[] {
  return values.flatMap((value, i): Counted[] =>
    counts[i + 1] > 0 || value === chosen ? [[value, counts[i + 1]]] : []
  );
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

/** The most common roles of the search in name order, at most MAX_ROLE_OPTIONS, the chosen one always. */
function roleOptions(names: string[], counts: Uint32Array, chosen?: string): Counted[] {
  const codes: number[] = [];
  counts.forEach((count, role) => count > 0 && codes.push(role));
  const top = topK(
    codes,
    MAX_ROLE_OPTIONS,
    (a, b) => counts[a] > counts[b] || (counts[a] === counts[b] && names[a] < names[b]),
  );
  const roles: Counted[] = top.map((role) => [names[role], counts[role]]);
  if (chosen !== undefined && !roles.some(([name]) => name === chosen)) {
    const role = names.indexOf(chosen);
    roles.push([chosen, role === -1 ? 0 : counts[role]]);
  }
  return roles.sort((a, b) => collator.compare(a[0], b[0]));
}

/** How many of the newest holders of a role or skill word Similar Jobs looks at, whatever the total. */
const SIMILAR_WINDOW = 600;

/**
 * Jobs like `job`: same role first (10), then shared role words (2 each) and skill words (1 each),
 * newest first among equals. Only the newest holders of each word are scored, so a job page costs
 * the same with 100 or 100,000 jobs.
 */
export function similarJobs(
  index: SearchIndex,
  job: { id: string; role: string; skills: string[] },
  limit: number,
): string[] {
  const scores = new Map<number, number>();
  const self = index.numberOf.get(job.id);
  const credit = (
    posting: { docs: Uint32Array; fields: Uint8Array; size: number } | undefined,
    field: number,
    points: number,
  ) => {
    if (!posting) return;
    let seen = 0;
    for (let i = posting.size - 1; i >= 0 && seen < SIMILAR_WINDOW; i--) {
      const doc = posting.docs[i];
      if (!index.alive[doc] || !(posting.fields[i] & field) || doc === self) continue;
      seen++;
      scores.set(doc, (scores.get(doc) ?? 0) + points);
    }
  };
  const role = index.roleCode.get(job.role);
  if (role !== undefined) credit(index.roleDocs[role], FIELD.role, 10);
  for (const word of indexWords(job.role)) credit(index.postings.get(word), FIELD.role, 2);
  for (const word of indexWords(job.skills.join("\n"))) {
    credit(index.postings.get(word), FIELD.skills, 1);
  }
  const { posted, ids } = index;
  return topK(
    [...scores.keys()],
    limit,
    (a, b) =>
      scores.get(a)! > scores.get(b)! ||
      (scores.get(a) === scores.get(b) && (posted[a] > posted[b] ||
        (posted[a] === posted[b] && ids[a] > ids[b]))),
  ).map((doc) => ids[doc]);
}

/**
 * The admin list's search: every word in the role, company, location or job ID, the company box's
 * words in the company, the location box's in the location. Job numbers ascending: the list's order.
 */
export function adminMatches(
  index: SearchIndex,
  query: { search?: string; company?: string; location?: string },
): Uint32Array {
  const everywhere = index.match(
    words(query.search ?? ""),
    FIELD.role | FIELD.company | FIELD.location | FIELD.jobId,
  );
  const company = index.match(words(query.company ?? ""), FIELD.company);
  const located = index.located(locationGroups(query.location));
  const inCompany = company && new Uint8Array(index.span);
  if (company) { for (const doc of company.docs) inCompany![doc] = 1; }
  const candidates = everywhere?.docs ?? company?.docs ??
    Uint32Array.from({ length: index.span }, (_, doc) => doc);
  return candidates.filter((doc) =>
    index.alive[doc] === 1 && (!inCompany || inCompany[doc] === 1) &&
    (!located || located[doc] === 1)
  ).sort();
}
