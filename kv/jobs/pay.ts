/**
 * The pay a job's free-text package names, read the ways Indian postings write it: "8-12 LPA",
 * "₹12,00,000 - ₹18,00,000 per annum", "₹6L - ₹9L", "1.2 Cr", "CTC up to 6 LPA", "10K-15K per
 * month", "Rs. 40000 pm", "stipend ₹15,000", "₹300 per hour". A reading that is not sure (a word it
 * does not know, a third figure, a figure out of the period's range, another currency) is null:
 * a job without pay is only left out of pay filters, a wrong pay misleads. Pure: the admin form
 * shows the reading as the admin types.
 */

export const PAY_PERIODS = ["year", "month", "hour"] as const;
export type PayPeriod = (typeof PAY_PERIODS)[number];

/** Whole rupees; `min` null for "up to", `max` null for "from"; at least one is given. */
export type Pay = {
  min: number | null;
  max: number | null;
  period: PayPeriod;
  currency: "INR";
};

/** More than any pay of a year: the most a pay set by hand may say. */
export const MAX_YEARLY_PAY = 1_000_000_000;

/** Hours of a working year: how an hourly pay compares with a yearly one. */
export const HOURS_A_YEAR = 2_080;

/** The top of the range as a yearly amount: what the pay filter and the pay order compare. */
export function yearlyTop(pay: Pay | null | undefined): number {
  return pay ? yearly(pay.max ?? pay.min ?? 0, pay.period) : 0;
}

/** Rupees of `period` as a year's, as the pay filter compares them: month × 12, hour × 2,080. */
export function yearly(rupees: number, period: PayPeriod): number {
  return period === "month" ? rupees * 12 : period === "hour" ? rupees * HOURS_A_YEAR : rupees;
}

/** Rupees in each unit a figure may carry ("8L", "10K", "1.2 Cr"). */
export const PAY_UNITS: Record<string, number> = {
  k: 1_000,
  thousand: 1_000,
  l: 100_000,
  lpa: 100_000,
  lakh: 100_000,
  lakhs: 100_000,
  lac: 100_000,
  lacs: 100_000,
  lks: 100_000,
  cr: 10_000_000,
  crore: 10_000_000,
  crores: 10_000_000,
  mn: 1_000_000,
};

const PERIOD_WORDS: Record<string, PayPeriod> = {
  lpa: "year",
  annum: "year",
  annual: "year",
  annually: "year",
  pa: "year",
  year: "year",
  yearly: "year",
  yr: "year",
  years: "year",
  ctc: "year",
  month: "month",
  monthly: "month",
  months: "month",
  mo: "month",
  pm: "month",
  mensem: "month",
  hour: "hour",
  hourly: "hour",
  hr: "hour",
  hrs: "hour",
  ph: "hour",
};

/** Words a package may hold around its figures without changing them. */
const FILLER = new Set([
  "₹",
  "salary",
  "stipend",
  "package",
  "pay",
  "ctc",
  "per",
  "a",
  "an",
  "the",
  "p",
  "in",
  "of",
  "up",
  "to",
  "upto",
  "till",
  "max",
  "maximum",
  "min",
  "minimum",
  "from",
  "starting",
  "start",
  "at",
  "approx",
  "approximately",
  "around",
  "about",
  "fixed",
  "gross",
  "range",
  "between",
  "and",
  "negotiable",
  "expected",
  "offered",
  "total",
  "compensation",
  "base",
  "is",
  "above",
  "onwards",
  "plus",
  "only",
  "rupees",
  "incentive",
  "incentives",
  "bonus",
  "benefits",
  "variable",
  "perks",
  "pro",
  "rata",
  // Benefits beside the pay: "₹25,000 per month + PF".
  "pf",
  "esop",
  "esops",
  "stocks",
  "equity",
  "hra",
  "allowance",
  "allowances",
  "insurance",
  "commission",
  "overtime",
  // What the figures hold: "6-8 LPA (including variable)", "₹25,000 in hand", "take home 20k pm".
  "including",
  "inclusive",
  "incl",
  "excluding",
  "exclusive",
  "excl",
  "hand",
  "take",
  "home",
  "net",
  // Words around the pay that change no figure: "Earn up to", "consolidated", "+ ESI", "+ HQ
  // allowance", "+ service charge", "+ food and accommodation".
  "earn",
  "earning",
  "earnings",
  "consolidated",
  "esi",
  "esic",
  "hq",
  "service",
  "charge",
  "charges",
  "tips",
  "food",
  "accommodation",
  "conveyance",
  "travel",
  "fuel",
  "petrol",
  // How far the figure goes: "below 3 LPA", "not more than 10 LPA", "more than 10 LPA".
  "below",
  "less",
  "more",
  "not",
  "than",
]);
/** What may stand between the two figures of a range: "8-12", "₹6L - ₹9L", "between 5 and 8". */
const RANGE_JOIN = /^[\s₹]*(?:\/-)?\s*(?:-|–|—|~|to|and)[\s₹]*$/;
/**
 * Figures grouped by commas as Indian (12,00,000) or Western (1,200,000) texts write them; any
 * other comma ("3,5 LPA") may be a decimal comma, which this does not guess.
 */
const GROUPED = /^\d{1,3}(?:,\d{2})*,\d{3}$|^\d{1,3}(?:,\d{3})+$/;
const UP_TO = /\b(?:up\s*to|upto|till|max(?:imum)?|not more than|less than|below)\b/;
/** "4+ LPA", "2.4LPA+", "1 Cr+": a plus after a figure, or after its unit with no word after it. */
const FROM =
  /\b(?:from|starting(?: at| from)?|min(?:imum)?|above|onwards|(?<!not )more than)\b|\d\s*\+|\d\s*(?:k|l|lpa|lakhs?|lacs?|cr|crores?)\s*\+(?!\s*[a-z])/;
/** Figures that cannot be a pay of the period: a typo, a phone number, a year. */
export const PLAUSIBLE_PAY: Record<PayPeriod, [number, number]> = {
  year: [20_000, 200_000_000],
  month: [1_000, 5_000_000],
  hour: [50, 50_000],
};

/** "L.P.A.", as postings and seekers write LPA. */
export const DOTTED_LPA = /\bl\.p\.a\b\.?/g;

/** Reads a package text; null when it names no pay or the reading is not sure. */
export function readPay(text: string | null | undefined): Pay | null {
  if (!text) return null;
  const lower = text.toLowerCase();
  for (const grouped of lower.match(/\d+(?:,\d+)+/g) ?? []) {
    if (!GROUPED.test(grouped)) return null;
  }
  let rest = lower
    .replace(/[₹₨]|\brs(?![a-z])\.?|\binr(?![a-z])/g, " ₹ ")
    .replace(/(\d),(?=\d)/g, "$1")
    .replace(/\bp\.\s?a\b\.?|\bper\s+annum\b/g, " pa ")
    .replace(/\bp\.\s?m\b\.?/g, " pm ")
    .replace(/\blakhs? per annum\b/g, " lpa ")
    .replace(DOTTED_LPA, " lpa ")
    .replace(/\bor more\b/g, " onwards ");
  if (/[$€£]|\busd\b|\beur\b|\bgbp\b|\bdollars?\b/.test(rest)) return null;
  // "12 LPA + 2 LPA variable": a second sum on top is not a range this reads.
  if (/\+\s*\S*\d/.test(rest) || /\d\s*%/.test(rest)) return null;
  const upTo = UP_TO.test(rest);
  const from = FROM.test(rest);
  const figures: { value: number; unit?: number; start: number; end: number }[] = [];
  let period: PayPeriod | undefined;
  const read = rest;
  rest = rest.replace(
    /(\d+(?:\.\d+)?)\s*(k|thousand|lpa|lakhs?|lacs?|lks|l|crores?|cr|mn)?(?![a-z])/g,
    (whole: string, value: string, unit: string | undefined, start: number) => {
      figures.push({
        value: Number(value),
        unit: unit ? PAY_UNITS[unit] : undefined,
        start,
        end: start + whole.length,
      });
      if (unit === "lpa") period = "year";
      return " ";
    },
  );
  if (figures.length === 0 || figures.length > 2) return null;
  // "₹60,000 per month (₹7,20,000 CTC)": two figures apart are two pays, not a range.
  if (figures.length === 2 && !RANGE_JOIN.test(read.slice(figures[0].end, figures[1].start))) {
    return null;
  }
  // "4+ LPA": a unit apart from its figure.
  let apart: number | undefined;
  // "CTC" is said of monthly pay too ("CTC 20-25k per month"): it names a year only when no other
  // word names the period.
  let loosely: PayPeriod | undefined;
  for (const word of rest.split(/[\s\-–—/()[\]:.,;~+]+|\bto\b/).filter(Boolean)) {
    if (PAY_UNITS[word] >= 100_000) apart ??= PAY_UNITS[word];
    const named = PERIOD_WORDS[word];
    if (named) {
      if (word === "ctc") loosely = named;
      else if (period && period !== named) return null;
      else period = named;
    } else if (!FILLER.has(word) && !PAY_UNITS[word]) return null;
  }
  period ??= loosely;
  // "8-12 LPA", "10K-15K": a unit written once applies to both figures.
  const unit = figures[figures.length - 1].unit ?? figures[0].unit ?? apart;
  if (figures.some((figure) => figure.unit !== undefined && figure.unit !== unit)) {
    // "₹90K - ₹1.2L": each figure keeps its own unit.
    if (figures.some((figure) => figure.unit === undefined)) return null;
  }
  const amounts = figures.map(({ value, unit: own }) => Math.round(value * (own ?? unit ?? 1)));
  // A stipend is rupees whether or not it says so ("Stipend 8000").
  const hasRupee = rest.includes("₹") || /\bstipend\b/.test(rest);
  // A bare figure of a lakh or more, grouped as Indian texts group rupees ("7,50,000"), is a year's.
  const bareYear = unit === undefined && !hasRupee && !period &&
    Math.min(...amounts) >= 100_000 && /\d{1,2},\d{2},\d{3}/.test(lower);
  if (unit === undefined && !hasRupee && !period && !bareYear) return null;
  if (!period) {
    // "₹80K - ₹1.2L" is a month's pay as often as a year's; so is a stipend of a lakh.
    const [first, second] = figures;
    const mixed = second?.unit && first.unit && first.unit !== second.unit;
    if (mixed && Math.min(first.unit!, second.unit!) < 100_000) return null;
    if (/\bstipend\b/.test(lower)) {
      if (Math.max(...amounts) >= 100_000) return null;
      period = "month";
    } else if (unit !== undefined && unit >= 100_000) period = "year";
    else if (Math.max(...amounts) >= 100_000 && (hasRupee || bareYear)) period = "year";
    else return null;
  }
  const [low, high] = amounts.length === 2 ? amounts : [amounts[0], amounts[0]];
  if (low > high) return null;
  const [least, most] = PLAUSIBLE_PAY[period];
  if (low < least || high > most) return null;
  if (amounts.length === 2) {
    if (upTo || from) return null;
    return { min: low, max: high, period, currency: "INR" };
  }
  if (upTo && from) return null;
  return { min: upTo ? null : low, max: from ? null : high, period, currency: "INR" };
}

const rupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
});
const PER: Record<PayPeriod, string> = { year: "a year", month: "a month", hour: "an hour" };

/**
 * A pay as `describePay` writes it, read back exactly, whatever its figures (a CSV export uploaded
 * again keeps a pay `readPay` would doubt, such as ₹30 an hour); null for any other text.
 */
export function readDescribedPay(text: string): Pay | null {
  const found = /^(?:(from|up to) )?₹([\d,]+)(?: - ₹([\d,]+))? (a year|a month|an hour)$/.exec(
    text.trim(),
  );
  if (!found) return null;
  const [, open, first, second, per] = found;
  const a = Number(first.replaceAll(",", ""));
  const b = second === undefined ? a : Number(second.replaceAll(",", ""));
  const period = (Object.keys(PER) as PayPeriod[]).find((key) => PER[key] === per)!;
  if (open && second !== undefined) return null;
  return {
    min: open === "up to" ? null : a,
    max: open === "from" ? null : b,
    period,
    currency: "INR",
  };
}

/** "₹8,00,000 - ₹12,00,000 a year", "up to ₹6,00,000 a year", "from ₹25,000 a month". */
export function describePay(pay: Pay): string {
  const { min, max } = pay;
  const range = min !== null && max !== null
    ? min === max ? rupees.format(min) : `${rupees.format(min)} - ${rupees.format(max)}`
    : min !== null
    ? `from ${rupees.format(min)}`
    : `up to ${rupees.format(max ?? 0)}`;
  return `${range} ${PER[pay.period]}`;
}
