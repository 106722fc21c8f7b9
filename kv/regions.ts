/**
 * India's states and the world's countries by name (from the platform's region names,
 * Intl.DisplayNames): read by the job page's place and by the search's location box.
 */

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

export const normal = (text: string) => text.toLowerCase().replace(/[.\s]+/g, " ").trim();

/** States as locations also write them: short forms and old names ("Noida, UP", "Orissa"). */
const STATE_ALIASES: Record<string, string> = {
  up: "Uttar Pradesh",
  mp: "Madhya Pradesh",
  ap: "Andhra Pradesh",
  tn: "Tamil Nadu",
  tamilnadu: "Tamil Nadu",
  wb: "West Bengal",
  hp: "Himachal Pradesh",
  mh: "Maharashtra",
  ka: "Karnataka",
  kl: "Kerala",
  gj: "Gujarat",
  rj: "Rajasthan",
  hr: "Haryana",
  pb: "Punjab",
  ts: "Telangana",
  dl: "Delhi",
  "j&k": "Jammu and Kashmir",
  "jammu & kashmir": "Jammu and Kashmir",
  orissa: "Odisha",
  pondicherry: "Puducherry",
  uttaranchal: "Uttarakhand",
};

export const statesByName = new Map([
  ...INDIAN_STATES.map((state) => [normal(state), state] as const),
  ...Object.entries(STATE_ALIASES),
]);

/** The state `text` names, by its name, short form or old name; undefined for any other text. */
export const stateName = (text: string): string | undefined => statesByName.get(normal(text));

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

export function countryOf(text: string): string | undefined {
  return countries.byName.get(normal(text));
}

/** Whether `text` is the name of a state of India or of a country ("Karnataka", "India"). */
export function isRegionName(text: string): boolean {
  return statesByName.has(normal(text)) || countryOf(text) !== undefined;
}
