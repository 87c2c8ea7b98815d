/**
 * The window an export covers, from the `from` and `to` a merchant sends (the server API's query,
 * the console's form, the CLI's flags): UTC ISO 8601 times or dates, `from` included, `to` excluded.
 * Without `from`, the current calendar month (UTC) from its first day; without `to`, now. A bad
 * value is refused with the sentence that says what to send.
 */
import { parseIsoInstant } from '../model/iso-time.js';

export interface ExportWindow {
  /** Epoch ms, included. */
  from: number;
  /** Epoch ms, excluded. */
  to: number;
}

/** A window the merchant must send again differently; the message says how. */
export class ExportWindowError extends Error {
  override name = 'ExportWindowError';
}

// A date (midnight UTC), or a time with its zone (Z or an offset): a time without one is ambiguous.
// A day the calendar does not have is refused, never moved (2026-02-30 is not 2 March).
function parseTime(name: 'from' | 'to', text: string): number {
  const value = text.trim();
  const at = parseIsoInstant(value, { dateAlone: true });
  if (!Number.isFinite(at)) {
    const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
    const notInCalendar = day !== undefined && Number.isNaN(parseIsoInstant(day, { dateAlone: true })) ? `${day} is not a day of the calendar: ` : '';
    throw new ExportWindowError(
      `${notInCalendar}${name} must be a UTC time in ISO 8601, e.g. ${name}=2026-11-01T00:00:00Z, or a date, ${name}=2026-11-01 (midnight UTC); got ${JSON.stringify(text)}.`,
    );
  }
  return at;
}

/** The first instant (UTC) of the calendar month of `now`. */
export function monthStart(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The window `from`/`to` name (either may be absent), checked. */
export function exportWindow(query: { from?: string | undefined; to?: string | undefined }, now: number): ExportWindow {
  const from = query.from ? parseTime('from', query.from) : monthStart(now);
  const to = query.to ? parseTime('to', query.to) : now + 1;
  if (from >= to) {
    throw new ExportWindowError(
      `from (${new Date(from).toISOString()}) must be before to (${new Date(to).toISOString()}): the window is [from, to), e.g. from=2026-11-01&to=2026-12-01 for November.`,
    );
  }
  return { from, to };
}
