/**
 * Calendar days ("YYYY-MM-DD") in the site's time zone: the one rule by which analytics count a
 * day and pages show a date. Pure, so browser code may use it too.
 */

const QUARTER_HOUR_MS = 15 * 60 * 1000;
/** Quarter hours whose day each time zone remembers; past this many it starts again. */
const REMEMBERED_QUARTERS = 4096;

interface Zone {
  format: Intl.DateTimeFormat;
  /** The day of each quarter hour (by its number since 1970) that lies within one day. */
  quarters: Map<number, string>;
}

const zones = new Map<string, Zone>();

function zone(timeZone: string): Zone {
  let known = zones.get(timeZone);
  if (!known) {
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    known = { format, quarters: new Map() };
    zones.set(timeZone, known);
  }
  return known;
}

function formatDay(format: Intl.DateTimeFormat, time: number): string {
  const parts = Object.fromEntries(
    format.formatToParts(time).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The calendar day ("YYYY-MM-DD") of `date` in `timeZone`. Every UTC offset in use is a whole
 * number of quarter hours, so days begin and clocks change on UTC quarter hours, and a quarter
 * hour's day is worked out once (a list page shows a dozen dates, a report hundreds). A quarter
 * hour whose first and last moment fall on different days is never remembered.
 */
export function dayOf(date: Date, timeZone: string): string {
  const { format, quarters } = zone(timeZone);
  const time = date.getTime();
  const quarter = Math.floor(time / QUARTER_HOUR_MS);
  const known = quarters.get(quarter);
  if (known !== undefined) return known;
  const day = formatDay(format, time);
  const start = quarter * QUARTER_HOUR_MS;
  if (
    formatDay(format, start) === day && formatDay(format, start + QUARTER_HOUR_MS - 1) === day
  ) {
    if (quarters.size >= REMEMBERED_QUARTERS) quarters.clear();
    quarters.set(quarter, day);
  }
  return day;
}

/**
 * The first moment of `day` in `timeZone`, found from `from` (before it) forward in quarter hours,
 * on which every day begins; at most `limitDays` ahead (then that moment).
 */
export function startOfDayAfter(from: Date, day: string, timeZone: string, limitDays = 3): Date {
  let time = Math.floor(from.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const limit = from.getTime() + limitDays * 86_400_000;
  while (time < limit && dayOf(new Date(time), timeZone) < day) time += QUARTER_HOUR_MS;
  return new Date(Math.max(time, from.getTime()));
}

/**
 * The minute past each UTC hour on which days begin in `timeZone` (as of `now`): 0 in UTC, 30 in
 * India, 45 in Nepal. An hourly task on that minute runs at the very start of each day there.
 */
export function dayStartMinute(timeZone: string, now = new Date()): number {
  return startOfDayAfter(now, addDays(dayOf(now, timeZone), 1), timeZone).getUTCMinutes();
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

/** The time `date` shows on a wall clock in `timeZone`, read as if that clock were UTC (epoch ms). */
function wallClock(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(date);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    part("year"),
    part("month") - 1,
    part("day"),
    part("hour"),
    part("minute"),
    part("second"),
  );
}

/**
 * The moment clocks in `timeZone` show `hour`:00 on `day`. On a day clocks skip that hour, the
 * moment an hour later.
 */
export function momentAt(day: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${day}T${String(hour).padStart(2, "0")}:00:00Z`);
  let moment = wall;
  // Twice: the first guess may sit across a change of the zone's offset.
  for (let i = 0; i < 2; i++) moment = wall - (wallClock(new Date(moment), timeZone) - moment);
  return new Date(moment);
}

/** The day of the week of `day`: 0 for Sunday to 6 for Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}
