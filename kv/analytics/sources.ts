/**
 * Where a visit came from and what a seeker typed, reduced to what the reports keep: a referrer
 * group (named the way Plausible names them, else the referring host without `www.`), the
 * `utm_source` and `utm_campaign` of the landing URL, and a normalised search term. Never a full
 * URL, a path or a query of another site: nothing that could name a person. Pure: no KV.
 */
import { oneLineText } from "../schemas.ts";

/** The group of a visit with no referrer and no `utm_source`. */
export const DIRECT = "Direct / None";
/** The group of a job view reached from another page of this site. */
export const INTERNAL = "This site";
/** What takes a value's place once a day holds its most distinct values of a dimension. */
export const OTHER = "(other)";

/** The longest search term kept, in characters (code points). */
export const MAX_TERM_CHARS = 100;
/** The longest utm value kept, in characters. */
const MAX_UTM_CHARS = 60;
/** The longest host kept. */
const MAX_HOST_CHARS = 100;

/**
 * Hosts by group: a host matches when it is the domain or ends with "." and the domain. Mail
 * comes first: mail.google.com is e-mail, not Google.
 */
const GROUPS: readonly [group: string, domains: readonly string[]][] = [
  ["Newsletter / E-mail", [
    "mail.google.com",
    "outlook.live.com",
    "outlook.office.com",
    "outlook.office365.com",
    "mail.yahoo.com",
    "mail.proton.me",
    "mail.zoho.com",
    // Mail apps' android-app referrers: Gmail, Outlook, Yahoo Mail.
    "com.google.android.gm",
    "com.microsoft.office.outlook",
    "com.yahoo.mobile.client.android.mail",
  ]],
  ["Google", ["google.com", "googlequicksearchbox"]],
  ["Bing", ["bing.com"]],
  ["DuckDuckGo", ["duckduckgo.com"]],
  ["Yahoo!", ["search.yahoo.com"]],
  ["Ecosia", ["ecosia.org"]],
  ["Yandex", ["yandex.ru", "yandex.com"]],
  ["Baidu", ["baidu.com"]],
  // Apps on Android send their package as the referrer (`android-app://com.whatsapp`), listed
  // after each group's sites.
  ["LinkedIn", ["linkedin.com", "lnkd.in", "linkedin.android"]],
  ["WhatsApp", ["whatsapp.com", "wa.me", "whatsapp.net", "com.whatsapp", "com.whatsapp.w4b"]],
  ["Facebook", [
    "facebook.com",
    "fb.com",
    "fb.me",
    "messenger.com",
    "com.facebook.katana",
    "com.facebook.lite",
    "com.facebook.orca",
  ]],
  ["Instagram", ["instagram.com", "com.instagram.android"]],
  ["X (Twitter)", ["twitter.com", "t.co", "x.com", "com.twitter.android"]],
  ["Reddit", ["reddit.com", "redd.it", "com.reddit.frontpage"]],
  ["Telegram", ["t.me", "telegram.org", "telegram.me", "org.telegram.messenger"]],
  ["YouTube", ["youtube.com", "youtu.be", "com.google.android.youtube"]],
];

/** `utm_source` values (and their spellings) that name a group. */
const UTM_GROUPS: Record<string, string> = {
  google: "Google",
  bing: "Bing",
  duckduckgo: "DuckDuckGo",
  linkedin: "LinkedIn",
  whatsapp: "WhatsApp",
  facebook: "Facebook",
  fb: "Facebook",
  instagram: "Instagram",
  ig: "Instagram",
  x: "X (Twitter)",
  twitter: "X (Twitter)",
  reddit: "Reddit",
  telegram: "Telegram",
  youtube: "YouTube",
  newsletter: "Newsletter / E-mail",
  email: "Newsletter / E-mail",
  "e-mail": "Newsletter / E-mail",
  mail: "Newsletter / E-mail",
};

/** Mail and newsletter mediums: a visit from a mail with any source counts as e-mail. */
const MAIL_MEDIUMS = new Set(["email", "e-mail", "mail", "newsletter"]);

/** Google's country sites (google.co.in, google.de) are Google too. */
const GOOGLE = /(^|\.)google(\.com?)?\.[a-z]{2,3}$/;

function groupOfHost(host: string): string | undefined {
  for (const [group, domains] of GROUPS) {
    if (domains.some((domain) => host === domain || host.endsWith(`.${domain}`))) return group;
  }
  return GOOGLE.test(host) ? "Google" : undefined;
}

/**
 * A utm value as kept: invisible characters (controls, bidirectional overrides) removed, trimmed,
 * lower case, spaces collapsed, at most 60 characters.
 */
export function utmValue(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const text = clip(
    oneLineText(value.normalize("NFC")).trim().toLowerCase().replace(/\s+/g, " "),
    MAX_UTM_CHARS,
  );
  return text || undefined;
}

/** Whether `source` is one of the fixed names (a group, direct, this site, other), not a host. */
export function isNamedSource(source: string): boolean {
  return source === DIRECT || source === INTERNAL || source === OTHER ||
    GROUPS.some(([group]) => group === source);
}

/** What a visit's landing URL and Referer say of where it came from. */
export interface VisitSource {
  /** The referrer group: a named group, a host, `DIRECT` or `INTERNAL`. */
  group: string;
  utmSource?: string;
  utmCampaign?: string;
}

/**
 * The source of a visit to `landing` with the `referer` header, `ownHosts` being the hosts of this
 * site. A `utm_source` names the group, as Plausible reads it (an app such as WhatsApp sends no
 * Referer; a share link carries the source in its URL): a known name or host its group
 * (`linkedin.com` is LinkedIn), another as written (`naukri`); then an e-mail `utm_medium`, then
 * the referring host.
 */
export function visitSource(
  landing: URL,
  referer: string | undefined,
  ownHosts: readonly string[],
): VisitSource {
  // Most visits carry no campaign tags: their query is not parsed for them (a name could only be
  // spelt otherwise with a percent escape).
  const params = /utm_|%/i.test(landing.search) ? landing.searchParams : undefined;
  const utmSource = utmValue(params?.get("utm_source"));
  const utmCampaign = utmValue(params?.get("utm_campaign"));
  const medium = utmValue(params?.get("utm_medium"));
  const named = utmSource &&
    (UTM_GROUPS[utmSource] ?? groupOfHost(utmSource.replace(/^www\./, "")));
  const tagged = named || (medium && MAIL_MEDIUMS.has(medium) ? "Newsletter / E-mail" : undefined);
  const host = hostOf(referer);
  let group: string;
  if (host && ownHosts.includes(host)) group = tagged ?? INTERNAL;
  else group = tagged ?? utmSource ?? (host ? groupOfHost(host) ?? host : DIRECT);
  return { group, utmSource, utmCampaign };
}

/** The referring host, lower case without `www.`; android-app referrers give their package. */
function hostOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    const host = url.protocol === "android-app:" ? url.host : url.hostname;
    const bare = host.toLowerCase().replace(/^www\./, "").replace(/\.$/, "");
    return bare ? bare.slice(0, MAX_HOST_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A search as counted: NFC, invisible characters (controls, bidirectional overrides) removed,
 * trimmed, case folded, white space collapsed, cut to 100 code points (whole characters), or
 * undefined when nothing is left.
 */
export function searchTerm(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  // Printable ASCII is in NFC already, and ICU's normalising is most of the work for it.
  const composed = /^[\x20-\x7e]*$/.test(text) ? text : oneLineText(text.normalize("NFC"));
  const normal = composed.toLowerCase().replace(/\s+/g, " ").trim();
  const term = clip(normal, MAX_TERM_CHARS).trim();
  return term || undefined;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * At most `max` code points of `text`, whole characters as a reader sees them: an emoji of several
 * code points or a letter with its marks is kept whole or left out, never split.
 */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = "";
  let points = 0;
  for (const { segment } of graphemes.segment(text)) {
    points += Array.from(segment).length;
    if (points > max) break;
    kept += segment;
  }
  return kept;
}
