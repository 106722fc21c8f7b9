/** The product's figures (page sizes, lifecycle days, limits): the one place each is stated. */
export const PUBLIC_PAGE_SIZE = 12;
export const HOME_RECENT_JOBS = 6;
export const SIMILAR_JOBS_FETCHED = 4;
export const SIMILAR_JOBS_SHOWN = 3;
export const PAGINATION_WINDOW = 5;
export const CARD_DESCRIPTION_CUT = 150;
export const HOME_DESCRIPTION_CUT = 120;
export const CARD_SKILL_CHIPS = 3;
export const SHARE_SKILLS_PER_GROUP = 5;
export const DEFAULT_PACKAGE_TEXT = "Competitive";
export const HTTP_TIMEOUT_MS = 10_000;
export const COPIED_INDICATOR_MS = 2_000;
export const CURRENCY_SYMBOL = "₹";
/** The longest text a list filter takes, and a search box (a pasted job title fits). */
export const MAX_FILTER_TEXT = 200;
export const MAX_SEARCH_TEXT = 500;
export const ADMIN_PAGE_SIZE = 10;
export const DASHBOARD_RECENT_JOBS = 5;
export const DUMP_PAGE_SIZE = 20;
export const TOP_LIST_LIMIT = 10;
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export const DEFAULT_ANALYTICS_PERIOD = 7;
export const DAYS_ACTIVE_BEFORE_DUMP = 7;
export const DAYS_IN_DUMP_BEFORE_INACTIVE = 30;
export const DUMP_WARNING_DAYS = 15;
export const DUMP_DANGER_DAYS = 25;
export const MIN_ADMIN_PASSWORD = 6;

/**
 * The figures above that the admin app shows and pages by. The admin page carries them as JSON
 * (`routes/admin.tsx`) and the app reads them there at run time (`client/admin/settings.ts`), so
 * changing one here changes the server and the portal alike, with no rebuild of the portal.
 */
export const ADMIN_SETTINGS = {
  daysActiveBeforeDump: DAYS_ACTIVE_BEFORE_DUMP,
  daysInDumpBeforeInactive: DAYS_IN_DUMP_BEFORE_INACTIVE,
  dumpWarningDays: DUMP_WARNING_DAYS,
  dumpDangerDays: DUMP_DANGER_DAYS,
  adminPageSize: ADMIN_PAGE_SIZE,
  dumpPageSize: DUMP_PAGE_SIZE,
  topListLimit: TOP_LIST_LIMIT,
};
export type AdminSettings = typeof ADMIN_SETTINGS;
export const TOAST_MS = 4_000;
export const DUPLICATE_TOAST_MS = 6_000;
export const DAY_MS = 86_400_000;

/** Session and sign-in limits. */
export const SESSION_HOURS = 8;
/** Failed password checks one address may make against one account in a window. */
export const LOGIN_FAILURES_PER_ACCOUNT_ADDRESS = 5;
/** Failed password and secret checks one address may make in a window, whatever the account. */
export const LOGIN_FAILURES_PER_ADDRESS = 20;
/**
 * Failed password checks against one account in a window from browsers it never signed in from,
 * whatever their address: a guesser spread over many addresses gets this many, a known device
 * keeps its own allowance.
 */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
/**
 * Two-factor codes one account may be sent in a window from browsers it never signed in from,
 * whatever their address: a right code frees such a browser from the account's lock, so without a
 * bound a guesser holding the password could try codes from address after address. A right code
 * takes its try back; a known browser is not counted.
 */
export const TWO_FACTOR_TRIES_PER_ACCOUNT = 10;
/** Failed sign-ins (an address, and the typed e-mail when it names an account) are kept this long. */
export const FAILED_SIGN_IN_RETENTION_DAYS = 30;
/** How long a browser that signed in stays known without signing in again. */
export const KNOWN_DEVICE_DAYS = 90;
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Live sessions one admin may hold: signing in once more ends the oldest. */
export const SESSIONS_PER_ADMIN = 10;

/** The devices and browsers the traffic counter tells apart, with the names the reports show. */
export const DEVICE_NAMES = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet" } as const;
export const BROWSER_NAMES = {
  chrome: "Chrome",
  firefox: "Firefox",
  safari: "Safari",
  edge: "Edge",
  others: "Others",
} as const;
export type Device = keyof typeof DEVICE_NAMES;
export type Browser = keyof typeof BROWSER_NAMES;

/** Saved jobs (kept in the visitor's browser) and e-mail job alerts. */
export const SAVED_JOBS_MAX = 100;
export const VIEWED_JOBS_MAX = 20;
/** Jobs one `/api/saved-jobs` call answers: every saved and recently viewed job at once. */
export const SAVED_JOBS_LOOKUP_MAX = SAVED_JOBS_MAX + VIEWED_JOBS_MAX;
