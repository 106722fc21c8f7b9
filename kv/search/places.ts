/**
 * Places as seekers type them: India's cities with the other names they go by (renamed cities
 * both ways), Delhi NCR as its cities, remote under all its names, and the location box read as
 * a city with the state and country words after it left out.
 */
import { isRegionName, REMOTE } from "../regions.ts";
import { fold, words } from "./text.ts";
import { stem } from "./vocabulary.ts";

/** Each city's names, the usual one first. */
const CITIES: readonly (readonly string[])[] = [
  ["bengaluru", "bangalore", "blr"],
  ["mumbai", "bombay"],
  ["chennai", "madras"],
  ["kolkata", "calcutta"],
  ["gurugram", "gurgaon"],
  ["kochi", "cochin", "ernakulam"],
  ["vadodara", "baroda"],
  ["thiruvananthapuram", "trivandrum"],
  ["mysuru", "mysore"],
  ["puducherry", "pondicherry", "pondy"],
  ["prayagraj", "allahabad"],
  ["visakhapatnam", "vizag", "vishakhapatnam"],
  ["mangaluru", "mangalore"],
  ["belagavi", "belgaum"],
  ["hubballi", "hubli"],
  ["kozhikode", "calicut"],
  ["varanasi", "banaras", "benares"],
  ["tiruchirappalli", "trichy"],
  ["kalaburagi", "gulbarga"],
  ["shivamogga", "shimoga"],
  ["hyderabad", "secunderabad"],
  ["pune"],
  ["delhi"],
  ["noida"],
  ["ghaziabad"],
  ["faridabad"],
  ["ahmedabad"],
  ["jaipur"],
  ["lucknow"],
  ["chandigarh"],
  ["mohali"],
  ["indore"],
  ["bhopal"],
  ["nagpur"],
  ["nashik"],
  ["surat"],
  ["rajkot"],
  ["thane"],
  ["coimbatore"],
  ["madurai"],
  ["vijayawada"],
  ["bhubaneswar"],
  ["guwahati"],
  ["patna"],
  ["ranchi"],
  ["raipur"],
  ["dehradun"],
  ["ludhiana"],
  ["amritsar"],
  ["kanpur"],
  ["agra"],
  ["jodhpur"],
  ["udaipur"],
  ["goa"],
];

/** Delhi NCR's cities (NCR alone is the region too). */
const NCR = ["delhi", "noida", "gurugram", "gurgaon", "ghaziabad", "faridabad", "ncr"];

/** The names a location word stands for, as stems; undefined when it is no known city. */
const byName = new Map<string, string[]>();
for (const names of CITIES) {
  for (const name of names) byName.set(name, names.map(stem));
}
byName.set("ncr", NCR.map(stem));

/** The one word every remote job's location holds in the index. */
export const REMOTE_WORD = stem("remote");

/** Spellings of remote, joined up: `work from home` is workfromhome. */
const REMOTE_SPELLINGS = new Set(["remote", "workfromhome", "wfh", "anywhere"]);

/** Whether the collapsed words `key` say remote. */
export const isRemoteWord = (key: string) => REMOTE_SPELLINGS.has(key);

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

/** Words of the location box that only say where a place is, never the place itself. */
const FILLER = new Set(["in", "near", "at", "around", "city", "jobs", "job", "location"]);

/**
 * The location box as groups of names (stems): a job's location must hold a name of every group.
 * A city's group has all its names; state and country words after a city are left out
 * (`Bangalore, India`, `Mumbai, Maharashtra`), and remote, work from home, WFH and anywhere are
 * one group.
 */
export function locationGroups(text: string | undefined): string[][] {
  const parts = (text ?? "").split(/[,|;]/).map((part) => part.trim()).filter(Boolean);
  const kept = parts.filter((part, i) => i === 0 || !isRegionName(part));
  let found = words(kept.join(" ")).filter((word) =>
    !FILLER.has(word) && (!/^\p{N}+$/u.test(word) || word.length > 3)
  );
  if (found.length > 1 && found[0] !== "india") found = found.filter((word) => word !== "india");
  const groups: string[][] = [];
  for (let i = 0; i < found.length; i++) {
    const pair = found.slice(i, i + 2).join("");
    const triple = found.slice(i, i + 3).join("");
    if (isRemoteWord(triple)) {
      groups.push([REMOTE_WORD]);
      i += 2;
    } else if (cityNames(pair) && pair === "delhincr") {
      groups.push(cityNames(pair)!);
      i++;
    } else if (isRemoteWord(found[i])) groups.push([REMOTE_WORD]);
    else groups.push(cityNames(found[i]) ?? [stem(fold(found[i]))]);
  }
  return groups;
}
