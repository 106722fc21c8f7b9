/**
 * A search's pass over its candidates (the jobs its words found, or every live job): which of them
 * every filter lets in, and how many jobs each dropdown option would give with the other filters,
 * in one loop over compact per-job arrays. `search.ts` asks it and ranks the page from its answer.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { POSTED_WITHIN, ROLE_CATEGORIES, SALARY_BANDS, WORK_MODES } from "../job-fields.ts";
import type { SearchIndex } from "./index.ts";
import { TRAIT, TRAIT_CODES } from "./codes.ts";
import { SCORE_BITS, TERM_SHIFT } from "./partial.ts";

/**
 * Each dropdown's filter a job fails, as one bit: a job failing exactly one still counts for that
 * dropdown's options (the count an option would give with the other filters).
 */
const ROLE_MISS = 1;
export const LEVEL_MISS = 2;
export const TYPE_MISS = 4;
const MODE_MISS = 8;
const CATEGORY_MISS = 16;
const COMPANY_MISS = 32;
const PAY_MISS = 64;
const POSTED_MISS = 128;

/** A job's employment type and experience as one small number: experience in the low four bits. */
export const kindOf = (jobType: number, jobLevel: number) => (jobType << 4) | jobLevel;
/** The kind of a job of each trait. */
const KIND_OF_TRAIT = Uint8Array.from(
  TRAIT.type,
  (type, trait) => kindOf(type, TRAIT.level[trait]),
);
/** Whether a job is of a kind `kinds` holds, or in `places`. */
export function kindTest(
  { traitOf }: SearchIndex,
  { kinds, places }: { kinds: Uint8Array; places: Uint8Array | null },
): (doc: number) => boolean {
  return (doc) =>
    kinds[KIND_OF_TRAIT[traitOf[doc]]] === 1 || (places !== null && places[doc] === 1);
}
/** `collect`'s per-trait counts and the traits it met, zeroed again before it returns. */
const TRAIT_COUNTS = new Uint32Array(TRAIT_CODES);
const TRAITS_SEEN = new Uint16Array(TRAIT_CODES);
/** Date posted windows a job can be in: one per POSTED_WITHIN and one for older jobs. */
export const WINDOWS = POSTED_WITHIN.length + 1;

/** Found jobs before the dropdowns: their numbers and, when words ranked them, their scores. */
type Matched = { docs: Uint32Array; score: Uint16Array } | null;

/** What a search asks of each job, in the codes of the index's per-job arrays. */
export interface Wanted {
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

/** Per dropdown, how many jobs each option would give with the other filters. */
export function newTally(index: SearchIndex) {
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
export type Tally = ReturnType<typeof newTally>;

/** The jobs a search finds, in the index's reused arrays: `total` of them. */
export interface Found {
  /** The found jobs: the index's reused array, or the candidates themselves when all are found. */
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
export function collect(
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
  const simple = located === null && byPlace.length <= 1 && !partly && !wanted.dropdowns;
  let reached: number;
  if (simple && byPlace.length === 0 && !allowed.includes(0)) {
    // Nothing but the words chooses: every candidate is found, as it is.
    found.docs = candidates;
    found.scores = scores ?? null;
    reached = countFound(index, candidates, scores, windowOf, found.scoreCounts, tally);
  } else {
    reached = simple
      ? countAll(index, candidates, scores, allowed, place, windowOf, found, tally)
      : countEach(index, wanted, candidates, scores, partly, found, tally);
  }
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

/**
 * `collect`'s pass when nothing but the words chooses (decision 044): every candidate is found, so
 * the pass neither tests nor copies them, and only counts. Returns how many: all of them. Its
 * counting is `countAll`'s, written again: `countAll` keeping the jobs and calling this to count
 * them made every search slower (decision 044).
 */
function countFound(
  index: SearchIndex,
  candidates: Uint32Array,
  matchedScores: Uint16Array | undefined,
  windowOf: Uint8Array,
  scoreCounts: Uint32Array,
  { roles, companies }: Tally,
): number {
  const { roleOf, traitOf, companyOf } = index;
  const traitCounts = TRAIT_COUNTS;
  const traits = TRAITS_SEEN;
  let seen = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    const trait = traitOf[doc];
    const score = matchedScores === undefined ? 0 : matchedScores[i];
    if (traitCounts[trait]++ === 0) traits[seen++] = trait;
    scoreCounts[score * WINDOWS + windowOf[doc]]++;
    roles[roleOf[doc]]++;
    companies[companyOf[doc]]++;
  }
  return candidates.length;
}

/** Whether the keyword box's filter words and the location let in a job; null when they all do. */
export function admitsDoc(index: SearchIndex, wanted: Wanted): ((doc: number) => boolean) | null {
  const admitted = admitter(wanted);
  const { traitOf } = index;
  return admitted && ((doc) => admitted(doc, KIND_OF_TRAIT[traitOf[doc]]));
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
