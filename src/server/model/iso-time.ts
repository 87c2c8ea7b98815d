/**
 * An ISO 8601 date or time as a merchant writes it (an export's window, a payment link's expiry),
 * read only when it names a day of the calendar. `Date.parse` moves an impossible date instead of
 * refusing it: `2026-02-30` is 2 March, so a monthly script's February file would take 1-2 March,
 * and a link meant to expire on 30 February would live two days longer than asked.
 */

// A date, or a date and a time with its zone (Z or an offset): a time without one is ambiguous.
const isoTime = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * Epoch ms of `text` (a date alone is midnight UTC when `dateAlone` allows it), or NaN when it is
 * not one of these forms or names no real instant: a month above 12, a day its month does not
 * have (`2026-02-30`, `2027-02-29`), an hour above 23, a minute or a second above 59.
 */
export function parseIsoInstant(text: string, options: { dateAlone: boolean }): number {
  const match = isoTime.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second, zone, zoneHours, zoneMinutes] = match;
  if (hour === undefined && !options.dateAlone) return Number.NaN;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  // Day 0 of the next month is the last day of this one (setUTCFullYear: Date.UTC reads 0-99 as 19xx).
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(y, m, 0);
  if (m < 1 || m > 12 || d < 1 || d > lastDay.getUTCDate()) return Number.NaN;
  if (Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) return Number.NaN;
  if (zone !== undefined && zone !== 'Z' && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) return Number.NaN;
  return Date.parse(hour === undefined ? `${text}T00:00:00Z` : text);
}
