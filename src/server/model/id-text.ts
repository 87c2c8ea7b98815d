/**
 * Ids that come from outside (a path's order id, a payment link's return id) are refused before any
 * store sees them when they hold characters no id the companion made or accepted can hold: control
 * characters (NUL first of all) and lone UTF-16 surrogates (issue 40, finding 9). PostgreSQL refuses
 * NUL in text outright and no encoding carries a lone surrogate, so the engine's error was taken for
 * an outage (503 STORE_UNAVAILABLE); every store answers the same sentence instead, in a 400.
 *
 * Only these characters: order ids are checked at creation (`[\w.:-]{1,100}`, payments/checkouts.ts)
 * but an older record may hold another printable one, and a lookup by it must keep working.
 */

// \p{Cc}: C0 and C1 controls, DEL; \p{Cs} in a `u` regex: a surrogate not part of a pair.
const unusable = /[\p{Cc}\p{Cs}]/u;

/** True when `text` holds a control character or a lone surrogate. */
export function hasUnusableCharacters(text: string): boolean {
  return unusable.test(text);
}

/** Why such an id is refused and what to send, after its name (`order id`): "The order id " + this. */
export function unusableIdReason(what: string): string {
  return `holds a control character (such as NUL) or a broken Unicode character, which no ${what} can hold: send it as it was created (letters, digits, "-", "_", "." or ":"), percent-encoded once`;
}
