/**
 * What a visitor's words ask for: the keyword box read as terms to find (canonical forms and
 * stems), filter words (employment types, experience phrases, seniority, remote, cities) taken out
 * as filters, and filler words (`jobs`, `in`, `openings`) left out, so none can make a search fail.
 */
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS } from "../schemas.ts";
import { IT_CATEGORIES, ROLE_CATEGORIES, type RoleCategory } from "../job-fields.ts";
import { DOTTED_LPA, PAY_UNITS, type PayPeriod, PLAUSIBLE_PAY, yearly } from "../jobs/pay.ts";
import { LAKH } from "./codes.ts";
import type { Term } from "./fields.ts";
import { cityNames, modeWord, nearCityNames } from "./places.ts";
import { addWithParts, editDistance, fold, isStopWord, typoBudget, wholeWords } from "./text.ts";
import {
  boundPhrase,
  canonicalOf,
  collapse,
  isKnownStem,
  stem,
  withoutLevel,
} from "./vocabulary.ts";
import { ROLES, SKILLS } from "./vocabulary-data.ts";

type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
type Experience = (typeof EXPERIENCE_OPTIONS)[number];

/** A condition from the keyword box: a job meets it by any of the listed values. */
export interface FilterWord {
  employmentTypes?: EmploymentType[];
  experiences?: Experience[];
  /** Role categories, one of which the job's must be (`IT jobs`, `non IT`). */
  categories?: RoleCategory[];
  /** Location names (stems), any of which the job's location must hold. */
  locations?: string[];
  /** Role words (stems), any of which lets a job in whatever its experience (a Senior role). */
  roleWords?: string[];
}

export interface KeywordQuery {
  /** Terms to find in the job text, in the order typed, each once. */
  terms: Term[];
  /** Every one of these must hold. */
  filters: FilterWord[];
  /** The query's meaningful pieces as typed (a phrase, a filter, a word), for a looser search. */
  pieces: string[];
  /** Rupees a year the pay must reach, from a pay phrase (`5 lpa`, `ctc 8 lakhs`). */
  payMin?: number;
}

/**
 * The most terms a query looks for: a pasted job title keeps its first meaningful words (and a
 * partial match's count of them, two per term, fits above its points in 16 bits).
 */
export const MAX_TERMS = 30;

const STUDENT: Experience[] = ["intern", "2025 passout", "2026 passout", "2027 passout"];
const PASSOUTS = EXPERIENCE_OPTIONS.filter((option) => option.endsWith("passout"));
/** The first batch the experience options name (2025). */
const FIRST_PASSOUT = Math.min(...PASSOUTS.map((option) => Number.parseInt(option)));
/** How many batches before it a seeker may name. */
const EARLIER_BATCHES = 15;
const FRESHER: Experience[] = ["0-1", ...STUDENT];
/** LinkedIn's Mid-Senior level: from the middle up. */
const MID_SENIOR: Experience[] = ["2-3", "3+", "4+", "5+", "6+"];

/**
 * `it` alone with filter words, places or filler (`IT jobs`, `it fresher pune`) is the IT
 * categories; beside words it is the stop word it always was (`IT recruiter` is a recruiter, who
 * may work in HR; `make it work` pasted from an ad asks nothing of the category).
 */
const IT_WORD: FilterWord = { categories: [...IT_CATEGORIES] };
const NON_IT = ROLE_CATEGORIES.filter((category) => !IT_CATEGORIES.includes(category));

/** A batch's spellings, collapsed, its year on either side: `2025 passed out`, `batch 2025`. */
const batchKeys = (year: number) =>
  ["passout", "passouts", "passedout", "batch"].flatMap((word) => [
    `${year}${word}`,
    `${word}${year}`,
  ]);

/** Spellings of the filter words, collapsed (`full time`, `full-time` and `fulltime` are one). */
const FILTERS = new Map<string, FilterWord>([
  // IT and non-IT jobs, as Indian seekers ask for them.
  ["it", IT_WORD],
  ["nonit", { categories: NON_IT }],
  ["nontech", { categories: NON_IT }],
  ["nontechnical", { categories: NON_IT }],
  ["fulltime", { employmentTypes: ["Full-Time"] }],
  ["parttime", { employmentTypes: ["Part-Time"] }],
  ["internships", { employmentTypes: ["Internship"] }],
  ["internship", { employmentTypes: ["Internship"] }],
  ["interns", { employmentTypes: ["Internship"], experiences: ["intern"] }],
  ["intern", { employmentTypes: ["Internship"], experiences: ["intern"] }],
  ["contractual", { employmentTypes: ["Contract"] }],
  ["contract", { employmentTypes: ["Contract"] }],
  ["freelancer", { employmentTypes: ["Freelance"] }],
  ["freelance", { employmentTypes: ["Freelance"] }],
  ["freshers", { experiences: FRESHER }],
  ["fresher", { experiences: FRESHER }],
  ["entrylevel", { experiences: FRESHER }],
  ["freshgraduate", { experiences: FRESHER }],
  ["recentgraduate", { experiences: FRESHER }],
  ["newgraduate", { experiences: FRESHER }],
  ["newgrad", { experiences: FRESHER }],
  ["noexperience", { experiences: FRESHER }],
  ["noexp", { experiences: FRESHER }],
  ["withoutexperience", { experiences: FRESHER }],
  ["zeroexperience", { experiences: FRESHER }],
  ["zeroexp", { experiences: FRESHER }],
  ["0experience", { experiences: FRESHER }],
  ["0exp", { experiences: FRESHER }],
  ["beginner", { experiences: FRESHER }],
  // A trainee (Graduate Engineer Trainee, Management Trainee) is a fresher on a job, no intern.
  ["trainee", { experiences: FRESHER }],
  ["junior", { experiences: ["0-1", "1-2"], roleWords: ["junior"] }],
  ["midlevel", { experiences: ["2-3", "3+", "4+"] }],
  ["midsenior", { experiences: MID_SENIOR }],
  ["midseniorlevel", { experiences: MID_SENIOR }],
  ["senior", { experiences: ["4+", "5+", "6+"], roleWords: ["senior"] }],
  ["experienced", { experiences: ["1-2", "2-3", "3+", "4+", "5+", "6+"] }],
  // 2025 passout, 2025 pass out, 2025 passed out, 2025 batch, passout 2025, batch 2025.
  ...PASSOUTS.flatMap((option) =>
    batchKeys(Number.parseInt(option)).map((key): [string, FilterWord] => [
      key,
      { experiences: [option] },
    ])
  ),
  // 2024 passout, 2019 batch: a batch before the options' has worked about a year for each year
  // before the first of them, or one more.
  ...Array.from({ length: EARLIER_BATCHES }, (_, i) => i + 1).flatMap((before) => {
    const experiences = [...new Set([...fits(before), ...fits(before + 1)])];
    return batchKeys(FIRST_PASSOUT - before).map((key): [string, FilterWord] => [
      key,
      { experiences },
    ]);
  }),
]);

/**
 * Words that only say a job is wanted, where (`pune location`, `bangalore based`), how much of it
 * (`above 5 years`, `salary above 10 lpa`) or who wants it (`i am looking for a remote work`):
 * never a term, so never a reason to find nothing.
 */
const FILLER = new Set(
  ("jobs job openings opening vacancy vacancies hiring urgent urgently required requirement " +
    "wanted near position positions post posts career careers experience exp years year " +
    "yrs yr latest min minimum max maximum least atleast above over more than greater beyond " +
    "salary ctc package pay work i me my am looking seeking searching want need based " +
    "location locations city region " +
    // Hindi a seeker types around the words: naukri (a job), chahiye (wanted), mein (in), and
    // between them: ki, ka, ke (of), liye (for), wala, wali (one that).
    "naukri naukari chahiye chaiye mein ki ka ke liye wala wali " +
    // Words that only widen what is asked: any IT job, all jobs.
    "any all")
    .split(" "),
);

/**
 * `3 years`, `3+ yrs exp`, `2-4 years of experience`, `1.5 years`, `5 yoe`, and `5+` standing alone
 * (`java 5+`): the years a seeker has (`1.5 years` is one and a half, not 5).
 */
const YEARS =
  /\b(\d{1,2}(?:\.\d)?)\s*(?:(?:-|to)\s*(\d{1,2}(?:\.\d)?))?\s*(\+|plus)?\s*(?:years?|yrs?|yoe)\b(?:\s+of)?(?:\s+(?:exp(?:erience)?d?)\b)?|\b(\d{1,2})\s*(\+)(?:\s*(?:exp(?:erience)?)\b|(?=\s|$))/g;

/**
 * Words naming pay, before or after its figure: `salary 50k`, `8 lpa ctc`, `take home 30k`, and
 * the currency in words or after the figure (`25000 rupees`, `500 rs per hour`).
 */
const PAY_WORDS = String.raw`salary|ctc|package|stipend|pay|take\s+home|in\s*hand|rupees?|rs|inr`;
/** Words asking for at least the figure, or about it: `above 50k`, `at least 8 lpa`. */
const AT_LEAST = String
  .raw`above|over|min(?:imum)?|at\s*least|more\s+than|greater\s+than|from|starting(?:\s+(?:at|from))?|of|expected|expecting|range|between|around|approx(?:imately)?`;
/** Words asking for at most the figure: `upto 50k`, `below 5 lpa`, `not more than 8 lpa`. */
const AT_MOST = String
  .raw`up\s*to|max(?:imum)?|below|under|less\s+than|within|till|not\s+(?:more\s+than|above|over)`;
/** The same after the figure: `8 lpa or more`, `50k+ onwards`, `30k max`. */
const LIMIT_AFTER = String
  .raw`(?:or|and)\s+(?:more|above|less|below)|onwards|plus|max(?:imum)?|min(?:imum)?`;
/** A period in words, which may also stand before the figure (`monthly salary 15000`). */
const MONTHLY = String.raw`(?:per|a|an|every)\s+(?:month|mon|mo|mth)|per\s+mensem|monthly`;
const YEARLY = String.raw`(?:per|a|an|every)\s+(?:year|yr|annum)|yearly|annual(?:ly)?`;
const HOURLY = String.raw`(?:per|an?|every)\s+(?:hour|hr)|hourly`;
/** A period written short, only after the figure (before it, `pm` is a product manager). */
const SHORT_PERIOD = String.raw`p\.?\s?m|p\.?\s?a|\/\s*(?:month|mon|mo|mth|year|yr|annum|hour|hr)`;
/** Units a figure may carry, longest first (`lakhs` before `lakh` before `l`). */
const UNIT = Object.keys(PAY_UNITS).sort((a, b) => b.length - a.length).join("|");

/**
 * An amount: `₹50,000`, `rs 25000`, `50k`, `10+ lacs`, `1.2 cr`, and one in another currency
 * (`$50`, `€40,000`); its parts named `n`.
 */
const amount = (n: number) =>
  String.raw`(?:(?<cur${n}>₹|\brs\.?|\binr)\s*|(?<fx${n}>[$€£])\s*|(?<![\w.,]))` +
  String.raw`(?<figure${n}>\d{1,3}(?:,\d{2,3})+|\d{1,9}(?:\.\d{1,2})?)(?:\s*(?:\+|plus\b))?` +
  String.raw`(?:\s*(?<unit${n}>${UNIT}))?(?!\w|[.,]\d)`;

/**
 * A pay phrase as seekers type one, its words on either side of the figure in any order:
 * `salary above 50k`, `above 50k salary`, `50k/month`, `₹50,000 pm`, `8 lpa+`, `1 lakh per month`,
 * `monthly salary 15000`, and a range (`8-12 lpa`, `8 lpa to 12 lpa`, `between 8 and 12 lpa`).
 * Whether it is pay, and what it asks, `readPhrase` says. With `range` false, the first amount alone.
 */
const payPhrase = (range: boolean, flags: string) =>
  new RegExp(
    String
      .raw`(?<before>(?:\b(?:${PAY_WORDS}|${AT_MOST}|${AT_LEAST}|${MONTHLY}|${YEARLY}|${HOURLY})\b[\s:]*)*)` +
      amount(1) +
      (range ? String.raw`(?:\s*(?<join>-|–|—|~|\bto\b|\band\b)\s*${amount(2)})?` : "") +
      String.raw`(?<after>(?:\s*(?:\/-|\+)|\s*(?:${SHORT_PERIOD})\.?(?!\w)|` +
      String.raw`\s*\b(?:${PAY_WORDS}|${LIMIT_AFTER}|${MONTHLY}|${YEARLY}|${HOURLY})\b)*)`,
    flags,
  );
const PAY_PHRASE = payPhrase(true, "g");
/** The phrase at a place without its range: `salary 15000 and 2 years` is 15000 and 2 years. */
const ONE_AMOUNT = payPhrase(false, "y");

const PAY_WORD = new RegExp(String.raw`\b(?:${PAY_WORDS})\b`);
/** Words asking a floor of a figure, which make a figure in thousands pay: `min 50k`. */
const FLOOR_WORD = /\b(?:above|over|min(?:imum)?|at\s*least|more\s+than|greater\s+than|starting)\b/;
/** The same after the figure: `50k or more`, `50k onwards`. */
const FLOOR_AFTER = /\b(?:(?:or|and)\s+(?:more|above)|onwards)\b/;
const CAPPED = /\b(?:up\s*to|max|maximum|below|under|less|within|till|not)\b/;
const PERIODS: [PayPeriod, RegExp][] = [
  ["month", new RegExp(String.raw`\b(?:${MONTHLY})\b|\bp\.?\s?m\b|\/\s*(?:month|mon|mo|mth)\b`)],
  ["year", new RegExp(String.raw`\b(?:${YEARLY})\b|\bp\.?\s?a\b|\/\s*(?:year|yr|annum)\b`)],
  ["hour", new RegExp(String.raw`\b(?:${HOURLY})\b|\/\s*(?:hour|hr)\b`)],
];

/** Rupees of a figure in its unit (`8` `lpa`, `50,000`). */
const rupeesOf = (figure: string, unit?: string) =>
  Number(figure.replaceAll(",", "")) * (unit ? PAY_UNITS[unit] : 1);

/**
 * What a pay phrase asks, in rupees a year (0 when only a cap or another currency's sum, which no
 * filter reads), or null when it is no pay. A figure is pay when marked as pay: by lakhs or crores
 * (`8L`, `1 cr`), a rupee sign, a pay word or a period; a bare figure is no pay (a year, a version,
 * a PIN code, `4k`).
 * Without a period, a figure in lakhs or crores is a year's (as `LPA` says), one in thousands a
 * month's, and rupees a year's from a lakh up, a month's below. A range asks its low end; two
 * periods, or a figure no pay of its period can be, are no pay.
 */
function readPhrase(groups: Record<string, string | undefined>): number | null {
  const { before = "", after = "", join, figure1, unit1, cur1, figure2, unit2, cur2 } = groups;
  // Every job here pays in rupees: a sum in another currency is no figure to filter by, and its
  // words would find nothing (`$50/hr`'s hr is HR).
  if (groups.fx1 || groups.fx2) return 0;
  const around = `${before} ${after}`;
  const unit = unit1 ?? unit2;
  if (figure2 !== undefined) {
    // `8 lpa and 2 years`: an `and` joins a range only after `between`.
    if (join === "and" && !/\bbetween\b/.test(before)) return null;
    if (rupeesOf(figure1!, unit) > rupeesOf(figure2, unit2 ?? unit1)) return null;
  }
  const named = PERIODS.filter(([, words]) => words.test(around)).map(([period]) => period);
  if (unit === "lpa") named.push("year");
  if (new Set(named).size > 1) return null;
  // Lakhs and crores are pay's own units; thousands are anything's (`4k video`, `10k steps`),
  // pay only beside a pay word or a floor or cap asked of them (`min 50k`, `upto 50k`).
  const inLakhs = unit !== undefined && PAY_UNITS[unit] >= LAKH && unit !== "mn";
  // `/-` ends a sum of rupees as Indian texts write one (`15000/-`).
  const marked = inLakhs || cur1 || cur2 || after.includes("/-") || PAY_WORD.test(around) ||
    named.length > 0 ||
    (unit !== undefined &&
      (FLOOR_WORD.test(before) || FLOOR_AFTER.test(after) || CAPPED.test(around)));
  if (!marked) return null;
  const rupees = rupeesOf(figure1!, unit);
  // A figure in thousands is a month's, as seekers write one (`salary 150k`); in rupees, one of a
  // lakh or more is a year's, as Indian postings write them.
  const thousands = unit !== undefined && PAY_UNITS[unit] < LAKH;
  const period = named[0] ?? (inLakhs || (!thousands && rupees >= LAKH) ? "year" : "month");
  const [least, most] = PLAUSIBLE_PAY[period];
  if (rupees < least || rupees > most) return null;
  return CAPPED.test(around) ? 0 : Math.round(yearly(rupees, period));
}

/** Words asking for more pay than most: `high salary`, `good package`. */
const HIGH_PAY =
  /\b(?:high|higher|good|best|attractive|decent|handsome|better)\s+(?=salary|pay|package|ctc|stipend)/g;

/**
 * The pay phrases of `text` as the rupees a year asked (the highest, if several), and the text
 * without them; read before the years, where `10+` alone would be experience. A phrase asking at
 * most a figure (`upto 50k`) is left out and asks nothing: the filter has no top, and as words it
 * would find nothing.
 */
function payPhrases(text: string): { rest: string; payMin?: number; pieces: string[] } {
  let payMin: number | undefined;
  const pieces: string[] = [];
  const kept: string[] = [];
  const asked = text.replace(HIGH_PAY, " ").replace(DOTTED_LPA, "lpa");
  let from = 0;
  PAY_PHRASE.lastIndex = 0;
  for (let found = PAY_PHRASE.exec(asked); found; found = PAY_PHRASE.exec(asked)) {
    let phrase: RegExpExecArray | null = found;
    let rupees = readPhrase(found.groups!);
    if (rupees === null && found.groups!.figure2 !== undefined) {
      ONE_AMOUNT.lastIndex = found.index;
      phrase = ONE_AMOUNT.exec(asked);
      rupees = phrase && readPhrase(phrase.groups!);
    }
    if (rupees === null || !phrase) {
      // No pay here; a phrase may start later within it (`java 17 salary 50000`).
      PAY_PHRASE.lastIndex = found.index + 1;
      continue;
    }
    const end = phrase.index + phrase[0].length;
    kept.push(asked.slice(from, phrase.index));
    from = PAY_PHRASE.lastIndex = end;
    if (rupees === 0) continue;
    payMin = Math.max(payMin ?? 0, rupees);
    pieces.push(phrase[0].trim());
  }
  kept.push(asked.slice(from));
  return { rest: kept.join(" "), payMin, pieces };
}

/** `6 months`, `6-18 months of experience`: months a seeker has worked. */
const MONTHS =
  /\b(\d{1,3})\s*(?:(?:-|to)\s*(\d{1,3}))?\s*(?:months?|mos?|mnths?)\b(?:\s+of)?(?:\s+(?:exp(?:erience)?d?)\b)?/g;

/** Numbers written as words, at their value. */
const NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");
/** What follows a count of years or months (`+ years`, ` to three yrs`, ` months`). */
const BEFORE_TIME = String
  .raw`(?=\s*(?:\+|plus)?\s*(?:(?:-|to)\s*\S+\s*)?(?:years?|yrs?|yoe|months?|mos?|mnths?)\b)`;
/** A number word before years or months (`two years`, `one to three yrs`, `six months`). */
const COUNTED = new RegExp(String.raw`\b(${NUMBERS.join("|")})${BEFORE_TIME}`, "g");

/** A grade after a role or a version after a skill: `sde 2`, `engineer ii`, `java 17`. */
const LEVEL = /^(?:\d{1,2}|i{1,3}|iv)$/;

/** The experience options a seeker with `years` fits: a range holding it, or an N+ up to it. */
function fits(years: number): Experience[] {
  const fit = EXPERIENCE_OPTIONS.filter((option) => {
    const range = /^(\d+)-(\d+)$/.exec(option);
    if (range) return Number(range[1]) <= years && years <= Number(range[2]);
    const plus = /^(\d+)\+$/.exec(option);
    return plus !== null && Number(plus[1]) <= years;
  });
  return years < 1 ? [...fit, ...STUDENT] : fit;
}

/** The experience phrases of `text` as filters, and the text without them. */
function experiencePhrases(
  text: string,
): { rest: string; filters: FilterWord[]; pieces: string[] } {
  const filters: FilterWord[] = [];
  const pieces: string[] = [];
  const read = (phrase: string, low: number, high: number) => {
    const experiences = new Set<Experience>();
    // Each whole year in the range and its ends (`1.5 to 3 years`: 1.5, 2 and 3).
    const top = Math.min(high, low + 10);
    for (const years of [low, top]) for (const fit of fits(years)) experiences.add(fit);
    for (let years = Math.ceil(low); years <= top; years++) {
      for (const fit of fits(years)) experiences.add(fit);
    }
    filters.push({ experiences: [...experiences] });
    pieces.push(phrase.trim());
    return " ";
  };
  const rest = text
    .replace(COUNTED, (word) => String(NUMBERS.indexOf(word)))
    .replace(YEARS, (phrase, from, to, _plus, alone) => {
      const low = Number(from ?? alone);
      return read(phrase, low, Number(to ?? low));
    })
    // "6 months experience": the whole years in it.
    .replace(MONTHS, (phrase, from, to) => {
      const low = Math.floor(Number(from) / 12);
      return read(phrase, low, Math.floor(Number(to ?? from) / 12));
    });
  return { rest, filters, pieces };
}

/** What a run of words at a place means: a filter, a city, a canonical form; null for a word. */
function meaningAt(found: string[], at: number, vocabulary: boolean) {
  for (let length = Math.min(4, found.length - at); length >= 1; length--) {
    const key = found.slice(at, at + length).map(collapse).join("");
    const canonical = vocabulary ? canonicalOf(key) : undefined;
    const filter = FILTERS.get(key) ?? (canonical && FILTERS.get(canonical.join("")));
    if (filter) return { length, filter };
    const mode = modeWord(key);
    if (mode) return { length, filter: { locations: [mode] } };
    const city = cityNames(key);
    if (city) return { length, city };
    if (canonical) return { length, canonical };
  }
  // A word that means nothing else may be a misspelt city (`python banglore`) or filter word.
  const city = vocabulary ? nearCityNames(found[at]) : null;
  if (city) return { length: 1, city };
  const filter = vocabulary ? nearFilter(found[at]) : undefined;
  return filter ? { length: 1, filter } : null;
}

/**
 * Filter words long enough that a typo of one is no other word (`contact` is no contract), and
 * written as one word, by their first letter: a typo keeps it, as a misspelt city's does.
 */
const LONG_FILTERS = new Map<string, string[]>();
for (const key of FILTERS.keys()) {
  if (key.length < 8 || !/^\p{L}+$/u.test(key)) continue;
  LONG_FILTERS.set(key[0], [...LONG_FILTERS.get(key[0]) ?? [], key]);
}

/**
 * The filter a misspelt long filter word names (`intenship`, `experianced`: as many edits as a
 * typo of the word may have), unless the vocabulary knows the word or two filters are as near.
 */
function nearFilter(word: string): FilterWord | undefined {
  const keys = LONG_FILTERS.get(word[0]);
  if (!keys || word.length < 8 || !/^\p{L}+$/u.test(word) || isKnownStem(stem(word))) {
    return undefined;
  }
  const budget = typoBudget(word);
  const near = new Map(
    keys.filter((key) =>
      Math.abs(key.length - word.length) <= budget && editDistance(word, key) <= budget
    ).map((key) => {
      const filter = FILTERS.get(key)!;
      // A filter's spellings (internship, internships) are one filter.
      return [JSON.stringify(filter), filter];
    }),
  );
  return near.size === 1 ? [...near.values()][0] : undefined;
}

/**
 * Splits the keyword box into terms to find, filters, and its meaningful pieces. Without
 * `withFilters` (the admin search) every word is a term as written, only stemmed.
 */
export function parseKeywords(text: string | undefined, withFilters = true): KeywordQuery {
  const pay = withFilters ? payPhrases(fold(text ?? "")) : { rest: fold(text ?? ""), pieces: [] };
  const experience = withFilters
    ? experiencePhrases(pay.rest)
    : { rest: pay.rest, filters: [], pieces: [] };
  const found = wholeWords(experience.rest).filter((word) => !/^\p{N}+-\p{N}+$/u.test(word))
    .map((word) => withFilters ? withoutLevel(word) : word);
  const filters = [...experience.filters];
  const pieces = [...pay.pieces, ...experience.pieces];
  /** Where in `filters` the cities typed are, once one is: several cities are one filter. */
  let citiesAt = -1;
  /** Each term's words as typed, in order; a plain word is one. */
  const typed: Typed[] = [];
  // Whether an `or` followed the last term: the next is its alternative (`python or java`).
  let orTerm = false;
  // The filter word just read (its place in `filters`), and whether an `or` followed it: the next
  // filter word is then its alternative.
  let lastFilter = -1;
  let orAfter = false;
  // Whether the piece before was a term: a level after it (`sde 2`, `engineer ii`) asks nothing.
  let afterTerm = false;
  for (let i = 0; i < found.length;) {
    const meaning = meaningAt(found, i, withFilters);
    const length = meaning?.length ?? 1;
    const piece = found.slice(i, i + length).join(" ");
    i += length;
    const filter = withFilters ? meaning?.filter : undefined;
    // "part time or full time", "fresher or experienced": a job meets either.
    const joined: FilterWord | null = filter && orAfter
      ? either(filters[lastFilter], filter)
      : null;
    const before = lastFilter;
    const orBefore = orAfter;
    const alternative = orTerm;
    const termBefore = afterTerm;
    lastFilter = -1;
    orAfter = false;
    orTerm = false;
    afterTerm = false;
    if (meaning?.canonical) {
      // A bound phrase is one term, as the index holds it (`sales development`).
      const bound = boundPhrase(meaning.canonical);
      const words = bound ? [bound.term] : meaning.canonical;
      // Words the vocabulary reads as others (`golang`: go, `customer care`: customer support).
      const as = bound ? [] : phraseStems(piece.split(" "));
      const read = phraseStems(words).join(" ");
      const written = as.length > 0 && as.join(" ") !== read ? { written: as } : {};
      addTerm(typed, { words, plain: false, ...written }, alternative);
      afterTerm = true;
    } else if (joined) {
      filters[before] = joined;
      lastFilter = before;
    } else if (filter) lastFilter = filters.push(filter) - 1;
    else if (withFilters && meaning?.city) {
      // "remote or pune": the work mode and the city are one filter, which later cities join.
      const into = orBefore && filters[before].locations ? before : citiesAt;
      const cities = { locations: [...meaning.city] };
      if (into === -1) citiesAt = filters.push(cities) - 1;
      else [filters[into], citiesAt] = [either(filters[into], cities)!, into];
      lastFilter = citiesAt;
    } else if (
      FILLER.has(piece) || isStopWord(piece) ||
      (withFilters && termBefore && LEVEL.test(piece) && knownLast(typed))
    ) {
      if (piece === "or" && before !== -1) [lastFilter, orAfter] = [before, true];
      else if (piece === "or" && typed.length > 0) orTerm = true;
      continue;
    } else {
      for (const word of found.slice(i - length, i)) {
        addTerm(typed, { words: [word], plain: true }, alternative);
      }
      afterTerm = true;
    }
    pieces.push(piece);
  }
  const terms = termsOf(typed);
  const asked = terms.length > 0 ? filters.filter((filter) => filter !== IT_WORD) : filters;
  return { terms, filters: once(asked), pieces, ...(pay.payMin ? { payMin: pay.payMin } : {}) };
}

/** A term's words as typed (a plain word, or a vocabulary phrase's canonical words). */
interface Typed {
  words: string[];
  plain: boolean;
  /** The stems of the words typed, when the vocabulary read them as others (`Term.typed`). */
  written?: string[];
  /** The terms typed after it with `or` between (`python or java`): any of them will do. */
  or?: Typed[];
}

/**
 * Whether the last term typed is a word the vocabulary knows, which a number after grades (`sde
 * 2`, `java 17`), where after another word it names (`sector 62`, `phase 2`).
 */
function knownLast(typed: Typed[]): boolean {
  const last = typed.at(-1);
  return last !== undefined && (!last.plain || last.words.every((word) => isKnownStem(stem(word))));
}

/** Adds a typed term to `typed`, or, typed after an `or`, to the last one's alternatives. */
function addTerm(typed: Typed[], term: Typed, alternative: boolean) {
  const last = typed.at(-1);
  if (alternative && last) (last.or ??= []).push(term);
  else typed.push(term);
}

/**
 * One filter met by a job meeting either: each list the two's together. Null when they cannot be
 * one (places and role words are looked up in different fields).
 */
function either(a: FilterWord, b: FilterWord): FilterWord | null {
  // Places, role words and categories each mark the jobs they let in their own way: one of them.
  const marks = [
    a.locations || b.locations,
    a.roleWords || b.roleWords,
    a.categories || b.categories,
  ];
  if (marks.filter(Boolean).length > 1) return null;
  const union = <T>(x?: T[], y?: T[]) =>
    x || y ? [...new Set([...x ?? [], ...y ?? []])] : undefined;
  return {
    employmentTypes: union(a.employmentTypes, b.employmentTypes),
    experiences: union(a.experiences, b.experiences),
    categories: union(a.categories, b.categories),
    locations: union(a.locations, b.locations),
    roleWords: union(a.roleWords, b.roleWords),
  };
}

/** Each filter once: a filter word typed twice asks no more than once (nor counts twice). */
function once(filters: FilterWord[]): FilterWord[] {
  const seen = new Set<string>();
  return filters.filter((filter) => {
    const key = JSON.stringify(filter);
    return !seen.has(key) && !!seen.add(key);
  });
}

/**
 * The terms of the typed words, each once: a word's parts are terms too (Node.js: node, js), and
 * two words typed side by side may also be found as one (`dev ops`: devops, `ui kit`: uikit).
 */
function termsOf(typed: Typed[]): Term[] {
  const joins = typed.map(({ words, or }, i) => {
    const next = typed[i + 1];
    const pair = words[0] + (next?.words[0] ?? "");
    // Words the vocabulary knows join too (`ui kit`: uikit, `ml flow`: mlflow); a phrase does not.
    const joinable = words.length === 1 && !or && next?.words.length === 1 && !next.or;
    return joinable && /^\p{L}+$/u.test(pair) ? stem(pair) : undefined;
  });
  const terms = new Map<string, Term>();
  typed.forEach(({ words, plain, or, written }, i) => {
    if (or) {
      const either = [{ words, plain }, ...or].map(alternativeTerm);
      const word = either.map((term) => term.word).join(" or ");
      terms.set(word, { word, either });
      return;
    }
    const also = [joins[i - 1], joins[i]].filter((join): join is string => join !== undefined);
    const parts: string[] = [];
    for (const word of words) addWithParts(word, parts);
    const phrase = words.length > 1 ? phraseStems(words) : undefined;
    for (const typedPart of parts) {
      if (isStopWord(typedPart)) continue;
      const raw = plain ? slipOfKnownWord(typedPart) : typedPart;
      const word = stem(raw);
      const known = !plain || isKnownStem(word);
      const term = terms.get(word) ?? {
        word,
        raw,
        ...(known ? { known } : {}),
        ...(phrase ? { phrase } : {}),
        ...(written ? { typed: written } : {}),
      };
      if (also.length) term.also = [...(term.also ?? []), ...also];
      terms.set(word, term);
    }
  });
  return [...terms.values()].slice(0, MAX_TERMS);
}

/** The vocabulary's words of five letters or more, by first letter, made at the first ask. */
let wordsByFirst: Map<string, string[]> | undefined;

/**
 * The vocabulary's word `word` is one slip of (a letter missing, extra, changed, or two swapped;
 * never the first), when `word` is none of its words: `techer` is teacher, though the stemmer
 * would read tech and its -er.
 */
function vocabularySlip(word: string): string | undefined {
  if (word.length < 5) return undefined;
  if (!wordsByFirst) {
    wordsByFirst = new Map();
    const all = new Set(
      [...SKILLS, ...ROLES].flatMap((entry) => entry.flatMap((spelling) => spelling.split(" "))),
    );
    for (const known of all) {
      if (known.length < 5 || !/^[a-z]+$/.test(known)) continue;
      let first = wordsByFirst.get(known[0]);
      if (!first) wordsByFirst.set(known[0], first = []);
      first.push(known);
    }
  }
  const near = wordsByFirst.get(word[0]) ?? [];
  if (near.includes(word)) return undefined;
  return near.find((known) =>
    Math.abs(known.length - word.length) <= 1 && editDistance(word, known) === 1
  );
}

/**
 * A word the stemmer would cut to a known word's stem that is a slip of another known word
 * (`techer`: teacher, not tech and its -er) is that word; any other word stays as typed.
 */
function slipOfKnownWord(raw: string): string {
  const word = stem(raw);
  if (word === raw || raw === `${word}s` || raw === `${word}es` || !isKnownStem(word)) return raw;
  const slip = vocabularySlip(raw);
  return slip && stem(slip) !== word ? slip : raw;
}

/** A phrase's stems, its stop words left out. */
const phraseStems = (words: string[]) => words.filter((word) => !isStopWord(word)).map(stem);

/** A phrase found only whole: the jobs holding every one of its stems. */
const wholeTerm = (stems: readonly string[]): Term => ({ word: stems.join(" "), all: stems });

/** One alternative of an `or`: a word's term, or a phrase found whole. */
function alternativeTerm({ words, plain }: Typed): Term {
  const [term] = termsOf([{ words, plain }]);
  return words.length === 1 && term ? term : wholeTerm(phraseStems(words));
}

/**
 * The terms with each vocabulary phrase's words made one term, found only whole: when no job has
 * every term, `back office` is not half found in a backend job, nor `data entry` in a data one.
 */
export function wholePhrases(terms: Term[]): Term[] {
  const seen = new Set<readonly string[]>();
  return terms.flatMap((term): Term[] => {
    if (!term.phrase) return [term];
    if (seen.has(term.phrase)) return [];
    seen.add(term.phrase);
    return [wholeTerm(term.phrase)];
  });
}
