/**
 * Dates as visitors read them: the calendar day in the site's time zone (`TIMEZONE`), the same day
 * the analytics count a visit in, so a job posted at 20:00 UTC reads as the next day in India. The
 * public pages and the admin portal both show dates this way; the day is formatted in UTC, where it
 * is already right.
 */
import { dayOf } from "../../kv/days.ts";

const shortDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/** "YYYY-MM-DD" in `timeZone`: a `<time>` element's value. */
export function siteDay(iso: string, timeZone: string): string {
  return dayOf(new Date(iso), timeZone);
}

/** 'Nov 21, 2026': lists and cards. */
export function formatShortDate(iso: string, timeZone: string): string {
  return shortDate.format(new Date(`${siteDay(iso, timeZone)}T00:00:00Z`));
}

/** 'November 21, 2026': the job detail page. */
export function formatLongDate(iso: string, timeZone: string): string {
  return longDate.format(new Date(`${siteDay(iso, timeZone)}T00:00:00Z`));
}

/** '21 Nov 2026, 8:00:00 pm': a moment, such as an admin's change, with its time in `timeZone`. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString("en-IN", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone,
  });
}
