/** A guest's end is a calendar day in Kyiv: they stay until that day is over there, whatever the season. */

const dayMs = 24 * 60 * 60 * 1000;
const kyivDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Kyiv" });
const kyivOffset = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Kyiv", timeZoneName: "longOffset" });

/** YYYY-MM-DD of the moment in Kyiv. */
export function kyivDayOf(moment: Date): string {
  return kyivDay.format(moment);
}

/** Whether the text is a day of the calendar (2026-02-30 is not). */
export function isCalendarDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

function offsetMinutes(moment: Date): number {
  const name = kyivOffset.formatToParts(moment).find((part) => part.type === "timeZoneName")?.value ?? "GMT+02:00";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The first moment after the day is over in Kyiv: when a guest whose last day it is stops. */
export function endOfKyivDay(day: string): Date {
  const nextMidnightUtc = Date.parse(`${day}T00:00:00Z`) + dayMs;
  return new Date(nextMidnightUtc - offsetMinutes(new Date(nextMidnightUtc)) * 60 * 1000);
}

/** The furthest last day a sponsor may give today: `maxDays` after today in Kyiv. */
export function latestEndDay(now: Date, maxDays: number): string {
  const today = Date.parse(`${kyivDayOf(now)}T00:00:00Z`);
  return new Date(today + maxDays * dayMs).toISOString().slice(0, 10);
}
