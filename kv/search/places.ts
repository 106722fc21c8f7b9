/**
 * Places as seekers type them: India's cities with the other names they go by (renamed cities
 * both ways), Delhi NCR as its cities, the work modes (remote, hybrid, on-site) under all their
 * names, and the location box read as cities with the state and country words after them left out.
 */
import { CITIES, isRegionName, stateName, statesByName } from "../regions.ts";
import { REMOTE, REMOTE_SPELLINGS, type WorkMode } from "../job-fields.ts";
import { editDistance, fold, typoBudget, words } from "./text.ts";
import { collapse, isKnownStem, stem } from "./vocabulary.ts";

/** Delhi NCR's cities (NCR alone is the region too). */
const NCR = ["delhi", "noida", "gurugram", "gurgaon", "ghaziabad", "faridabad", "ncr"];

/** The names a location word stands for, as stems; undefined when it is no known city. */
const byName = new Map<string, string[]>();
for (const { names } of CITIES) {
  // A name of two words is read by its words: "New Delhi" finds Delhi's jobs.
  if (names.some((name) => name.includes(" "))) continue;
  for (const name of names) byName.set(name, names.map(stem));
}
byName.set("ncr", NCR.map(stem));

/** The word the location of every job of a work mode holds in the index. */
export const MODE_WORDS: Readonly<Record<WorkMode, string>> = {
  Remote: stem("remote"),
  Hybrid: stem("hybrid"),
  "On-site": stem("onsite"),
};

/** Spellings of the work modes, joined up (`work from home` is workfromhome), and their word. */
const MODE_SPELLINGS = new Map<string, string>([
  ...REMOTE_SPELLINGS.map((spelling) => [collapse(spelling), MODE_WORDS.Remote] as const),
  ...["onsite", "workfromoffice", "wfo", "inoffice"].map((key) =>
    [key, MODE_WORDS["On-site"]] as const
  ),
  ["hybrid", MODE_WORDS.Hybrid],
]);

/** The work mode word the collapsed words `key` say (remote, on-site, hybrid); undefined if none. */
export const modeWord = (key: string) => MODE_SPELLINGS.get(key);

/** Whether a job's location says it is remote (as its JobPosting's TELECOMMUTE does). */
export const isRemoteLocation = (location: string) => REMOTE.test(location);

/**
 * The names (stems) a city word or two stands for: `bangalore` is Bengaluru or Bangalore, `delhi
 * ncr` and `ncr` the region's cities; null when they are no known city.
 */
export function cityNames(key: string): string[] | null {
  if (key === "delhincr") return byName.get("ncr")!;
  return byName.get(key) ?? null;
}

/** Every name of a city by its first letter, for a misspelt one: a typo keeps the first letter. */
const NAMES_BY_LETTER = new Map<string, string[]>();
for (const name of byName.keys()) {
  NAMES_BY_LETTER.set(name[0], [...NAMES_BY_LETTER.get(name[0]) ?? [], name]);
}

/**
 * The names (stems) of the city a misspelt word names (`banglore`, `hydrabad`, `chenai`, `gurgoan`:
 * its first letter, and as many edits as a typo of a word may have, a swap of two letters one),
 * of each city nearest when two are; null when none is near, or for a word the vocabulary knows.
 */
export function nearCityNames(word: string): string[] | null {
  const budget = typoBudget(word);
  if (budget === 0 || !/^\p{L}+$/u.test(word) || isKnownStem(stem(word))) return null;
  let nearest = budget + 1;
  let names: string[] = [];
  for (const name of NAMES_BY_LETTER.get(word[0]) ?? []) {
    if (Math.abs(name.length - word.length) >= nearest) continue;
    const distance = editDistance(word, name);
    if (distance < nearest) [nearest, names] = [distance, []];
    if (distance === nearest && distance <= budget) names.push(...cityNames(name)!);
  }
  return names.length ? [...new Set(names)] : null;
}

/** States by their names joined up (`tamilnadu`), for a misspelt one. */
const STATES_JOINED = [...statesByName].map(([name, state]) => [name.replaceAll(" ", ""), state]);

/**
 * The state a misspelt part of the location box names (`Maharastra`, `Kerela`, `Gujrat`), as a
 * misspelt city is read: its first letter, and as many edits as a typo of a word may have;
 * undefined when none is near, two are, or it is a city or a word the vocabulary knows.
 */
function nearStateName(part: string): string | undefined {
  const typed = words(part).join("");
  const budget = typoBudget(typed);
  if (budget === 0 || !/^\p{L}+$/u.test(typed) || isKnownStem(stem(typed))) return undefined;
  if (cityNames(typed) || nearCityNames(typed)) return undefined;
  const near = new Set(
    STATES_JOINED.filter(([name]) =>
      name[0] === typed[0] && Math.abs(name.length - typed.length) <= budget &&
      editDistance(typed, name) <= budget
    ).map(([, state]) => state),
  );
  return near.size === 1 ? [...near][0] : undefined;
}

/** Whether `part` of the location box names a city (misspelt too, with `typos`) or a work mode. */
function namesPlace(part: string, typos: boolean): boolean {
  const found = words(part);
  return found.some((word, i) =>
    [word, found.slice(i, i + 2).join(""), found.slice(i, i + 3).join("")].some((key) =>
      modeWord(key) || cityNames(key)
    ) || (typos && nearCityNames(word) !== null)
  );
}

/** Words of the location box that only say where a place is, never the place itself. */
const FILLER = new Set([
  "in",
  "near",
  "me",
  "at",
  "around",
  "city",
  "jobs",
  "job",
  "location",
  "or",
  "and",
  // A city's district as the government names it: "Bengaluru Urban", "Pune District".
  "urban",
  "rural",
  "district",
  // "Pan India": anywhere in the country.
  "pan",
]);

/**
 * The location box as groups of names (stems): a job's location must hold a name of every group.
 * A city's group has all its names; state and country words after a city are left out
 * (`Bangalore, India`, `Mumbai, Maharashtra`); several cities are one group (`Pune / Hyderabad`);
 * remote, work from home, WFH and anywhere are one group, as are on-site, work from office and WFO;
 * a work mode joins the cities' group when the box names alternatives (`Bangalore / Remote`).
 */
export function locationGroups(text: string | undefined): string[][] {
  // "On-site" is one word, not on and a site. A bracket or a spaced dash sets a part apart as a
  // comma does ("Mumbai (Andheri)", "Pune - Hinjewadi"); a state goes by its name ("TN", "Orissa"),
  // misspelt too ("Maharastra").
  const parts = (text ?? "").replace(/\b(on|in)[\s-]+(site|office)\b/gi, "$1$2")
    .replace(/[()]|\s[-–—]\s/g, ",").split(/[,|;]/).map((part) => part.trim()).filter(Boolean)
    .map((part) => stateName(part) ?? nearStateName(part) ?? part);
  // Beside a city, a part naming no place is a place within it (Andheri, Hinjewadi, T Nagar,
  // Koramangala) and a number its PIN code: every job in the city is near it. Only the first part
  // may name its city misspelt, as a locality's name is often near a city's (Nagar, Nagpur).
  const named = parts.map((part, i) => namesPlace(part, i === 0));
  const inCity = named.includes(true);
  const kept = parts.filter((part, i) => named[i] || (!inCity && (i === 0 || !isRegionName(part))));
  // A number with no city is part of the place's name (Sector 62, Phase 2).
  let found = words(kept.join(" ")).filter((word) =>
    !FILLER.has(word) && (!/^\p{N}+$/u.test(word) || !inCity)
  );
  if (found.length > 1 && found[0] !== "india") found = found.filter((word) => word !== "india");
  const groups: string[][] = [];
  // Several cities are alternatives ("Pune / Hyderabad", "Mumbai, Pune"): a job is in one of them.
  const cities: string[] = [];
  // A work mode is one more alternative where the box says so ("Bangalore / Remote", "remote or
  // pune"), else a job must have it too ("Hybrid, Bangalore").
  const modes = /\/|\bor\b/i.test(text ?? "") ? cities : undefined;
  // A mode said twice ("work-from-home": the word and its parts) is one group.
  const mode = (word: string) =>
    modes ? modes.push(word) : groups.some(([one]) => one === word) || groups.push([word]);
  for (let i = 0; i < found.length; i++) {
    const pair = found.slice(i, i + 2).join("");
    const triple = found.slice(i, i + 3).join("");
    if (modeWord(triple)) {
      mode(modeWord(triple)!);
      i += 2;
    } else if (modeWord(pair) && found.length > i + 1) {
      mode(modeWord(pair)!);
      i++;
    } else if (cityNames(pair) && pair === "delhincr") {
      cities.push(...cityNames(pair)!);
      i++;
    } else if (modeWord(found[i])) mode(modeWord(found[i])!);
    else {
      // A misspelt city is looked for once: it costs a few edit distances.
      const city = cityNames(found[i]) ?? nearCityNames(found[i]);
      if (city) cities.push(...city);
      // Beside a city, written without a comma too, a word naming no place is a place within it
      // (Whitefield Bangalore, Noida Sector 63, Mumbai Suburban).
      else if (!inCity) groups.push([stem(fold(found[i]))]);
    }
  }
  if (cities.length) groups.push([...new Set(cities)]);
  return groups;
}
