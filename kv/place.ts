/**
 * A job's free-text location read as places, for search engines (JobPosting) and for the search's
 * state and country words: "Pune, Maharashtra", "Bengaluru, Karnataka, India", "Hybrid
 * (Bangalore)", "Noida, Gurgaon, Delhi", "London, United Kingdom", "Austin, TX, USA", "Remote or
 * Hyderabad". Country names and codes come from the platform's region names (Intl.DisplayNames); a
 * location that names no country is in India, where the site's jobs are posted.
 */

import { REMOTE, REMOTE_SPELLINGS } from "./job-fields.ts";
import { CITIES, countryName, countryOf, normal, stateName, statesByName } from "./regions.ts";

export { countryName };

export const DEFAULT_COUNTRY = "IN";

export type JobPlace =
  | { remote: true; country: string }
  | { remote: false; locality?: string; region?: string; country: string };

/** A city's state by each of its names. */
const CITY_STATES = new Map(
  CITIES.flatMap(({ names, state }) => names.map((name) => [name, state] as const)),
);

/** A city's first name by each of its names: Baroda and Vadodara are one city. */
const CITY_NAMES = new Map(
  CITIES.flatMap(({ names }) => names.map((name) => [name, names[0]] as const)),
);

/** The state of a city `text` names; undefined for any other text. */
const cityState = (text: string): string | undefined => CITY_STATES.get(normal(text));

/**
 * What must not be cut where a list separator is: a bracket's text ("Remote (India / APAC)",
 * "Mumbai (Andheri / Powai)"), a state's name with "and" in it ("Jammu and Kashmir") and days a
 * week ("3 days/week"). The separator between places is the one group: "Bengaluru / Chennai",
 * "Pune or Hyderabad", "Mumbai & Pune", "Chennai; Kochi", "Bangalore | Poona".
 */
const LIST = new RegExp(
  `\\([^)]*\\)?|\\bdays?\\s*/\\s*(?:week|wk)\\b|\\b(?:${
    [...statesByName.keys()].filter((name) => /\sand\s|&/.test(name))
      .map((name) => name.replaceAll(" and ", "\\s*(?:and|&)\\s*")).join("|")
  })\\b|(\\s*(?:[/|;&]|\\s(?:or|and)\\s)\\s*)`,
  "gi",
);

/** The places of a list, cut at its separators only. */
function listParts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of text.matchAll(LIST)) {
    if (match[1] === undefined) continue;
    parts.push(text.slice(start, match.index).trim());
    start = match.index + match[0].length;
  }
  return [...parts, text.slice(start).trim()].filter(Boolean);
}

/**
 * Between the pieces of one place: a comma, a bracket, a colon, a dash with a space beside it, or
 * a dash joined to a work mode ("Pune, Maharashtra", "Hybrid (Bangalore)", "Onsite: Pune",
 * "Bengaluru - Hybrid", "Hybrid-Pune"); never the dash of "On-site".
 */
const PIECE_SEPARATOR =
  /[,()[\]:]|\s[-–—]+|[-–—]+\s|(?<=\b(?:hybrid|on-?site|remote|wfh|wfo))[-–—]|[-–—](?=(?:hybrid|on-?site|remote|wfh|wfo)\b)/i;

/** Words that say how a job is worked: one of them makes a piece a note, not a place. */
const MODE_WORDS = new Set([
  "hybrid",
  "onsite",
  "site",
  "office",
  "wfo",
  ...REMOTE_SPELLINGS.flatMap((spelling) => spelling.split(" ")),
]);

/** Words a work-mode note is written with besides its mode: "3 days a week in office". */
const NOTE_WORDS = new Set([
  ...MODE_WORDS,
  ..."on in at a per the day days week weeks wk weekly only fully full time partially partly first"
    .split(" "),
  ..."flexible optional mandatory allowed not no non mode x".split(" "),
]);

/**
 * Whether a piece says how the job is worked and nothing of where: "Hybrid", "Onsite", "2 days
 * WFH", "3 days office", "Remote not allowed". The work mode is the job's own field; the place is
 * what is left.
 */
function isNote(piece: string): boolean {
  const words = piece.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((word) => MODE_WORDS.has(word)) &&
    words.every((word) => NOTE_WORDS.has(word) || /^\p{N}+$/u.test(word));
}

/**
 * The places a location names: one per city of a list ("Bengaluru / Chennai", "Noida, Gurgaon,
 * Delhi"), with the notes on how the job is worked left out ("Hybrid (Bangalore)", "Mumbai - 2
 * days WFH"), and a remote place where the location offers working from anywhere ("Remote or
 * Hyderabad" is both). A location naming no place is one in India, where the site's jobs are.
 */
export function placesOf(location: string): JobPlace[] {
  const places: JobPlace[] = [];
  const seen = new Set<string>();
  for (const place of listParts(location).flatMap(placesOfPart)) {
    // One place named twice ("Vadodara (Baroda)", "Pune / Pune") is one place, as first written.
    const city = !place.remote && place.locality ? normal(place.locality) : undefined;
    const key = JSON.stringify({ ...place, locality: city && (CITY_NAMES.get(city) ?? city) });
    if (seen.has(key)) continue;
    seen.add(key);
    places.push(place);
  }
  return places.length ? places : [{ remote: false, country: DEFAULT_COUNTRY }];
}

function placesOfPart(part: string): JobPlace[] {
  const pieces = part.split(PIECE_SEPARATOR).map((piece) => piece.trim()).filter(Boolean)
    // A list in a bracket is a list of cities only when each is one: "Hybrid (Bangalore /
    // Chennai)", not "Mumbai (Andheri / Powai)".
    .flatMap((piece) => {
      const cities = listParts(piece);
      return cities.length > 1 && cities.every(cityState) ? cities : [piece];
    })
    .filter((piece) => !isNote(piece));
  const namesIndianPlace = pieces.some((piece) => cityState(piece) || stateName(piece));
  if (REMOTE.test(part) && !namesIndianPlace) {
    // "Remote", "Remote (India)", "Remote - United States", "Work from home": the country, if any,
    // is where its applicants must live.
    const country = pieces.flatMap(listParts).map(countryOf).find(Boolean);
    return [{ remote: true, country: country ?? DEFAULT_COUNTRY }];
  }
  return pieces.length ? citiesOf(pieces).map(placeOf) : [];
}

/**
 * The pieces of each city: "Noida, Gurgaon, Delhi" is three cities, "New Delhi, Delhi" and "Noida,
 * UP" one. Pieces are several cities only when the first is a known city and each of the others a
 * city, a state or a country ("Whitefield, Bangalore" is one place). A state's name goes with the
 * city before it when that is the city's state or the name is no city's (Delhi and Chandigarh are
 * both); a country with the city before it.
 */
function citiesOf(pieces: string[]): string[][] {
  const placeNames = (list: string[]) =>
    list.every((piece) => cityState(piece) || stateName(piece) || countryOf(piece));
  // Words before a list of cities are no place ("Multiple locations (Bangalore, Pune)"); before
  // one city they are its locality ("Whitefield, Bangalore").
  const [first, ...rest] = pieces;
  if (
    !cityState(first) && rest.filter(cityState).length > 1 && cityState(rest[0]) && placeNames(rest)
  ) {
    return citiesOf(rest);
  }
  const listed = cityState(first) && placeNames(pieces);
  if (!listed) return [pieces];
  const cities: string[][] = [];
  for (const piece of pieces) {
    const city = cities.at(-1);
    const state = stateName(piece);
    const ownState = city?.length === 1 && state === cityState(city[0]);
    if (city && (countryOf(piece) || (state && (!cityState(piece) || ownState)))) city.push(piece);
    else cities.push([piece]);
  }
  return cities;
}

/**
 * One place from its pieces, the widest last: "Pune, Maharashtra", "Bengaluru, Karnataka, India",
 * "London, England, United Kingdom", "Austin, TX, USA", "Andheri, Mumbai".
 */
function placeOf(pieces: string[]): JobPlace {
  const rest = [...pieces];
  // "Pan India", "All India": anywhere in the country.
  let country = countryOf(rest.at(-1)!.replace(/^(?:pan|all|across)[\s-]+/i, ""));
  if (country) rest.pop();
  const foreign = country !== undefined && country !== DEFAULT_COUNTRY;
  country ??= DEFAULT_COUNTRY;
  const last = rest.at(-1);
  let region: string | undefined;
  if (last !== undefined) {
    const state = foreign ? undefined : stateName(last);
    // A state's name that is a city's too (Delhi, Chandigarh) is the city when it stands alone.
    if (rest.length > 1 ? state || foreign : state && !cityState(last)) {
      region = state ?? last;
      rest.pop();
    }
  }
  // A locality before its city ("Andheri, Mumbai", "Sector 62, Noida"): Google's locality is the
  // city, and the city knows its state.
  const locality = rest.find(cityState) ?? rest[0];
  if (!region && locality && !foreign) region = cityState(locality);
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
    words = placesOf(location).flatMap((place) => [
      place.remote ? "" : place.region ?? "",
      countryName(place.country),
    ]).join(" ");
    if (regionWordsOf.size >= REMEMBERED_LOCATIONS) regionWordsOf.clear();
    regionWordsOf.set(location, words);
  }
  return words;
}
