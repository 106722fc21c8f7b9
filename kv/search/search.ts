/**
 * A job search over the index: the keyword box's words and filter words, the location, the three
 * dropdown filters, one page in relevance or date order, and how many jobs each dropdown option
 * would give with the other filters, all in one pass over compact per-job arrays.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { POSTED_WITHIN, ROLE_CATEGORIES, SALARY_BANDS, WORK_MODES } from "../job-fields.ts";
import { DAY_MS } from "../constants.ts";
import { BEST_WORD_SCORE, FIELD, type SearchIndex } from "./index.ts";
import { companyKey, LAKH } from "./codes.ts";
import { matchMost, SCORE_BITS, TERM_SHIFT } from "./partial.ts";
import { locationGroups } from "./places.ts";
import { type KeywordQuery, parseKeywords } from "./query.ts";
import { leastOfBest, topK, topOf } from "./top.ts";
import { indexWords } from "./text.ts";
import { stem } from "./vocabulary.ts";

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
  workMode?: string;
  category?: string;
  /** A company's name, in any case. */
  company?: string;
  /** Rupees a year the top of a job's pay must reach; jobs without pay never do. */
  payMin?: number;
  /** Days: only jobs posted this recently. */
  postedWithin?: number;
  /** The time the Date posted windows end at (now), for the filter and its counts. */
  now?: number;
  /** Relevance falls back to newest first when there are no words to rank by; pay is highest first. */
  order: "relevance" | "newest" | "oldest" | "pay";
  offset: number;
  limit: number;
}

/** An option of a dropdown with the number of jobs it would give. */
export type Counted = [value: string, jobs: number];

export interface Facets {
  roles: Counted[];
  experience: Counted[];
  employmentTypes: Counted[];
  workModes: Counted[];
  categories: Counted[];
  /** Per salary band, its yearly rupees ("300000") and the jobs paying at least that. */
  salaries: Counted[];
  /** Per Date posted window, its days ("7") and the jobs posted within it. */
  posted: Counted[];
  companies: Counted[];
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
  /** Whether no job has every word, and these are the jobs with the most of them. */
  partial: boolean;
}

const code = (values: readonly string[], value: string | undefined) =>
  value === undefined ? 0 : values.indexOf(value) + 1;

/** A set of small codes as the bits of one number. */
const bitsOf = (values: readonly string[], chosen: readonly string[] | undefined) =>
  (chosen ?? []).reduce((bits, value) => bits | (1 << code(values, value)), 0);

const ROLE_MISS = 1;
const LEVEL_MISS = 2;
const TYPE_MISS = 4;
const MODE_MISS = 8;
const CATEGORY_MISS = 16;
const COMPANY_MISS = 32;
const PAY_MISS = 64;
const POSTED_MISS = 128;

/** Role words that mean the same job: each a weaker match for the others. */
const ROLE_WORDS = ["developer", "engineer", "programmer"].map(stem);

/** A job's employment type and experience as one small number: experience in the low four bits. */
const kindOf = (jobType: number, jobLevel: number) => (jobType << 4) | jobLevel;

/**
 * Per kind of job (`kindOf`): whether the keyword box's filter words allow it (`allowed`; a filter
 * word that names places also lets in a job of any kind in those places, `byPlace`) and which of
 * the experience and type dropdowns turn it away (`misses`).
 */
function kindTables(
  index: SearchIndex,
  filters: KeywordQuery["filters"],
  level: number,
  type: number,
) {
  const allowed = new Uint8Array(256);
  const misses = new Uint8Array(256);
  const byPlace: { kinds: Uint8Array; places: Uint8Array }[] = [];
  const filterWords = filters.map((filter, c) => {
    // A place, or a role word letting in a job of any experience (a Senior role).
    const names = filter.locations ?? filter.roleWords;
    const field = filter.locations ? FIELD.location : FIELD.role;
    const places = names ? index.located([names], c + 1, field) : null;
    if (places) byPlace.push({ kinds: new Uint8Array(256), places });
    return {
      types: bitsOf(EMPLOYMENT_TYPES, filter.employmentTypes),
      levels: bitsOf(EXPERIENCE_OPTIONS, filter.experiences),
      placeKinds: places ? byPlace[byPlace.length - 1].kinds : null,
    };
  });
  for (let jobType = 0; jobType <= EMPLOYMENT_TYPES.length; jobType++) {
    for (let jobLevel = 0; jobLevel <= EXPERIENCE_OPTIONS.length; jobLevel++) {
      const kind = kindOf(jobType, jobLevel);
      allowed[kind] = 1;
      for (const { types, levels, placeKinds } of filterWords) {
        const byKind = ((types >> jobType) & 1) === 1 || ((levels >> jobLevel) & 1) === 1;
        if (placeKinds) placeKinds[kind] = byKind ? 1 : 0;
        else if (!byKind) allowed[kind] = 0;
      }
      misses[kind] = (level !== 0 && jobLevel !== level ? LEVEL_MISS : 0) |
        (type !== 0 && jobType !== type ? TYPE_MISS : 0);
    }
  }
  return { allowed, misses, byPlace };
}

/**
 * The Date posted window a posting time falls in: 0 for the newest (24 hours before `now`), one
 * more for each wider window, POSTED_WITHIN.length when older than all of them.
 */
function postedWindows(now: number): (time: number) => number {
  const starts = POSTED_WITHIN.map((days) => now - days * DAY_MS);
  return (time) => {
    let window = 0;
    while (window < starts.length && time < starts[window]) window++;
    return window;
  };
}

export function searchJobs(index: SearchIndex, query: JobSearch): SearchAnswer {
  const keywords = parseKeywords(query.keywords);
  const { answer, reached } = searchWith(index, query, keywords, false);
  if (reached > 0 || keywords.terms.length < 2) return answer;
  // No job has every word (whatever the dropdowns, so their counts hold): the jobs with the most
  // of them, rather than an empty page.
  const terms = keywords.terms.map((term) =>
    ROLE_WORDS.includes(term.word)
      ? { ...term, weaker: ROLE_WORDS.filter((word) => word !== term.word), generic: true }
      : term
  );
  return searchWith(index, query, { ...keywords, terms }, true).answer;
}

function searchWith(
  index: SearchIndex,
  query: JobSearch,
  keywords: KeywordQuery,
  partly: boolean,
): { answer: SearchAnswer; reached: number } {
  const matched = partly
    ? matchMost(index, keywords.terms, KEYWORD_FIELDS)
    : index.match(keywords.terms, KEYWORD_FIELDS);
  const located = index.located(locationGroups(query.location));
  const role = query.role === undefined ? -1 : index.roleCode.get(query.role) ?? -2;
  const level = code(EXPERIENCE_OPTIONS, query.experience);
  const type = code(EMPLOYMENT_TYPES, query.employmentType);
  const { allowed, misses, byPlace } = kindTables(index, keywords.filters, level, type);

  const mode = code(WORK_MODES, query.workMode);
  const category = code(ROLE_CATEGORIES, query.category);
  const company = query.company === undefined
    ? -1
    : index.companyCode.get(companyKey(query.company)) ?? -2;
  const payMin = query.payMin ?? 0;
  const now = query.now ?? Date.now();
  const since = query.postedWithin === undefined ? -Infinity : now - query.postedWithin * DAY_MS;
  const windowOf = postedWindows(now);

  const { roleOf, experienceOf, typeOf, modeOf, categoryOf, companyOf, payTop, payBand } = index;
  const roleCounts = new Uint32Array(index.roleNames.length);
  const levelCounts = new Uint32Array(EXPERIENCE_OPTIONS.length + 1);
  const typeCounts = new Uint32Array(EMPLOYMENT_TYPES.length + 1);
  const modeCounts = new Uint32Array(WORK_MODES.length + 1);
  const categoryCounts = new Uint32Array(ROLE_CATEGORIES.length + 1);
  const companyCounts = new Uint32Array(index.companyNames.length);
  const bandCounts = new Uint32Array(SALARY_BANDS.length + 1);
  const windowCounts = new Uint32Array(POSTED_WITHIN.length + 1);
  const { posted, ids } = index;
  const { docs, scores: scoreArray, positions } = index.foundArrays();
  const scores = matched ? scoreArray : null;
  // Without words every live job is a candidate, in job-number order.
  const candidates = matched?.docs ?? index.liveDocs();
  const matchedScores = matched?.score;
  // How many found jobs have each score, so a relevance page ranks only the jobs that can be on it.
  const scoreCounts = new Uint32Array(matched ? BEST_WORD_SCORE * keywords.terms.length + 1 : 0);
  // The kind of a job the keyword box's filters and the location let in; -1 for one they do not.
  const admitted = (doc: number) => {
    if (located && located[doc] === 0) return -1;
    const kind = kindOf(typeOf[doc], experienceOf[doc]);
    if (allowed[kind] === 0) return -1;
    for (let p = 0; p < byPlace.length; p++) {
      if (byPlace[p].kinds[kind] === 0 && byPlace[p].places[doc] === 0) return -1;
    }
    return kind;
  };
  // A partial match's score carries its number of terms above the low bits: only the jobs with
  // the most terms of those let in are found.
  let most = 0;
  if (partly) {
    for (let i = 0; i < candidates.length; i++) {
      if (admitted(candidates[i]) >= 0) most = Math.max(most, matchedScores![i] >> TERM_SHIFT);
    }
  }
  let total = 0;
  // Jobs with every word that the keyword box's filters and the location let in.
  let reached = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    const kind = admitted(doc);
    if (kind < 0 || (partly && matchedScores![i] >> TERM_SHIFT < most)) continue;
    reached++;
    const jobLevel = experienceOf[doc];
    const jobType = typeOf[doc];
    const jobRole = roleOf[doc];
    const jobMode = modeOf[doc];
    const jobCategory = categoryOf[doc];
    const jobCompany = companyOf[doc];
    const time = posted[doc];
    const miss = misses[kind] | (role !== -1 && jobRole !== role ? ROLE_MISS : 0) |
      (mode !== 0 && jobMode !== mode ? MODE_MISS : 0) |
      (category !== 0 && jobCategory !== category ? CATEGORY_MISS : 0) |
      (company !== -1 && jobCompany !== company ? COMPANY_MISS : 0) |
      (payTop[doc] < payMin ? PAY_MISS : 0) | (time < since ? POSTED_MISS : 0);
    // A job failing only one dropdown's filter counts for that dropdown's option.
    if (miss === 0) {
      if (scores) {
        const score = matchedScores![i] & SCORE_BITS;
        scores[total] = score;
        scoreCounts[score]++;
      }
      docs[total++] = doc;
      roleCounts[jobRole]++;
      levelCounts[jobLevel]++;
      typeCounts[jobType]++;
      modeCounts[jobMode]++;
      categoryCounts[jobCategory]++;
      companyCounts[jobCompany]++;
      bandCounts[payBand[doc]]++;
      windowCounts[windowOf(time)]++;
    } else if (miss === ROLE_MISS) roleCounts[jobRole]++;
    else if (miss === LEVEL_MISS) levelCounts[jobLevel]++;
    else if (miss === TYPE_MISS) typeCounts[jobType]++;
    else if (miss === MODE_MISS) modeCounts[jobMode]++;
    else if (miss === CATEGORY_MISS) categoryCounts[jobCategory]++;
    else if (miss === COMPANY_MISS) companyCounts[jobCompany]++;
    else if (miss === PAY_MISS) bandCounts[payBand[doc]]++;
    else if (miss === POSTED_MISS) windowCounts[windowOf(time)]++;
  }

  // Ranked by position in `docs`, so a score is read beside its job.
  const newer = (a: number, b: number) => {
    const x = docs[a];
    const y = docs[b];
    return posted[x] > posted[y] || (posted[x] === posted[y] && ids[x] > ids[y]);
  };
  const before = query.order === "oldest"
    ? (a: number, b: number) => newer(b, a)
    : query.order === "pay"
    ? (a: number, b: number) =>
      payTop[docs[a]] > payTop[docs[b]] || (payTop[docs[a]] === payTop[docs[b]] && newer(a, b))
    : query.order === "relevance" && scores
    ? (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && newer(a, b))
    : newer;
  const found = docs.subarray(0, total);
  const wanted = query.offset + query.limit;
  let ranked = total;
  let at = (position: number) => position;
  if (query.order === "relevance" && scores && wanted < total) {
    // The page's jobs all score at least `least`: the lowest score the best `wanted` jobs reach.
    const least = leastOfBest(scoreCounts, wanted);
    ranked = 0;
    for (let position = 0; position < total; position++) {
      if (scores[position] >= least) positions[ranked++] = position;
    }
    at = (position) => positions[position];
  }
  const page = topOf(ranked, at, wanted, before).slice(query.offset).map((at) => docs[at]);
  const answer = {
    ids: page.map((doc) => ids[doc]),
    total,
    docs: found,
    partial: partly && total > 0,
    facets: {
      roles: topOptions(index.roleNames, roleCounts, query.role),
      experience: counted(EXPERIENCE_OPTIONS, levelCounts, query.experience),
      employmentTypes: counted(EMPLOYMENT_TYPES, typeCounts, query.employmentType),
      workModes: counted(WORK_MODES, modeCounts, query.workMode),
      categories: counted(ROLE_CATEGORIES, categoryCounts, query.category),
      salaries: reaching(SALARY_BANDS.map((lakhs) => String(lakhs * LAKH)), bandCounts, "up"),
      posted: reaching(POSTED_WITHIN.map(String), windowCounts, "down"),
      companies: topOptions(
        index.companyNames,
        companyCounts,
        query.company === undefined
          ? undefined
          : index.companyNames[index.companyCode.get(companyKey(query.company)) ?? -1] ??
            query.company,
      ),
    },
  };
  return { answer, reached };
}

/**
 * Nested options (a salary band holds every higher one, a date window every newer one) from the
 * count of jobs whose best option is each: `counts[i]` for option i - 1, `counts[0]` for none.
 * "up": an option counts the jobs of it and the ones after; "down": of it and the ones before.
 */
function reaching(values: string[], counts: Uint32Array, direction: "up" | "down"): Counted[] {
  if (direction === "up") {
    let sum = 0;
    const totals = values.map((_, i) => counts[values.length - i]).map((count) => (sum += count))
      .reverse();
    return values.map((value, i) => [value, totals[i]]);
  }
  let sum = 0;
  return values.map((value, i) => [value, sum += counts[i]]);
}

/** The options giving jobs, in their usual order; the chosen one always. */
function counted(values: readonly string[], counts: Uint32Array, chosen?: string): Counted[] {
  return values.flatMap((value, i): Counted[] =>
    counts[i + 1] > 0 || value === chosen ? [[value, counts[i + 1]]] : []
  );
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

/** The most common names of the search in name order, at most MAX_ROLE_OPTIONS, the chosen one always. */
function topOptions(names: string[], counts: Uint32Array, chosen?: string): Counted[] {
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
  const role = index.roleCode.get(job.role);
  const { docs, score } = index.credit(
    [
      {
        posting: role === undefined ? undefined : index.roleDocs[role],
        field: FIELD.role,
        points: 10,
      },
      ...Array.from(indexWords(job.role), (word) => ({
        posting: index.postings.get(word),
        field: FIELD.role,
        points: 2,
      })),
      ...Array.from(indexWords(job.skills.join("\n")), (word) => ({
        posting: index.postings.get(word),
        field: FIELD.skills,
        points: 1,
      })),
    ],
    SIMILAR_WINDOW,
    index.numberOf.get(job.id) ?? -1,
  );
  // Only jobs scoring at least the `limit`-th best score can be shown: only they are ranked.
  let best = 0;
  for (let i = 0; i < score.length; i++) if (score[i] > best) best = score[i];
  const scoreCounts = new Uint32Array(best + 1);
  for (let i = 0; i < score.length; i++) scoreCounts[score[i]]++;
  const least = leastOfBest(scoreCounts, limit);
  const contenders: number[] = [];
  for (let i = 0; i < score.length; i++) if (score[i] >= least) contenders.push(i);
  const { posted, ids } = index;
  return topK(contenders, limit, (a, b) => {
    const x = docs[a];
    const y = docs[b];
    return score[a] > score[b] ||
      (score[a] === score[b] &&
        (posted[x] > posted[y] || (posted[x] === posted[y] && ids[x] > ids[y])));
  }).map((at) => ids[docs[at]]);
}

/**
 * The admin list's search: every word in the role, company, location or job ID, the company box's
 * words in the company, the location box's in the location. Job numbers ascending: the list's order.
 */
export function adminMatches(
  index: SearchIndex,
  query: { search?: string; company?: string; location?: string },
): Uint32Array {
  // A match is read before the next one: the company's first, as marks.
  const company = index.match(parseKeywords(query.company, false).terms, FIELD.company);
  const inCompany = company && new Uint8Array(index.span);
  if (company) { for (const doc of company.docs) inCompany![doc] = 1; }
  const everywhere = index.match(
    parseKeywords(query.search, false).terms,
    FIELD.role | FIELD.company | FIELD.location | FIELD.jobId,
  );
  const located = index.located(locationGroups(query.location));
  const candidates = everywhere?.docs ?? index.liveDocs();
  return candidates.filter((doc) =>
    index.alive[doc] === 1 && (!inCompany || inCompany[doc] === 1) &&
    (!located || located[doc] === 1)
  ).sort();
}
