/**
 * Values inside a right-to-left sentence (Arabic): an amount, a masked phone number, a host name.
 * Unicode isolates keep their digits, `+` and Latin letters from reordering the words around them
 * (the plain-text form of `<bdi>`). Left-to-right sentences are returned as they are: there, these
 * values cannot reorder anything, and the texts stay byte for byte what they were.
 */
import type { Strings } from '../localize/en.js';

const firstStrongIsolate = '\u2068';
const leftToRightIsolate = '\u2066';
const popIsolate = '\u2069';

/** An amount, in the sentence's language: its own digits decide its direction. */
export function isolated(t: Strings, text: string): string {
  return t.dir === 'rtl' ? `${firstStrongIsolate}${text}${popIsolate}` : text;
}

/** A phone number or a host: always read left to right, whatever the sentence around it. */
export function leftToRight(t: Strings, text: string): string {
  return t.dir === 'rtl' ? `${leftToRightIsolate}${text}${popIsolate}` : text;
}
