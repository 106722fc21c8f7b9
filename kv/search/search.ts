/**
 * A job search over the index: the keyword box's words and filter words, the location, the three
 * dropdown filters, one page in relevance or date order, and how many jobs each dropdown option
 * would give with the other filters, all in one pass over compact per-job arrays.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import {
  type FilterValues,
  POSTED_WITHIN,
  ROLE_CATEGORIES,
  SALARY_BANDS,
  WORK_MODES,
} from "../job-fields.ts";
import { DAY_MS } from "../constants.ts";
import type { SearchIndex } from "./index.ts";
import { BEST_WORD_SCORE, FIELD } from "./fields.ts";
import { companyKey, LAKH, optionCode, TRAIT, TRAIT_CODES } from "./codes.ts";
import { matchMost, SCORE_BITS, TERM_SHIFT } from "./partial.ts";
import { locationGroups } from "./places.ts";
import { type KeywordQuery, parseKeywords } from "./query.ts";
import { leastOfBest, topK, topOf } from "./top.ts";
import { stem } from "./vocabulary.ts";

/** Where the keyword box looks: everything but the job ID (an admin-only handle). */
const KEYWORD_FIELDS = FIELD.role | FIELD.skills | FIELD.company | FIELD.description |
  FIELD.location;
/** At most this many roles are offered, the most common of the search first. */
export const MAX_ROLE_OPTIONS = 50;

/** A search: the table's filters (`FilterValues`: role, work mode, ...) and the rest. */
export interface JobSearch extends FilterValues {
  keywords?: string;
  location?: string;
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

/** A set of small codes as the bits of one number. */
const bitsOf = (values: readonly string[], chosen: readonly string[] | undefined) =>
  (chosen ?? []).reduce((bits, value) => bits | (1 << optionCode(values, value)), 0);

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
/** The kind of a job of each trait. */
const KIND_OF_TRAIT = Uint8Array.from(
  TRAIT.type,
  (type, trait) => kindOf(type, TRAIT.level[trait]),
);
/** `collect`'s per-trait counts and the traits it met, zeroed again before it returns. */
const TRAIT_COUNTS = new Uint32Array(TRAIT_CODES);
const TRAITS_SEEN = new Uint16Array(TRAIT_CODES);
/** Date posted windows a job can be in: one per POSTED_WITHIN and one for older jobs. */
const WINDOWS = POSTED_WITHIN.length + 1;

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
  // Every kind is allowed until a filter word says otherwise (codes no job has included, so that
  // a search without filter words is seen to sift nothing).
  const allowed = new Uint8Array(256).fill(1);
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

/** Found jobs before the dropdowns: their numbers and, when words ranked them, their scores. */
type Matched = { docs: Uint32Array; score: Uint16Array } | null;

function searchWith(
  index: SearchIndex,
  query: JobSearch,
  keywords: KeywordQuery,
  partly: boolean,
): { answer: SearchAnswer; reached: number } {
  const wanted = wantedOf(index, query, keywords);
  const matched = partly
    ? matchMost(index, keywords.terms, KEYWORD_FIELDS)
    : index.match(keywords.terms, KEYWORD_FIELDS, wanted.within);
  const { docs, scores, positions } = index.foundArrays();
  const found: Found = {
    docs,
    scores: matched ? scores : null,
    scoreCounts: new Uint32Array(
      (matched ? BEST_WORD_SCORE * keywords.terms.length + 1 : 1) * WINDOWS,
    ),
    total: 0,
  };
  const tally = newTally(index);
  const reached = collect(index, wanted, matched, partly, found, tally);
  const page = rankPage(index, query, found, positions, wanted.windowOf);
  const answer = {
    ids: page.map((doc) => index.ids[doc]),
    total: found.total,
    docs: docs.subarray(0, found.total),
    partial: partly && found.total > 0,
    facets: facetsOf(index, query, tally),
  };
  return { answer, reached };
}

/** What a search asks of each job, in the codes of the index's per-job arrays. */
interface Wanted {
  located: Uint8Array | null;
  role: number;
  mode: number;
  category: number;
  company: number;
  payMin: number;
  since: number;
  /**
   * Each job's Date posted window (`SearchIndex.windowsAt`): 0 when posted within the newest, one
   * more for each window it is older than, POSTED_WITHIN.length when older than all.
   */
  windowOf: Uint8Array;
  /** Whether any dropdown filters; without, every job the words and the location let in is found. */
  dropdowns: boolean;
  allowed: Uint8Array;
  misses: Uint8Array;
  byPlace: { kinds: Uint8Array; places: Uint8Array }[];
  /**
   * A mask every found job is in (the location, or a place word no kind of job gets past): the
   * words' matches are only its jobs, and without words the candidates are its live jobs rather
   * than every live job.
   */
  within: Uint8Array | null;
}

function wantedOf(index: SearchIndex, query: JobSearch, keywords: KeywordQuery): Wanted {
  const level = optionCode(EXPERIENCE_OPTIONS, query.experience);
  const type = optionCode(EMPLOYMENT_TYPES, query.employmentType);
  const now = query.now ?? Date.now();
  // Where each window starts, newest first.
  const starts = Float64Array.from(POSTED_WITHIN, (days) => now - days * DAY_MS);
  const wanted = {
    located: index.located(locationGroups(query.location)),
    role: query.role === undefined ? -1 : index.roleCode.get(query.role) ?? -2,
    mode: optionCode(WORK_MODES, query.workMode),
    category: optionCode(ROLE_CATEGORIES, query.category),
    company: query.company === undefined
      ? -1
      : index.companyCode.get(companyKey(query.company)) ?? -2,
    payMin: query.payMin ?? 0,
    since: query.postedWithin === undefined ? -Infinity : now - query.postedWithin * DAY_MS,
    windowOf: index.windowsAt(starts),
    ...kindTables(index, keywords.filters, level, type),
  };
  const dropdowns = level !== 0 || type !== 0 || wanted.role !== -1 || wanted.mode !== 0 ||
    wanted.category !== 0 || wanted.company !== -1 || wanted.payMin > 0 || wanted.since > -Infinity;
  const within = wanted.located ??
    wanted.byPlace.find(({ kinds }) => kinds.every((admits) => admits === 0))?.places ?? null;
  return { ...wanted, dropdowns, within };
}

/** Per dropdown, how many jobs each option would give with the other filters. */
function newTally(index: SearchIndex) {
  return {
    roles: new Uint32Array(index.roleNames.length),
    levels: new Uint32Array(EXPERIENCE_OPTIONS.length + 1),
    types: new Uint32Array(EMPLOYMENT_TYPES.length + 1),
    modes: new Uint32Array(WORK_MODES.length + 1),
    categories: new Uint32Array(ROLE_CATEGORIES.length + 1),
    companies: new Uint32Array(index.companyNames.length),
    bands: new Uint32Array(SALARY_BANDS.length + 1),
    windows: new Uint32Array(POSTED_WITHIN.length + 1),
  };
}
type Tally = ReturnType<typeof newTally>;

/** The jobs a search finds, in the index's reused arrays: `total` of them. */
interface Found {
  docs: Uint32Array;
  scores: Uint16Array | null;
  /**
   * How many found jobs have each score (all score 0 without words) and are in each Date posted
   * window (`scoreCounts[score * WINDOWS + window]`): a page ranks only the jobs that can be on it.
   */
  scoreCounts: Uint32Array;
  total: number;
}

/**
 * One pass over the candidates: the jobs every filter lets in go to `found`, and each counts for
 * the dropdown options it has (a job failing only one dropdown's filter counts for that dropdown's
 * option). Returns how many jobs have every word that the keyword box's filters and the location
 * let in, whatever the dropdowns.
 *
 * Every long loop here is a function of its own that returns a number it kept in a local: V8
 * compiles a loop of tens of thousands of jobs while it runs (on-stack replacement), before the
 * code after it has ever run, and that code then had no type feedback and sent the search back to
 * the interpreter at the loop's end (2% of the bench's searches, its slowest).
 */
function collect(
  index: SearchIndex,
  wanted: Wanted,
  matched: Matched,
  partly: boolean,
  found: Found,
  tally: Tally,
): number {
  // Without words every live job is a candidate (or each the mask lets in), in job-number order.
  const candidates = matched?.docs ??
    (wanted.within ? index.liveDocsIn(wanted.within) : index.liveDocs());
  const scores = matched?.score;
  const { located, byPlace, allowed, windowOf } = wanted;
  // One place a filter word names (Remote, a Senior role) is the most a search usually has.
  // Without one, every candidate (a live job) is in the place of every live job: the pass reads a
  // job's place either way, so V8 has compiled that read before the first search with a place,
  // which otherwise sent that search back to the interpreter midway through its 100,000 jobs.
  const place = byPlace.length === 1 ? byPlace[0] : { kinds: NO_KIND, places: index.alive };
  const reached = located === null && byPlace.length <= 1 && !partly && !wanted.dropdowns
    ? countAll(index, candidates, scores, allowed, place, windowOf, found, tally)
    : countEach(index, wanted, candidates, scores, partly, found, tally);
  found.total = spread(found.scoreCounts, tally);
  return reached;
}

/** No kind of job, for a search without a place a filter word names: its jobs' place decides. */
const NO_KIND = new Uint8Array(256);

/**
 * `collect`'s pass when only the words and the keyword box's filter words choose (no dropdown, no
 * location, at most one place a filter word names, every word matched): each candidate of an
 * allowed kind, and of the place's kinds or in the place, is found. Without the other filters'
 * tests the loop takes under half the time of `countEach` over a broad word's tens of thousands of
 * jobs (74,596 for "learning": 1.0 ms against 2.2). Returns how many it found.
 */
function countAll(
  index: SearchIndex,
  candidates: Uint32Array,
  matchedScores: Uint16Array | undefined,
  allowed: Uint8Array,
  { kinds, places }: { kinds: Uint8Array; places: Uint8Array },
  windowOf: Uint8Array,
  { docs, scores, scoreCounts }: Found,
  { roles, companies }: Tally,
): number {
  const { roleOf, traitOf, companyOf } = index;
  const traitCounts = TRAIT_COUNTS;
  const traits = TRAITS_SEEN;
  let seen = 0;
  let total = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    const trait = traitOf[doc];
    const kind = KIND_OF_TRAIT[trait];
    if (allowed[kind] === 0 || (kinds[kind] === 0 && places[doc] === 0)) continue;
    const score = matchedScores === undefined ? 0 : matchedScores[i];
    if (scores) scores[total] = score;
    docs[total++] = doc;
    if (traitCounts[trait]++ === 0) traits[seen++] = trait;
    scoreCounts[score * WINDOWS + windowOf[doc]]++;
    roles[roleOf[doc]]++;
    companies[companyOf[doc]]++;
  }
  return total;
}

/** Whether the keyword box's filter words and the location let in a job; null when they all do. */
function admitter(
  { located, allowed, byPlace }: Wanted,
): ((doc: number, kind: number) => boolean) | null {
  if (located === null && byPlace.length === 0 && !allowed.includes(0)) return null;
  return (doc: number, kind: number) => {
    if (located && located[doc] === 0) return false;
    if (allowed[kind] === 0) return false;
    for (let p = 0; p < byPlace.length; p++) {
      if (byPlace[p].kinds[kind] === 0 && byPlace[p].places[doc] === 0) return false;
    }
    return true;
  };
}

/**
 * A partial match's score carries its number of terms above the low bits: the most of the jobs
 * let in, as only the jobs with that many are found.
 */
function mostTerms(
  traitOf: Uint16Array,
  candidates: Uint32Array,
  matchedScores: Uint16Array,
  admitted: ((doc: number, kind: number) => boolean) | null,
): number {
  let most = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    if (!admitted || admitted(doc, KIND_OF_TRAIT[traitOf[doc]])) {
      most = Math.max(most, matchedScores[i] >> TERM_SHIFT);
    }
  }
  return most;
}

/** `collect`'s pass with every test: returns how many candidates the dropdowns were asked about. */
function countEach(
  index: SearchIndex,
  wanted: Wanted,
  candidates: Uint32Array,
  matchedScores: Uint16Array | undefined,
  partly: boolean,
  { docs, scores, scoreCounts }: Found,
  tally: Tally,
): number {
  const { misses, role, mode, category, company, payMin, since, windowOf, dropdowns } = wanted;
  const { roleOf, traitOf, companyOf, payTop, posted } = index;
  const admitted = admitter(wanted);
  const most = partly ? mostTerms(traitOf, candidates, matchedScores!, admitted) : 0;
  const { roles, levels, types, modes, categories, companies, bands, windows } = tally;
  // Found jobs per trait and per score and window (`Found`), spread over the dropdowns' counts
  // after the pass: two counts a job rather than seven, each a read and a write the next job's
  // count may wait on.
  const traitCounts = TRAIT_COUNTS;
  const traits = TRAITS_SEEN;
  let seen = 0;
  let total = 0;
  let reached = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    const trait = traitOf[doc];
    const kind = KIND_OF_TRAIT[trait];
    if (admitted && !admitted(doc, kind)) continue;
    if (partly && matchedScores![i] >> TERM_SHIFT < most) continue;
    reached++;
    const jobRole = roleOf[doc];
    const jobCompany = companyOf[doc];
    const window = windowOf[doc];
    const miss = dropdowns
      ? misses[kind] | (role !== -1 && jobRole !== role ? ROLE_MISS : 0) |
        (mode !== 0 && TRAIT.mode[trait] !== mode ? MODE_MISS : 0) |
        (category !== 0 && TRAIT.category[trait] !== category ? CATEGORY_MISS : 0) |
        (company !== -1 && jobCompany !== company ? COMPANY_MISS : 0) |
        (payTop[doc] < payMin ? PAY_MISS : 0) | (posted[doc] < since ? POSTED_MISS : 0)
      : 0;
    if (miss === 0) {
      let score = 0;
      if (scores) {
        score = matchedScores![i] & SCORE_BITS;
        scores[total] = score;
      }
      docs[total++] = doc;
      if (traitCounts[trait]++ === 0) traits[seen++] = trait;
      scoreCounts[score * WINDOWS + window]++;
      roles[jobRole]++;
      companies[jobCompany]++;
    } else if (miss === ROLE_MISS) roles[jobRole]++;
    else if (miss === LEVEL_MISS) levels[TRAIT.level[trait]]++;
    else if (miss === TYPE_MISS) types[TRAIT.type[trait]]++;
    else if (miss === MODE_MISS) modes[TRAIT.mode[trait]]++;
    else if (miss === CATEGORY_MISS) categories[TRAIT.category[trait]]++;
    else if (miss === COMPANY_MISS) companies[jobCompany]++;
    else if (miss === PAY_MISS) bands[TRAIT.band[trait]]++;
    else if (miss === POSTED_MISS) windows[window]++;
  }
  return reached;
}

/**
 * Spreads the found jobs' counts per trait over the dropdowns the traits make, and their counts
 * per score and window over the Date posted windows; zeroes the trait counts again. Returns how
 * many jobs were found. The traits met are the first of TRAITS_SEEN up to one whose count is zero
 * (each is listed once, when its count leaves zero, and is zeroed here in list order, so an older
 * search's leftover after the list has count zero by the time it is read).
 */
function spread(scoreCounts: Uint32Array, tally: Tally): number {
  const { levels, types, modes, categories, bands, windows } = tally;
  let total = 0;
  for (let at = 0; at < scoreCounts.length; at++) {
    windows[at % WINDOWS] += scoreCounts[at];
    total += scoreCounts[at];
  }
  for (let t = 0; t < TRAIT_CODES; t++) {
    const trait = TRAITS_SEEN[t];
    const count = TRAIT_COUNTS[trait];
    if (count === 0) break;
    TRAIT_COUNTS[trait] = 0;
    levels[TRAIT.level[trait]] += count;
    types[TRAIT.type[trait]] += count;
    modes[TRAIT.mode[trait]] += count;
    categories[TRAIT.category[trait]] += count;
    bands[TRAIT.band[trait]] += count;
  }
  return total;
}

/** The asked page of the found jobs, in the query's order: their job numbers. */
function rankPage(
  index: SearchIndex,
  query: JobSearch,
  { docs, scores, scoreCounts, total }: Found,
  positions: Uint32Array,
  windowOf: Uint8Array,
): number[] {
  const { posted, ids, payTop } = index;
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
  const wanted = query.offset + query.limit;
  let ranked = total;
  let at = (position: number) => position;
  const scored = query.order === "relevance" && scores !== null;
  if ((scored || before === newer) && wanted < total) {
    // The page is the jobs scoring above the lowest score its jobs reach (`least`; every job
    // scores 0 in an order not by score), then the newest of those scoring `least`: only the ones
    // in the Date posted windows that hold enough of them can be on it.
    const scoresKept = scoreCounts.length / WINDOWS;
    const count = (score: number, window: number) => {
      if (scored) return scoreCounts[score * WINDOWS + window];
      let all = 0;
      for (let kept = 0; kept < scoresKept; kept++) all += scoreCounts[kept * WINDOWS + window];
      return all;
    };
    const tiers = Array.from({ length: scored ? scoresKept : 1 }, (_, score) => {
      let all = 0;
      for (let window = 0; window < WINDOWS; window++) all += count(score, window);
      return all;
    });
    const least = leastOfBest(tiers, wanted);
    let above = 0;
    for (let score = least + 1; score < tiers.length; score++) above += tiers[score];
    let last = WINDOWS - 1;
    for (let window = 0, reached = above; window < WINDOWS - 1; window++) {
      reached += count(least, window);
      if (reached >= wanted) {
        last = window;
        break;
      }
    }
    ranked = pageable(docs, scored ? scores : null, total, least, windowOf, last, positions);
    at = (position) => positions[position];
  }
  return topOf(ranked, at, wanted, before).slice(query.offset).map((at) => docs[at]);
}

/**
 * The positions in `docs` of the found jobs that can be on the page (scoring above `least`, or
 * `least` in a window up to `last`) into `positions`; returns how many. A loop of its own for the
 * reason `collect` gives.
 */
function pageable(
  docs: Uint32Array,
  scores: Uint16Array | null,
  total: number,
  least: number,
  windowOf: Uint8Array,
  last: number,
  positions: Uint32Array,
): number {
  let ranked = 0;
  for (let position = 0; position < total; position++) {
    const score = scores ? scores[position] : 0;
    if (score > least || (score === least && windowOf[docs[position]] <= last)) {
      positions[ranked++] = position;
    }
  }
  return ranked;
}

function facetsOf(index: SearchIndex, query: JobSearch, tally: Tally): Facets {
  const company = query.company === undefined
    ? undefined
    : index.companyNames[index.companyCode.get(companyKey(query.company)) ?? -1] ?? query.company;
  return {
    roles: topOptions(index.roleNames, tally.roles, query.role),
    experience: counted(EXPERIENCE_OPTIONS, tally.levels, query.experience),
    employmentTypes: counted(EMPLOYMENT_TYPES, tally.types, query.employmentType),
    workModes: counted(WORK_MODES, tally.modes, query.workMode),
    categories: counted(ROLE_CATEGORIES, tally.categories, query.category),
    salaries: reaching(SALARY_BANDS.map((lakhs) => String(lakhs * LAKH)), tally.bands, "up"),
    posted: reaching(POSTED_WITHIN.map(String), tally.windows, "down"),
    companies: topOptions(index.companyNames, tally.companies, company),
  };
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
