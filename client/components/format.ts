/** Text formatting shared by the server render and the islands (dates: dates.ts, server only). */
import { CURRENCY_SYMBOL } from "../../kv/constants.ts";

const count = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
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
