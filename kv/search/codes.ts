/** How a job's pay band, company and small option fields are coded for the index's filters. */
import {
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  type FilterValues,
  ROLE_CATEGORIES,
  SALARY_BANDS,
  WORK_MODES,
} from "../job-fields.ts";
import type { IndexedDoc } from "./fields.ts";
import { fold } from "./text.ts";

/** Rupees in a lakh: the salary bands are in lakhs a year. */
export const LAKH = 100_000;

/** How many salary bands a yearly pay top reaches (0 to SALARY_BANDS.length). */
export function bandOf(payTop: number): number {
  let band = 0;
  while (band < SALARY_BANDS.length && payTop >= SALARY_BANDS[band] * LAKH) band++;
  return band;
}

/**
 * How a company name is matched: case, accents (Café Crème typed as cafe creme), and the spaces
 * around and between its words do not count.
 */
export const companyKey = (name: string) => fold(name).trim().replace(/\s+/g, " ");

/** An option's code: its place in `options` from 1, 0 for none. */
export const optionCode = (options: readonly string[], value: string | undefined) =>
  value === undefined ? 0 : options.indexOf(value) + 1;

/** A trait's part for an option field of the indexed job. */
function optionPart(options: readonly string[], field: keyof FilterValues) {
  return { size: options.length + 1, of: (job: IndexedDoc) => optionCode(options, job[field]) };
}

/**
 * A job's trait: its small option fields and its salary band, each a code below its `size`, as
 * one number below `TRAIT_CODES`. A search's pass over its found jobs reads and counts this one
 * column rather than a column per field, and spreads the counts over the dropdowns once per trait.
 * A field joins with an entry here (and `TRAIT` then has its codes) while the sizes' product stays
 * below 65,536, the trait column being 16 bits.
 */
const TRAIT_PARTS = {
  level: optionPart(EXPERIENCE_OPTIONS, "experience"),
  type: optionPart(EMPLOYMENT_TYPES, "employmentType"),
  mode: optionPart(WORK_MODES, "workMode"),
  category: optionPart(ROLE_CATEGORIES, "category"),
  band: { size: SALARY_BANDS.length + 1, of: (job: IndexedDoc) => bandOf(job.payTop ?? 0) },
};
type TraitPart = keyof typeof TRAIT_PARTS;
const PARTS = Object.entries(TRAIT_PARTS) as [TraitPart, (typeof TRAIT_PARTS)[TraitPart]][];

export const TRAIT_CODES = PARTS.reduce((product, [, { size }]) => product * size, 1);
if (TRAIT_CODES > 65_536) throw new Error(`${TRAIT_CODES} traits do not fit the 16-bit column`);

/** The job's trait: the first part the highest digit, each in its own size. */
export const traitOf = (job: IndexedDoc): number =>
  PARTS.reduce((trait, [, part]) => trait * part.size + part.of(job), 0);

/** Each part's code, by trait: `TRAIT.mode[trait]` and so on. */
export const TRAIT = Object.fromEntries(
  PARTS.map(([name]) => [name, new Uint8Array(TRAIT_CODES)]),
) as Record<TraitPart, Uint8Array>;
// Each part repeats its codes in runs as long as the product of the sizes after it.
for (let at = PARTS.length - 1, run = 1; at >= 0; run *= PARTS[at--][1].size) {
  const [name, { size }] = PARTS[at];
  const codes = TRAIT[name];
  for (let trait = 0; trait < TRAIT_CODES; trait++) codes[trait] = Math.floor(trait / run) % size;
}
