/**
 * India's states and cities and the world's countries by name (countries from the platform's
 * region names, Intl.DisplayNames): read by the job page's place and by the search's location box.
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
] as const;
type IndianState = (typeof INDIAN_STATES)[number];

/**
 * India's cities job postings name, each with its names (the usual one first, then the old name
 * of a renamed city and the short forms postings and seekers use: Bombay, Madras, Bangalore, BLR,
 * Gurgaon, Poona) and its state. One table: the location box reads a city by any of its names,
 * and a job's place and region words take the city's state from it.
 */
export const CITIES: readonly { names: readonly string[]; state: IndianState }[] = [
  { names: ["bengaluru", "bangalore", "blr"], state: "Karnataka" },
  { names: ["mumbai", "bombay"], state: "Maharashtra" },
  { names: ["chennai", "madras"], state: "Tamil Nadu" },
  { names: ["kolkata", "calcutta"], state: "West Bengal" },
  { names: ["gurugram", "gurgaon"], state: "Haryana" },
  { names: ["kochi", "cochin", "ernakulam"], state: "Kerala" },
  { names: ["vadodara", "baroda"], state: "Gujarat" },
  { names: ["thiruvananthapuram", "trivandrum"], state: "Kerala" },
  { names: ["mysuru", "mysore"], state: "Karnataka" },
  { names: ["puducherry", "pondicherry", "pondy"], state: "Puducherry" },
  { names: ["prayagraj", "allahabad"], state: "Uttar Pradesh" },
  { names: ["visakhapatnam", "vizag", "vishakhapatnam"], state: "Andhra Pradesh" },
  { names: ["mangaluru", "mangalore"], state: "Karnataka" },
  { names: ["belagavi", "belgaum"], state: "Karnataka" },
  { names: ["hubballi", "hubli"], state: "Karnataka" },
  { names: ["kozhikode", "calicut"], state: "Kerala" },
  { names: ["varanasi", "banaras", "benares"], state: "Uttar Pradesh" },
  { names: ["tiruchirappalli", "trichy"], state: "Tamil Nadu" },
  { names: ["kalaburagi", "gulbarga"], state: "Karnataka" },
  { names: ["shivamogga", "shimoga"], state: "Karnataka" },
  { names: ["shimla", "simla"], state: "Himachal Pradesh" },
  { names: ["thrissur", "trichur"], state: "Kerala" },
  { names: ["kollam", "quilon"], state: "Kerala" },
  { names: ["alappuzha", "alleppey"], state: "Kerala" },
  { names: ["thoothukudi", "tuticorin"], state: "Tamil Nadu" },
  { names: ["aurangabad"], state: "Maharashtra" },
  { names: ["hyderabad", "secunderabad", "hyd"], state: "Telangana" },
  { names: ["pune", "poona"], state: "Maharashtra" },
  { names: ["delhi"], state: "Delhi" },
  { names: ["noida"], state: "Uttar Pradesh" },
  { names: ["ghaziabad"], state: "Uttar Pradesh" },
  { names: ["faridabad"], state: "Haryana" },
  { names: ["ahmedabad", "amdavad"], state: "Gujarat" },
  { names: ["jaipur"], state: "Rajasthan" },
  { names: ["lucknow"], state: "Uttar Pradesh" },
  { names: ["chandigarh"], state: "Chandigarh" },
  { names: ["mohali"], state: "Punjab" },
  { names: ["indore"], state: "Madhya Pradesh" },
  { names: ["bhopal"], state: "Madhya Pradesh" },
  { names: ["nagpur"], state: "Maharashtra" },
  { names: ["nashik"], state: "Maharashtra" },
  { names: ["surat"], state: "Gujarat" },
  { names: ["rajkot"], state: "Gujarat" },
  { names: ["thane"], state: "Maharashtra" },
  { names: ["coimbatore", "kovai"], state: "Tamil Nadu" },
  { names: ["madurai"], state: "Tamil Nadu" },
  { names: ["vijayawada"], state: "Andhra Pradesh" },
  { names: ["bhubaneswar"], state: "Odisha" },
  { names: ["guwahati"], state: "Assam" },
  { names: ["patna"], state: "Bihar" },
  { names: ["ranchi"], state: "Jharkhand" },
  { names: ["raipur"], state: "Chhattisgarh" },
  { names: ["dehradun"], state: "Uttarakhand" },
  { names: ["ludhiana"], state: "Punjab" },
  { names: ["jalandhar"], state: "Punjab" },
  { names: ["jammu"], state: "Jammu and Kashmir" },
  { names: ["srinagar"], state: "Jammu and Kashmir" },
  { names: ["jamshedpur"], state: "Jharkhand" },
  { names: ["tirupati"], state: "Andhra Pradesh" },
  { names: ["warangal"], state: "Telangana" },
  { names: ["vellore"], state: "Tamil Nadu" },
  { names: ["salem"], state: "Tamil Nadu" },
  { names: ["tirunelveli"], state: "Tamil Nadu" },
  { names: ["meerut"], state: "Uttar Pradesh" },
  { names: ["gandhinagar"], state: "Gujarat" },
  { names: ["manipal"], state: "Karnataka" },
  { names: ["amritsar"], state: "Punjab" },
  { names: ["kanpur"], state: "Uttar Pradesh" },
  { names: ["agra"], state: "Uttar Pradesh" },
  { names: ["jodhpur"], state: "Rajasthan" },
  { names: ["udaipur"], state: "Rajasthan" },
  { names: ["goa"], state: "Goa" },
  { names: ["cuttack"], state: "Odisha" },
  { names: ["panaji"], state: "Goa" },
  { names: ["new delhi"], state: "Delhi" },
  { names: ["navi mumbai"], state: "Maharashtra" },
  { names: ["greater noida"], state: "Uttar Pradesh" },
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
