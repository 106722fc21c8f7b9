/** How a job's pay band, company and small dropdown values are coded for the index's filters and counts. */
import {
  EMPLOYMENT_TYPES,
  EXPERIENCE_OPTIONS,
  ROLE_CATEGORIES,
  SALARY_BANDS,
  WORK_MODES,
} from "../job-fields.ts";

/** Rupees in a lakh: the salary bands are in lakhs a year. */
export const LAKH = 100_000;

/** How many salary bands a yearly pay top reaches (0 to SALARY_BANDS.length). */
export function bandOf(payTop: number): number {
  let band = 0;
  while (band < SALARY_BANDS.length && payTop >= SALARY_BANDS[band] * LAKH) band++;
  return band;
}

/** How a company name is matched: case and surrounding space do not count. */
export const companyKey = (name: string) => name.trim().toLowerCase();

/**
 * A job's experience, employment type, work mode, category and salary band (each a code, 0 for
 * none) as one number below `TRAIT_CODES`: a search's pass over its found jobs reads and counts one
 * column rather than five, and spreads the counts over the five dropdowns once per trait.
 */
const TRAIT_SIZES = [
  EXPERIENCE_OPTIONS.length + 1,
  EMPLOYMENT_TYPES.length + 1,
  WORK_MODES.length + 1,
  ROLE_CATEGORIES.length + 1,
  SALARY_BANDS.length + 1,
] as const;
export const TRAIT_CODES = TRAIT_SIZES.reduce((product, size) => product * size, 1);

export function traitCode(
  level: number,
  type: number,
  mode: number,
  category: number,
  band: number,
) {
  const [, types, modes, categories, bands] = TRAIT_SIZES;
  return (((level * types + type) * modes + mode) * categories + category) * bands + band;
}

/** Each trait's parts, by trait: `TRAIT.level[trait]` and so on. */
export const TRAIT = (() => {
  const parts = {
    level: new Uint8Array(TRAIT_CODES),
    type: new Uint8Array(TRAIT_CODES),
    mode: new Uint8Array(TRAIT_CODES),
    category: new Uint8Array(TRAIT_CODES),
    band: new Uint8Array(TRAIT_CODES),
  };
  for (let trait = 0; trait < TRAIT_CODES; trait++) {
    let rest = trait;
    const part = (size: number) => {
      const value = rest % size;
      rest = (rest - value) / size;
      return value;
    };
    parts.band[trait] = part(TRAIT_SIZES[4]);
    parts.category[trait] = part(TRAIT_SIZES[3]);
    parts.mode[trait] = part(TRAIT_SIZES[2]);
    parts.type[trait] = part(TRAIT_SIZES[1]);
    parts.level[trait] = rest;
  }
  return parts;
})();
