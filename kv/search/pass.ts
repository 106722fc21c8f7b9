/**
 * A search's pass over its candidates (the jobs its words found, or every live job): which of them
 * every filter lets in, and how many jobs each dropdown option would give with the other filters,
 * in one loop over compact per-job arrays. `search.ts` asks it and ranks the page from its answer.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { POSTED_WITHIN, ROLE_CATEGORIES, SALARY_BANDS, WORK_MODES } from "../job-fields.ts";
import type { SearchIndex } from "./index.ts";
import { TRAIT, TRAIT_CODES } from "./codes.ts";
import { DAY_MS } from "../constants.ts";
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
/**
 * Unmarks in `into` the jobs a filter word turns away: those not of a kind `kinds` holds nor in
 * `places`. A job's kind is read through its trait, once per trait rather than per job.
 */
export function keepAdmitted(
  { traitOf }: SearchIndex,
  { kinds, places }: { kinds: Uint8Array; places: Uint8Array | null },
  into: Uint8Array,
): void {
  const admits = ADMITS_BY_TRAIT;
  for (let trait = 0; trait < TRAIT_CODES; trait++) admits[trait] = kinds[KIND_OF_TRAIT[trait]];
  if (places === null) keepByTrait(traitOf, admits, into);
  else keepByTraitOrPlace(traitOf, admits, places, into);
}

/** `keepAdmitted`'s per-trait answer, made again for each filter word. */
const ADMITS_BY_TRAIT = new Uint8Array(TRAIT_CODES);

/**
 * `keepAdmitted`'s pass for a filter word of kinds only; one that also names places has its own,
 * so that each loop has one shape for V8 to compile.
 */
function keepByTrait(traitOf: Uint16Array, admits: Uint8Array, into: Uint8Array): void {
  for (let doc = 0; doc < into.length; doc++) into[doc] &= admits[traitOf[doc]];
}
function keepByTraitOrPlace(
  traitOf: Uint16Array,
  admits: Uint8Array,
  places: Uint8Array,
  into: Uint8Array,
): void {
  for (let doc = 0; doc < into.length; doc++) into[doc] &= admits[traitOf[doc]] | places[doc];
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
  /** Per kind of job (`kindOf`), the experience and type dropdowns it fails, a bit each. */
  misses: Uint8Array;
  /**
   * A mask every found job is in (the location's and the keyword box's filter words' jobs): the
   * words' matches are only its jobs, and without words the candidates are its live jobs rather
   * than every live job. Null when they let in every job.
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
  /**
   * The last moment the found jobs and every count hold: at a later minute's windows one of the
   * candidates is older than the window it was in (`untilOf`). Infinity when none is in a window.
   */
  until: number;
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
  let reached: number;
  if (!partly && !wanted.dropdowns) {
    // Nothing but the words and the mask chooses: every candidate is found, as it is.
    found.docs = candidates;
    found.scores = scores ?? null;
    reached = countFound(index, candidates, scores, wanted.windowOf, found.scoreCounts, tally);
  } else reached = countEach(index, wanted, candidates, scores, partly, found, tally);
  found.total = spread(found.scoreCounts, tally);
  found.until = untilOf(index, candidates, wanted.windowOf);
  return reached;
}

/**
 * Candidates beyond which `untilOf` takes the whole index's oldest job of each window, rather than
 * look at each: a search this broad holds nearly every job, and the loop would cost it more than
 * the few minutes it could win.
 */
const UNTIL_SCAN = 4096;

/**
 * The last moment each of `candidates` is still in the Date posted window it is in: a job posted
 * at `t` is in the window of `d` days for every minute up to `t + d` days. Time moves jobs out of
 * windows only (a new job is a new revision), so an answer made from these windows holds, counts
 * and all, up to the earliest of those moments.
 */
function untilOf(index: SearchIndex, candidates: Uint32Array, windowOf: Uint8Array): number {
  let until = Infinity;
  if (candidates.length > UNTIL_SCAN) {
    for (let window = 0; window < POSTED_WITHIN.length; window++) {
      until = Math.min(until, index.oldestIn(window) + POSTED_WITHIN[window] * DAY_MS);
    }
    return until;
  }
  const { posted } = index;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i];
    const window = windowOf[doc];
    if (window < POSTED_WITHIN.length) {
      until = Math.min(until, posted[doc] + POSTED_WITHIN[window] * DAY_MS);
    }
  }
  return until;
}

/**
 * `collect`'s pass when nothing but the words and the mask chooses (decision 044): every candidate
 * is found, so the pass neither tests nor copies them, and only counts. Returns how many: all of
 * them. `countEach` counts a found job the same way, written again: sharing the counting made every
 * search slower (decision 044).
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

/**
 * A partial match's score carries its number of terms above the low bits: the most of the jobs
 * `mask` lets in, as only the jobs with that many are found.
 */
function mostTerms(candidates: Uint32Array, matchedScores: Uint16Array, mask: Uint8Array): number {
  let most = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (mask[candidates[i]] === 1) {
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
  // Every live job is in the mask of a search without one: the pass reads a mask either way, so
  // V8 has compiled that read before a search with one, which would otherwise send that search
  // back to the interpreter midway through its jobs.
  const mask = wanted.within ?? index.alive;
  const most = partly ? mostTerms(candidates, matchedScores!, mask) : 0;
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
    // A partial match's candidates are not sifted by the mask: its jobs are.
    if (mask[doc] === 0) continue;
    const trait = traitOf[doc];
    if (partly && matchedScores![i] >> TERM_SHIFT < most) continue;
    reached++;
    const jobRole = roleOf[doc];
    const jobCompany = companyOf[doc];
    const window = windowOf[doc];
    const miss = dropdowns
      ? misses[KIND_OF_TRAIT[trait]] | (role !== -1 && jobRole !== role ? ROLE_MISS : 0) |
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
