/** Text formatting shared by the server render and the islands (dates: dates.ts, server only). */
import { CURRENCY_SYMBOL } from "../../kv/constants.ts";

// Made at first use: an island that imports this file for something else would otherwise build a
// number formatter (ICU's data) as it wakes, a long task on a slow phone.
let count: Intl.NumberFormat | undefined;

/**
 * A count as en-US writes it ("12,345"). A whole number is grouped by hand: a results page shows
 * about 75 counts, and Intl's formatter took a tenth of a millisecond of its render.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    count ??= new Intl.NumberFormat("en-US");
    return count.format(value);
  }
  const digits = String(value);
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) {
    grouped += `,${digits.slice(at, at + 3)}`;
  }
  return grouped;
}

/** '₹8-12 LPA'; a package that already carries the sign is not given a second one. */
export function formatPackage(estPackage: string): string {
  const text = estPackage.trim();
  return text.startsWith(CURRENCY_SYMBOL) ? text : `${CURRENCY_SYMBOL}${text}`;
}

/**
 * The first `length` characters, with an ellipsis when anything was cut; a cut that ends on
 * punctuation drops it ("available..." rather than "available....").
 */
export function cutText(text: string, length: number): string {
  const chars = Array.from(text);
  if (chars.length <= length) return text;
  return `${chars.slice(0, length).join("").replace(/[\s.,;:!?…]+$/u, "")}...`;
}
