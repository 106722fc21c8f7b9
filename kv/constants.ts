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
/** The longest e-mail address taken: what SMTP carries (RFC 5321). */
export const MAX_EMAIL_LENGTH = 254;

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

/** How long a password reset link works. */
export const RESET_LINK_MINUTES = 30;
/** Reset mails one account gets in an hour, so nobody can flood its mailbox. */
export const RESET_MAILS_PER_HOUR = 3;
/** Reset requests one client address (an IPv6 /64) may make in an hour. */
export const RESET_REQUESTS_PER_HOUR = 20;
/** How long a link that confirms a browser works. */
export const DEVICE_LINK_MINUTES = 15;
/** Browser confirmation mails one account gets in an hour, so nobody can flood its mailbox. */
export const DEVICE_LINK_MAILS_PER_HOUR = 3;
/** Browser confirmation requests one client address (an IPv6 /64) may make in an hour. */
export const DEVICE_LINK_REQUESTS_PER_HOUR = 20;

/** Two-factor sign-in: the length of an authenticator's code, and the recovery codes given. */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

/** How far two processes' clocks may differ before one is out of step and ages no jobs. */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

/** E-mail job alerts. */
export const MAX_ALERTS_PER_ADDRESS = 10;
export const CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;
/** Alert requests one client address may make in an hour. */
export const ALERT_REQUESTS_PER_HOUR = 20;
/** How long an alert waits to be confirmed (and its confirmation link works). */
export const PENDING_ALERT_DAYS = 7;
/** How long an unsubscribe or manage link in a mail keeps working. */
export const MAIL_LINK_DAYS = 60;
/** Digests go out at this hour of the site's time zone; weekly ones on Mondays. */
export const DIGEST_HOUR = 8;
/** At most this many jobs in one digest; the link to the search shows the rest. */
export const DIGEST_JOBS = 20;

/**
 * The activity log: a page of it, the most one call may ask (a job's whole history asks this
 * many), the most one CSV export carries (the newest that match, so an export stays bounded).
 */
export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_PAGE_MAX = 100;
export const ACTIVITY_EXPORT_LIMIT = 10_000;

/** Long enough to outlive the day a visitor's salt or marker belongs to in any time zone. */
export const VISITOR_DATA_TTL_MS = 48 * 60 * 60 * 1000;
/** The most days a report covers. */
export const MAX_REPORT_DAYS = 365;
/** Rows of the sources and search lists: more than a top list's. */
export const INSIGHT_LIST_LIMIT = 20;
/**
 * Distinct search terms a day counted one by one, the rest together (the searches' limit among
 * `DIMENSION_LIMITS`, which the search report states): they cover what a board this size is asked.
 */
export const SEARCH_TERMS_PER_DAY = 200;
/**
 * Visitors (address and user agent pairs) counted from one address a day; every further browser
 * there is one shared visitor. An office or a home behind one address has a few browsers and a few
 * dozen people at most, and browsers now send few distinct user agents (Chrome's are frozen to the
 * major version), while one client rotating user agents would otherwise mint a visitor per request.
 */
export const VISITORS_PER_ADDRESS = 20;

/** Jobs one bulk upload may carry, and the newest jobs the RSS feed lists. */
export const MAX_BULK_JOBS = 500;
export const FEED_ITEMS = 50;

/**
 * The figures that the admin app shows and pages by. The admin page carries them as JSON
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
  activityPageSize: ACTIVITY_PAGE_SIZE,
  activityPageMax: ACTIVITY_PAGE_MAX,
  totpDigits: TOTP_DIGITS,
  searchTermsPerDay: SEARCH_TERMS_PER_DAY,
};
export type AdminSettings = typeof ADMIN_SETTINGS;
