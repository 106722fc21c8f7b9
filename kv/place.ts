/**
 * A job's free-text location read as a place, for search engines (JobPosting) and for the search's
 * state and country words: "Pune, Maharashtra", "Bengaluru, Karnataka, India", "Hybrid -
 * Bengaluru", "London, United Kingdom", "Austin, TX, USA", "Remote (India)". Country names and
 * codes come from the platform's region names (Intl.DisplayNames); a location that names no
 * country is in India, where the site's jobs are posted.
 */

import { REMOTE } from "./job-fields.ts";
import { countryName, countryOf, normal, statesByName } from "./regions.ts";

export { countryName };

export const DEFAULT_COUNTRY = "IN";

export type JobPlace =
  | { remote: true; country: string }
  | { remote: false; locality?: string; region?: string; country: string };

/**
 * The state of India's job markets, for a location that names only the city; a renamed city under
 * its old name too (Bombay, Madras, Calcutta, Bangalore, Gurgaon, Poona...), since postings use both.
 */
const CITY_STATES: Record<string, string> = {
  agra: "Uttar Pradesh",
  ahmedabad: "Gujarat",
  allahabad: "Uttar Pradesh",
  amritsar: "Punjab",
  aurangabad: "Maharashtra",
  bangalore: "Karnataka",
  baroda: "Gujarat",
  belgaum: "Karnataka",
  belagavi: "Karnataka",
  bengaluru: "Karnataka",
  bhopal: "Madhya Pradesh",
  bhubaneswar: "Odisha",
  bombay: "Maharashtra",
  calcutta: "West Bengal",
  calicut: "Kerala",
  chandigarh: "Chandigarh",
  chennai: "Tamil Nadu",
  cochin: "Kerala",
  coimbatore: "Tamil Nadu",
  cuttack: "Odisha",
  dehradun: "Uttarakhand",
  delhi: "Delhi",
  faridabad: "Haryana",
  ghaziabad: "Uttar Pradesh",
  "greater noida": "Uttar Pradesh",
  gurgaon: "Haryana",
  gurugram: "Haryana",
  guwahati: "Assam",
  hubli: "Karnataka",
  hyderabad: "Telangana",
  indore: "Madhya Pradesh",
  jaipur: "Rajasthan",
  jodhpur: "Rajasthan",
  kanpur: "Uttar Pradesh",
  kochi: "Kerala",
  kolkata: "West Bengal",
  kozhikode: "Kerala",
  lucknow: "Uttar Pradesh",
  ludhiana: "Punjab",
  madras: "Tamil Nadu",
  madurai: "Tamil Nadu",
  mangalore: "Karnataka",
  mangaluru: "Karnataka",
  mohali: "Punjab",
  mumbai: "Maharashtra",
  mysore: "Karnataka",
  mysuru: "Karnataka",
  nagpur: "Maharashtra",
  nashik: "Maharashtra",
  "navi mumbai": "Maharashtra",
  "new delhi": "Delhi",
  noida: "Uttar Pradesh",
  panaji: "Goa",
  patna: "Bihar",
  pondicherry: "Puducherry",
  poona: "Maharashtra",
  prayagraj: "Uttar Pradesh",
  pune: "Maharashtra",
  raipur: "Chhattisgarh",
  ranchi: "Jharkhand",
  secunderabad: "Telangana",
  surat: "Gujarat",
  thane: "Maharashtra",
  thiruvananthapuram: "Kerala",
  trichy: "Tamil Nadu",
  tiruchirappalli: "Tamil Nadu",
  trivandrum: "Kerala",
  udaipur: "Rajasthan",
  vadodara: "Gujarat",
  varanasi: "Uttar Pradesh",
  vijayawada: "Andhra Pradesh",
  visakhapatnam: "Andhra Pradesh",
  vizag: "Andhra Pradesh",
};

/** Between the cities of a location naming several: "Bengaluru / Chennai", "Pune or Hyderabad". */
const CITY_SEPARATOR = /\s*(?:\/|\||;|&|\s+or\s+|\s+and\s+)\s*/i;

/**
 * The places a location names, each as its own location text: "Bengaluru / Chennai" is two, as are
 * "Pune or Hyderabad" and "Mumbai, Pune" (a comma parts cities only when each part is a known
 * city and none a state, so "Pune, Maharashtra" and "New Delhi, Delhi" stay one). "Hybrid - " and the like stay with each place.
 */
export function placesOf(location: string): string[] {
  const mode = location.match(/^\s*(hybrid|on-?site|in-office)\s*[-:–]\s*/i)?.[0] ?? "";
  // Brackets are kept whole: "Remote (India / APAC)" names one place.
  const text = location.slice(mode.length);
  if (/[()]/.test(text)) return [location];
  const places = text.split(CITY_SEPARATOR).flatMap((part) => {
    const pieces = part.split(",").map((piece) => piece.trim()).filter(Boolean);
    // "New Delhi, Delhi": a piece naming a state is the first one's state, not another city.
    return pieces.length > 1 &&
        pieces.every((piece) => CITY_STATES[normal(piece)] && !statesByName.has(normal(piece)))
      ? pieces
      : [part.trim()];
  }).filter(Boolean);
  return places.length > 1 ? places.map((place) => mode + place) : [location];
}

export function parsePlace(location: string): JobPlace {
  // "Hybrid - Bengaluru", "Onsite: Pune": the way of working is not part of the place.
  const text = location.replace(/^\s*(hybrid|on-?site|in-office)\s*[-:–]\s*/i, "");
  const bracketed = text.match(/\(([^)]*)\)/)?.[1] ?? "";
  const parts = text.replace(/\([^)]*\)/g, "").split(/[,|]/).map((part) => part.trim())
    .filter(Boolean);
  if (REMOTE.test(text)) {
    // "Remote (India)", "Remote - USA", "Remote, United Kingdom".
    const words = [bracketed, ...parts, ...text.split(/[-–,]/)].map((part) =>
      part.replace(REMOTE, "").trim()
    );
    const country = words.map(countryOf).find(Boolean) ?? DEFAULT_COUNTRY;
    return { remote: true, country };
  }
  let country = parts.length > 1 ? countryOf(parts[parts.length - 1]) : undefined;
  if (country) parts.pop();
  let region: string | undefined;
  if (parts.length > 1) {
    const last = parts[parts.length - 1];
    const state = statesByName.get(normal(last));
    if (state || (country && country !== DEFAULT_COUNTRY)) {
      region = state ?? last;
      parts.pop();
      if (state) country ??= DEFAULT_COUNTRY;
    }
  }
  const locality = parts[0];
  country ??= DEFAULT_COUNTRY;
  if (!region && locality && country === DEFAULT_COUNTRY) region = CITY_STATES[normal(locality)];
  return { remote: false, locality, region, country };
}

/** Region words of recent locations: jobs share a few hundred; emptied when full. */
const regionWordsOf = new Map<string, string>();
const REMEMBERED_LOCATIONS = 1_024;

/**
 * The state and country of each place a location names, as words ("Karnataka India" for
 * "Bangalore"): a search for a state or a country finds the jobs that name only their city.
 */
export function regionWords(location: string): string {
  let words = regionWordsOf.get(location);
  if (words === undefined) {
    words = placesOf(location).map(parsePlace).flatMap((place) => [
      place.remote ? "" : place.region ?? "",
      countryName(place.country),
    ]).join(" ");
    if (regionWordsOf.size >= REMEMBERED_LOCATIONS) regionWordsOf.clear();
    regionWordsOf.set(location, words);
  }
  return words;
}
