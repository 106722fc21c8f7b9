/** Text formatting shared by the server render and the islands (dates: dates.ts, server only). */
import { CURRENCY_SYMBOL } from "../../kv/constants.ts";

// Made at first use: an island that imports this file for something else would otherwise build a
// number formatter (ICU's data) as it wakes, a long task on a slow phone.
let count: Intl.NumberFormat | undefined;

export function formatCount(value: number): string {
  count ??= new Intl.NumberFormat("en-US");
  return count.format(value);
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
