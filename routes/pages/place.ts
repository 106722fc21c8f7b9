/**
 * A job's free-text location read as a place, for search engines: "Pune, Maharashtra", "Bengaluru,
 * Karnataka, India", "Hybrid - Bengaluru", "London, United Kingdom", "Austin, TX, USA", "Remote
 * (India)". Country names and codes come from the platform's region names (Intl.DisplayNames);
 * a location that names no country is in India, where the site's jobs are posted.
 */

export const DEFAULT_COUNTRY = "IN";

export type JobPlace =
  | { remote: true; country: string }
  | { remote: false; locality?: string; region?: string; country: string };

const INDIAN_STATES = [
  "Andhra Pradesh",
  "Arunachal Pradesh",
  "Assam",
  "Bihar",
  "Chhattisgarh",
  "Goa",
  "Gujarat",
  "Haryana",
  "Himachal Pradesh",
  "Jharkhand",
  "Karnataka",
  "Kerala",
  "Madhya Pradesh",
  "Maharashtra",
  "Manipur",
  "Meghalaya",
  "Mizoram",
  "Nagaland",
  "Odisha",
  "Punjab",
  "Rajasthan",
  "Sikkim",
  "Tamil Nadu",
  "Telangana",
  "Tripura",
  "Uttar Pradesh",
  "Uttarakhand",
  "West Bengal",
  "Andaman and Nicobar Islands",
  "Chandigarh",
  "Dadra and Nagar Haveli and Daman and Diu",
  "Delhi",
  "Jammu and Kashmir",
  "Ladakh",
  "Lakshadweep",
  "Puducherry",
];

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

const normal = (text: string) => text.toLowerCase().replace(/[.\s]+/g, " ").trim();

const statesByName = new Map(INDIAN_STATES.map((state) => [normal(state), state]));

/** Country names to ISO 3166-1 codes, plus the usual short forms. */
const countries = (() => {
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const byName = new Map<string, string>([
    ["us", "US"],
    ["usa", "US"],
    ["u s a", "US"],
    ["united states of america", "US"],
    ["uk", "GB"],
    ["england", "GB"],
    ["uae", "AE"],
  ]);
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const first of letters) {
    for (const second of letters) {
      const name = names.of(first + second);
      if (!name) continue;
      // Old and reserved codes ("DD", "UK") are named too: each name maps to the current code.
      const code = Intl.getCanonicalLocales(`und-${first}${second}`)[0].slice(4);
      // Names only: a bare code is ambiguous ("CA" is a US state more often than Canada).
      byName.set(normal(name), code);
    }
  }
  return { byName, names };
})();

/** The English name of a country code: "IN" is "India". */
export function countryName(code: string): string {
  return countries.names.of(code) ?? code;
}

function countryOf(text: string): string | undefined {
  return countries.byName.get(normal(text));
}

/** A location saying the job is done from anywhere: remote, work from home, WFH, anywhere. */
export const REMOTE = /\bremote\b|work from home|\bwfh\b|\banywhere\b/i;

/** Whether `text` is the name of a state of India or of a country ("Karnataka", "India"). */
export function isRegionName(text: string): boolean {
  return statesByName.has(normal(text)) || countryOf(text) !== undefined;
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
