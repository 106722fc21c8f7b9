/** Calendar days in a time zone (kv/days.ts): remembered by quarter hour, always the exact day. */
import assert from "node:assert/strict";
import { dayOf, dayStartMinute } from "../../kv/days.ts";
import { hourlySchedules } from "../../server/start.ts";

const formats = new Map<string, Intl.DateTimeFormat>();

/** The day as Intl gives it for this very moment, remembering nothing. */
function exactDay(time: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(time);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

Deno.test("the day of a moment is exact around midnights and clock changes, in odd offsets too", () => {
  const zones = [
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "America/New_York",
    "America/St_Johns",
    "Pacific/Chatham",
  ];
  // Every 37 minutes 13 seconds through 2026, then the same moments again from memory.
  const start = Date.UTC(2026, 0, 1);
  const step = 37 * 60_000 + 13_000;
  for (const timeZone of zones) {
    for (let round = 0; round < 2; round++) {
      for (let time = start; time < start + 366 * 86_400_000; time += step) {
        assert.equal(
          dayOf(new Date(time), timeZone),
          exactDay(time, timeZone),
          `${timeZone} ${time}`,
        );
      }
    }
  }
});

Deno.test("a midnight off the quarter hours (Madras time, 1890) gives each moment its exact day", () => {
  // The moment 1 June 1890 began in Kolkata, found by halving.
  const zone = "Asia/Kolkata";
  let before = Date.UTC(1890, 4, 31, 12);
  let after = Date.UTC(1890, 5, 1, 12);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (exactDay(middle, zone) === "1890-06-01") after = middle;
    else before = middle;
  }
  assert.notEqual(after % (15 * 60_000), 0, "that midnight falls on a quarter hour");
  for (const offset of [-400_000, -1, 0, 1, 400_000, -1, 0]) {
    assert.equal(dayOf(new Date(after + offset), zone), exactDay(after + offset, zone));
  }
});

Deno.test("the hourly lifecycle runs on the minute days begin in the site's time zone", () => {
  const at = new Date("2026-12-01T10:07:00Z");
  const cases: [string, string, string][] = [
    ["UTC", "0 * * * *", "30 * * * *"],
    ["Asia/Kolkata", "30 * * * *", "0 * * * *"],
    ["Asia/Kathmandu", "15 * * * *", "45 * * * *"],
    ["America/St_Johns", "30 * * * *", "0 * * * *"],
    ["Australia/Eucla", "15 * * * *", "45 * * * *"],
    ["America/New_York", "0 * * * *", "30 * * * *"],
  ];
  for (const [zone, lifecycle, packAnalytics] of cases) {
    assert.deepEqual(hourlySchedules(zone, at), { lifecycle, packAnalytics }, zone);
  }
  // So the run that follows a day's end in India comes at its first minute, not half an hour on.
  const end = new Date("2026-12-01T18:30:00Z");
  assert.equal(dayOf(end, "Asia/Kolkata"), "2026-12-02");
  assert.equal(end.getUTCMinutes(), dayStartMinute("Asia/Kolkata", at));
});
