/** How a job's pay band and company are coded for the index's filters and counts. */
import { SALARY_BANDS } from "../job-fields.ts";

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
