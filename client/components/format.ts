/**
 * Text formatting shared by the server render and the islands. Dates are formatted in UTC so the
 * server's HTML and the browser's hydration always agree, whatever the visitor's time zone.
 */
import { CURRENCY_SYMBOL } from "../../kv/constants.ts";

const shortDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const count = new Intl.NumberFormat("en-US");

/** 'Nov 21, 2026': lists and cards. */
export function formatShortDate(iso: string): string {
  return shortDate.format(new Date(iso));
}

/** 'November 21, 2026': the job detail page. */
export function formatLongDate(iso: string): string {
  return longDate.format(new Date(iso));
}

export function formatCount(value: number): string {
  return count.format(value);
}

/** '₹8-12 LPA'; a package that already carries the sign is not given a second one. */
export function formatPackage(estPackage: string): string {
  const text = estPackage.trim();
  return text.startsWith(CURRENCY_SYMBOL) ? text : `${CURRENCY_SYMBOL}${text}`;
}

/** The first `length` characters, with an ellipsis when anything was cut. */
export function cutText(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length > length ? `${chars.slice(0, length).join("").trimEnd()}...` : text;
}
