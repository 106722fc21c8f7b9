/** Turning the analytics answers into chart series. */
const dayFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** "2026-11-21" as "Nov 21": the report's days are calendar dates, so read them in UTC. */
export function dayLabel(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}
