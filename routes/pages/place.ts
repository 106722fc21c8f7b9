/**
 * A job's free-text location read as a place, for search engines: "Pune, Maharashtra", "Bengaluru,
 * Karnataka, India", "Hybrid - Bengaluru", "London, United Kingdom", "Austin, TX, USA", "Remote
 * (India)". Country names and codes come from the platform's region names (Intl.DisplayNames);
 * a location that names no country is in India, where the site's jobs are posted.
 */

import { countryOf, normal, REMOTE, statesByName } from "../../kv/regions.ts";

export { countryName } from "../../kv/regions.ts";

export const DEFAULT_COUNTRY = "IN";

export type JobPlace =
  | { remote: true; country: string }
  | { remote: false; locality?: string; region?: string; country: string };

/** The state of India's large job markets, for a location that names only the city. */
const CITY_STATES: Record<string, string> = {
  ahmedabad: "Gujarat",
  bangalore: "Karnataka",
  bengaluru: "Karnataka",
  chennai: "Tamil Nadu",
  coimbatore: "Tamil Nadu",
  gurgaon: "Haryana",
  gurugram: "Haryana",
  hyderabad: "Telangana",
  indore: "Madhya Pradesh",
  jaipur: "Rajasthan",
  kochi: "Kerala",
  kolkata: "West Bengal",
  mumbai: "Maharashtra",
  "navi mumbai": "Maharashtra",
  "new delhi": "Delhi",
  noida: "Uttar Pradesh",
  pune: "Maharashtra",
  thiruvananthapuram: "Kerala",
};

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
