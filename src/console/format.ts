/** How the console writes amounts and times: the browser's Intl in the console's language. */
export { formatAmount as amountText } from '../contract/money.js';

export function timeText(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}

export function hourText(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/**
 * Text from the store (order ids, the service's statuses, a merchant endpoint's error) with its
 * bidirectional controls shown, not obeyed: U+202E and its kin would make the text that follows
 * read backwards (an order id "abc" that shows as "cba", a status that hides its end), so each is
 * replaced by its visible code point, `[U+202E]`.
 */
export function plainText(text: string): string {
  return text.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, (control) => `[U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
