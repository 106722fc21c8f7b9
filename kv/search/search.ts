/**
 * A job search over the index: the keyword box's words and filter words, the location, the three
 * dropdown filters, one page in relevance or date order, and how many jobs each dropdown option
 * would give with the other filters, all in one pass over compact per-job arrays (`pass.ts`).
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
import { BEST_WORD_SCORE, FIELD, PHRASE_BONUS, type Term } from "./fields.ts";
import { companyKey, LAKH, optionCode } from "./codes.ts";
import { matchMost } from "./partial.ts";
import { locationGroups } from "./places.ts";
import { type FilterWord, parseKeywords, wholePhrases } from "./query.ts";
import { leastOfBest, topK, topOf } from "./top.ts";
import {
  collect,
  type Found,
  keepAdmitted,
  kindOf,
  LEVEL_MISS,
  newTally,
  type Tally,
  TYPE_MISS,
  type Wanted,
  WINDOWS,
} from "./pass.ts";
import { isRoleStem, stem } from "./vocabulary.ts";
import { isStopWord } from "./text.ts";
import { keepBoth } from "./marks.ts";

/** Where the keyword box looks: everything but the job ID (an admin-only handle). */
const KEYWORD_FIELDS = FIELD.role | FIELD.roleAsWritten | FIELD.skills | FIELD.company |
  FIELD.description | FIELD.location;
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
  /**
   * Relevance falls back to newest first when there are no words to rank by; pay is highest first,
   * lowest pay the lowest first with the jobs without pay last.
   */
  order: "relevance" | "newest" | "oldest" | "pay" | "lowestPay";
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
  /**
   * The last moment (ms) this answer holds for: at a later minute a job it counted has left a Date
   * posted window (`Found.until`).
   */
  until: number;
}

/** A set of small codes as the bits of one number. */
const bitsOf = (values: readonly string[], chosen: readonly string[] | undefined) =>
  (chosen ?? []).reduce((bits, value) => bits | (1 << optionCode(values, value)), 0);

/** Role words that mean the same job: each a weaker match for the others. */
const ROLE_WORDS = ["developer", "engineer", "programmer"].map(stem);
const otherRoleWords = (word: string) => ROLE_WORDS.filter((other) => other !== word);
/**
 * Titles any field's jobs share (an HR executive and a sales executive): in a partial match they
 * count half, so `seo executive` ranks the SEO job above the HR executive.
 */
const TITLE_WORDS = new Set(
  [
    "executive",
    "manager",
    "assistant",
    "associate",
    "officer",
    "specialist",
    "consultant",
    "coordinator",
    "operator",
  ].map(stem),
);

/**
 * What a filter word of the keyword box lets in: per kind of job (`kindOf`), whether its
 * employment types or experience levels hold it (`kinds`), and the jobs it lets in whatever their
 * kind (`places`: where it names places, or whose role names its role words, a Senior role).
 * `slot` is the filter word's own reused array in the index.
 */
function filterKinds(index: SearchIndex, filter: FilterWord, slot: number) {
  const names = filter.locations ?? filter.roleWords;
  const field = filter.locations ? FIELD.location : FIELD.role;
  const places = filter.categories
    ? index.inCategories(filter.categories.map((name) => optionCode(ROLE_CATEGORIES, name)), slot)
    : names
    ? index.located([names], slot, field)
    : null;
  const types = bitsOf(EMPLOYMENT_TYPES, filter.employmentTypes);
  const levels = bitsOf(EXPERIENCE_OPTIONS, filter.experiences);
  const kinds = new Uint8Array(256);
  for (let jobType = 0; jobType <= EMPLOYMENT_TYPES.length; jobType++) {
    for (let jobLevel = 0; jobLevel <= EXPERIENCE_OPTIONS.length; jobLevel++) {
      const byKind = ((types >> jobType) & 1) === 1 || ((levels >> jobLevel) & 1) === 1;
      kinds[kindOf(jobType, jobLevel)] = byKind ? 1 : 0;
    }
  }
  return { kinds, places };
}

/**
 * Per kind of job (`kindOf`), which of the experience and type dropdowns turn it away: a bit each
 * (`LEVEL_MISS`, `TYPE_MISS`).
 */
function missesOf(level: number, type: number): Uint8Array {
  const misses = new Uint8Array(256);
  for (let jobType = 0; jobType <= EMPLOYMENT_TYPES.length; jobType++) {
    for (let jobLevel = 0; jobLevel <= EXPERIENCE_OPTIONS.length; jobLevel++) {
      misses[kindOf(jobType, jobLevel)] = (level !== 0 && jobLevel !== level ? LEVEL_MISS : 0) |
        (type !== 0 && jobType !== type ? TYPE_MISS : 0);
    }
  }
  return misses;
}

/** Whether a filter word of the keyword box names places only (`pune`, `remote`). */
const placeOnly = (filter: FilterWord) =>
  filter.locations !== undefined && !filter.employmentTypes && !filter.experiences;

/**
 * A mask every job a search finds is in: the location's and the keyword box's filter words' jobs;
 * null when they let in every job. Places are marked afresh for each search, as there are many;
 * the index keeps the other filter words' mask (a Senior role, an internship, IT jobs) for the
 * next search with the same ones.
 */
function withinOf(
  index: SearchIndex,
  query: JobSearch,
  filters: [FilterWord, number][],
): Uint8Array | null {
  let within = index.located(locationGroups(query.location));
  for (const [filter, slot] of filters) {
    if (!placeOnly(filter)) continue;
    const places = filterKinds(index, filter, slot).places!;
    within = within ? keepBoth(within, places) : places;
  }
  const kinds = filters.filter(([filter]) => !placeOnly(filter));
  if (kinds.length === 0) return within;
  const admitted = admittedBy(index, kinds);
  return within ? keepBoth(within, admitted) : admitted;
}

/** The live jobs every one of the filter words `kinds` lets in: a mask the index keeps. */
function admittedBy(index: SearchIndex, kinds: [FilterWord, number][]): Uint8Array {
  return index.admitted(JSON.stringify(kinds.map(([filter]) => filter)), (mask) => {
    for (const [filter, slot] of kinds) keepAdmitted(index, filterKinds(index, filter, slot), mask);
  });
}

export function searchJobs(index: SearchIndex, asked: JobSearch): SearchAnswer {
  const keywords = parseKeywords(asked.keywords);
  return withPayFloor(searchParsed(index, asked, keywords), keywords.payMin, asked.payMin);
}

/**
 * The Salary options beside a pay phrase in the keyword box (`10 lpa`), which sets the floor
 * whatever the option: an option below it gives what the phrase gives, so it is not offered, and
 * when chosen it counts the jobs found.
 */
function withPayFloor(answer: SearchAnswer, floor?: number, chosen?: number): SearchAnswer {
  if (!floor) return answer;
  const salaries = answer.facets.salaries.flatMap(([value, jobs]): Counted[] =>
    Number(value) >= floor
      ? [[value, jobs]]
      : Number(value) === chosen
      ? [[value, answer.total]]
      : []
  );
  return { ...answer, facets: { ...answer.facets, salaries } };
}

/** The search `asked`, its keyword box read (`parseKeywords`). */
function searchParsed(
  index: SearchIndex,
  asked: JobSearch,
  keywords: ReturnType<typeof parseKeywords>,
): SearchAnswer {
  // A pay phrase in the keyword box (`python 5 lpa`) is the Salary filter, the higher if both ask.
  const query = (keywords.payMin ?? 0) > (asked.payMin ?? 0)
    ? { ...asked, payMin: keywords.payMin }
    : asked;
  // Each filter word keeps its own reused array in the index (slot 0 is the location box's).
  const filters = keywords.filters.map((filter, i): [FilterWord, number] => [filter, i + 1]);
  const { answer, reached } = searchWith(index, query, keywords.terms, filters, null);
  // A filter word naming no place (an employment type, an experience phrase) is a word too when
  // no job has every word ("summer internship", "freelance content writer"); places stay filters.
  const kindWords = filters.filter(([filter]) => !filter.locations);
  // A role word alone that no job holds finds the roles that mean the same (`programmer`).
  const roleAlone = keywords.terms.length === 1 && ROLE_WORDS.includes(keywords.terms[0].word);
  if (reached > 0 || (keywords.terms.length + kindWords.length < 2 && !roleAlone)) return answer;
  // No job has every word (whatever the dropdowns, so their counts hold): the jobs with the most
  // of them, rather than an empty page. A word no job holds counts for none and is left out (a
  // role word's others may still be held), as is a number (Sector 62's 62 is no reason to show a
  // job that has 62 of something else).
  const known = wholePhrases(keywords.terms).filter((term) =>
    !/^\p{N}+$/u.test(term.word) &&
    (ROLE_WORDS.includes(term.word) || index.termMatches(term).length > 0)
  );
  const terms = known.map((term) =>
    ROLE_WORDS.includes(term.word)
      ? { ...term, weaker: otherRoleWords(term.word), generic: true }
      : TITLE_WORDS.has(term.word)
      ? { ...term, generic: true }
      : term
  );
  if (terms.length === 0) {
    // Filter words alone that no job meets together ("senior intern") find nothing; one filter
    // word left finds its jobs, as its own search does ("summer internship", "b.e fresher"), but
    // not beside a role no job holds: a senior pilot wants no senior job of another trade.
    const roleTyped = keywords.terms.some((term) => isRoleStem(term.word));
    if (kindWords.length !== 1 || roleTyped) return answer;
    const one = searchWith(index, query, [], filters, null).answer;
    return { ...one, partial: one.total > 0 };
  }
  const places = filters.filter(([filter]) => filter.locations);
  const counted = kindWords.map((word) => {
    const admitted = admittedBy(index, [word]);
    return (doc: number) => admitted[doc] === 1;
  });
  return searchWith(index, query, terms, places, counted).answer;
}

/**
 * Searches with `terms` and the filter words `filters`; with `counted` (a partial match), the jobs
 * with the most of the terms and of the filter words `counted` tests, which then filter nothing.
 */
function searchWith(
  index: SearchIndex,
  query: JobSearch,
  terms: Term[],
  filters: [FilterWord, number][],
  counted: ((doc: number) => boolean)[] | null,
): { answer: SearchAnswer; reached: number } {
  const wanted = wantedOf(index, query, filters);
  const partly = counted !== null;
  const matched = partly
    ? matchMost(index, terms, KEYWORD_FIELDS, counted)
    : withOtherRoleWords(index, terms, wanted);
  if (matched && !partly) index.favourPhrases(terms, matched);
  const { docs, scores, positions } = index.foundArrays();
  const found: Found = {
    docs,
    scores: matched ? scores : null,
    scoreCounts: new Uint32Array(
      (matched ? BEST_WORD_SCORE * terms.length + PHRASE_BONUS + 1 : 1) * WINDOWS,
    ),
    total: 0,
    until: Infinity,
  };
  const tally = newTally(index);
  const reached = collect(index, wanted, matched, partly, found, tally);
  const page = rankPage(index, query, found, positions, wanted.windowOf);
  const answer = {
    ids: page.map((doc) => index.ids[doc]),
    total: found.total,
    docs: found.docs.subarray(0, found.total),
    partial: partly && found.total > 0,
    facets: facetsOf(index, query, tally),
    until: found.until,
  };
  return { answer, reached };
}

/**
 * The jobs of a full match and those with another role word in their role in place of the one
 * typed, the other words anywhere (`java developer`: a Sr. Software Engineer - Java, a Full Stack
 * Engineer with Java in its skills), scoring as if that word were a typo: employers title one job
 * either way. Only in a role (a description's engineering team is no developer) and only beside
 * another word (`developer` alone finds no Civil Engineer).
 */
function withOtherRoleWords(
  index: SearchIndex,
  terms: Term[],
  wanted: Wanted,
): { docs: Uint32Array; score: Uint16Array } | null {
  const useful = terms.filter((term) => !isStopWord(term.word));
  const roleWords = useful.filter((term) => ROLE_WORDS.includes(term.word));
  if (useful.length < 2 || roleWords.length !== 1) {
    return index.match(terms, KEYWORD_FIELDS, wanted.within);
  }
  const [typed] = roleWords;
  const others = otherRoleWords(typed.word).map((word): Term => ({ word, standsIn: true }));
  return index.match(
    terms.map((term) => term === typed ? { word: typed.word, either: [typed, ...others] } : term),
    KEYWORD_FIELDS,
    wanted.within,
  );
}

function wantedOf(
  index: SearchIndex,
  query: JobSearch,
  filters: [FilterWord, number][],
): Wanted {
  const level = optionCode(EXPERIENCE_OPTIONS, query.experience);
  const type = optionCode(EMPLOYMENT_TYPES, query.employmentType);
  const now = query.now ?? Date.now();
  // Where each window starts, newest first.
  const starts = Float64Array.from(POSTED_WITHIN, (days) => now - days * DAY_MS);
  const wanted = {
    within: withinOf(index, query, filters),
    role: query.role === undefined ? -1 : index.roleCode.get(query.role) ?? -2,
    mode: optionCode(WORK_MODES, query.workMode),
    category: optionCode(ROLE_CATEGORIES, query.category),
    company: query.company === undefined
      ? -1
      : index.companyCode.get(companyKey(query.company)) ?? -2,
    // A job without pay has a top of 0, which no pay filter lets in, not even one of 0: every
    // pay's top is a rupee or more.
    payMin: query.payMin === undefined ? 0 : Math.max(query.payMin, 1),
    since: query.postedWithin === undefined ? -Infinity : now - query.postedWithin * DAY_MS,
    windowOf: index.windowsAt(starts),
    misses: missesOf(level, type),
  };
  const dropdowns = level !== 0 || type !== 0 || wanted.role !== -1 || wanted.mode !== 0 ||
    wanted.category !== 0 || wanted.company !== -1 || wanted.payMin > 0 || wanted.since > -Infinity;
  return { ...wanted, dropdowns };
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
    : query.order === "lowestPay"
    ? (a: number, b: number) => {
      // A job without pay (0) is no lowest pay: it goes after every job that has one.
      const x = payTop[docs[a]] || Infinity;
      const y = payTop[docs[b]] || Infinity;
      return x < y || (x === y && newer(a, b));
    }
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
    let pageable = above;
    for (let window = 0; window < WINDOWS; window++) {
      pageable += count(least, window);
      if (pageable >= wanted && window < WINDOWS - 1) {
        last = window;
        break;
      }
    }
    const from = pageableAt(
      docs,
      scored ? scores : null,
      total,
      least,
      windowOf,
      last,
      positions,
      pageable,
    );
    ranked = pageable - from;
    at = (position) => positions[from + position];
  }
  return topOf(ranked, at, wanted, before).slice(query.offset).map((at) => docs[at]);
}

/**
 * The positions in `docs` of the `count` found jobs that can be on the page (scoring above
 * `least`, or `least` in a window up to `last`), in their order, into `positions` up to `count`;
 * returns where they start there (0 when `count` is right). Found jobs come mostly in job-number
 * order, oldest first, so the walk from the last one back ends when it has them all, usually long
 * before the first. A loop of its own for the reason `collect` (pass.ts) gives.
 */
function pageableAt(
  docs: Uint32Array,
  scores: Uint16Array | null,
  total: number,
  least: number,
  windowOf: Uint8Array,
  last: number,
  positions: Uint32Array,
  count: number,
): number {
  let slot = count;
  for (let position = total - 1; position >= 0 && slot > 0; position--) {
    const score = scores ? scores[position] : 0;
    if (score > least || (score === least && windowOf[docs[position]] <= last)) {
      positions[--slot] = position;
    }
  }
  return slot;
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
