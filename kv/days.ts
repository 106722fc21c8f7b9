/**
 * Calendar days ("YYYY-MM-DD") in the site's time zone: the one rule by which analytics count a
 * day and pages show a date. Pure, so browser code may use it too.
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ("YYYY-MM-DD") of `date` in `timeZone`. */
export function dayOf(date: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(date).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The day `count` calendar days after `day` (before, when negative). */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** The `days` calendar days ending with `lastDay`, oldest first. */
export function periodDays(lastDay: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(lastDay, i - days + 1));
}
