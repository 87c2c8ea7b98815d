/** How the console writes amounts and times: the browser's Intl in the console's language. */
export { formatAmount as amountText } from '../contract/money.js';

export function timeText(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}

export function hourText(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}
