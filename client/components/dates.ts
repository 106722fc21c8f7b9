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

/** Days a format was asked for; past this many its memory starts again. */
const REMEMBERED_DAYS = 1024;

/** `format` of each calendar day, worked out once: a list shows a dozen jobs from a few days. */
function byDay(format: Intl.DateTimeFormat): (day: string) => string {
  const days = new Map<string, string>();
  return (day) => {
    let text = days.get(day);
    if (text === undefined) {
      if (days.size >= REMEMBERED_DAYS) days.clear();
      text = format.format(new Date(`${day}T00:00:00Z`));
      days.set(day, text);
    }
    return text;
  };
}

const shortDay = byDay(shortDate);
const longDay = byDay(longDate);

/** 'Nov 21, 2026': lists and cards. */
export function formatShortDate(iso: string, timeZone: string): string {
  return shortDay(siteDay(iso, timeZone));
}

/** 'November 21, 2026': the job detail page. */
export function formatLongDate(iso: string, timeZone: string): string {
  return longDay(siteDay(iso, timeZone));
}

/**
 * 'Nov 21, 2026, 8:00:00 PM': a moment, such as an admin's change, with its time in `timeZone`, in
 * the en-US form of every date the site shows.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString("en-US", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone,
  });
}
