/**
 * A job's expiry date. Admins give a calendar day ("YYYY-MM-DD") in the site's time zone; the job
 * stores the last moment of that day with its UTC offset ("2026-12-01T23:59:59.999+05:30"), so the
 * stored value names both the day (its first ten characters) and the moment the job expires,
 * without the lifecycle, the store or the pages needing the time zone again. Pure, so browser code
 * may use it too.
 */
import { addDays, dayOf, startOfDayAfter } from "../days.ts";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The stored form: the end of a day with its offset. */
export const STORED_EXPIRY = /^\d{4}-\d{2}-\d{2}T23:59:59\.999[+-]\d{2}:\d{2}$/;
export const EXPIRY_MESSAGE = "must be a date (YYYY-MM-DD) from tomorrow to a year ahead";

/** The day "YYYY-MM-DD" a stored expiry names. */
export const expiryDay = (stored: string): string => stored.slice(0, 10);

/** When a stored expiry passes, in milliseconds. */
export const expiryTime = (stored: string): number => Date.parse(stored);

function isCalendarDay(day: string): boolean {
  const match = DAY.exec(day);
  if (!match) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The same date a year after `day` (28 February after 29 February). */
function yearAfter(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  const next = `${year + 1}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
  return isCalendarDay(next)
    ? next
    : addDays(`${year + 1}-${String(month).padStart(2, "0")}-01`, 27);
}

/** The last moment of `day` in `timeZone`, with that moment's offset. */
export function endOfDay(day: string, timeZone: string): string {
  const from = new Date(Date.parse(`${day}T00:00:00Z`) - 15 * 3_600_000);
  const end = startOfDayAfter(from, addDays(day, 1), timeZone, 3).getTime() - 1;
  const offset = Math.round((Date.parse(`${day}T23:59:59.999Z`) - end) / 60_000);
  const abs = Math.abs(offset);
  const hours = String(Math.floor(abs / 60)).padStart(2, "0");
  const minutes = String(abs % 60).padStart(2, "0");
  return `${day}T23:59:59.999${offset < 0 ? "-" : "+"}${hours}:${minutes}`;
}

/** The first and last day an expiry may name at `now`: tomorrow and a year from today. */
export function expiryRange(now: Date, timeZone: string): { min: string; max: string } {
  const today = dayOf(now, timeZone);
  return { min: addDays(today, 1), max: yearAfter(today) };
}

/**
 * A job body's `expiresAt` as the store takes it: a day from tomorrow to a year ahead of `now` in
 * `timeZone` (given as the day or as a stored expiry, so a job read from the API can be sent
 * back) becomes the end of that day. Anything else is left so the job's check refuses it with a
 * message naming the field; blank or null means no expiry.
 *
 * `kept` is the expiry an edited job has now (stored, or its day): given unchanged it is taken
 * while its day has not passed, even today, before the range's first day: the range is for
 * choosing a day, and a job on its last day must still be editable without moving or losing it.
 */
export function expiryInput(value: unknown, now: Date, timeZone: string, kept?: string): unknown {
  if (typeof value !== "string" || value.trim() === "") return value;
  const given = value.trim();
  const day = STORED_EXPIRY.test(given) ? expiryDay(given) : given;
  if (!isCalendarDay(day)) return day;
  if (kept && day === expiryDay(kept) && day >= dayOf(now, timeZone)) {
    return STORED_EXPIRY.test(kept) ? kept : endOfDay(day, timeZone);
  }
  const { min, max } = expiryRange(now, timeZone);
  if (day < min || day > max) return day;
  return endOfDay(day, timeZone);
}

/** A job body with its `expiresAt` read as `expiryInput` does; other values are left alone. */
export function withExpiryInput(
  body: unknown,
  now: Date,
  timeZone: string,
  kept?: string,
): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body) || !("expiresAt" in body)) {
    return body;
  }
  const record = body as Record<string, unknown>;
  return { ...record, expiresAt: expiryInput(record.expiresAt, now, timeZone, kept) };
}
