/**
 * A small JSON reader for webhook bodies, hand-written on purpose: `JSON.parse` cannot give what
 * §6.3 signs.
 * - §6.3.2: keys are walked in the order they stand in the body. `JSON.parse` builds an object
 *   whose integer-like keys (`"1"`, `"42"`) are enumerated first, in numeric order, whatever the text.
 * - §6.3.5: numbers enter the signed string exactly as written (`5000.0`, `1e3`). `JSON.parse`
 *   turns them into doubles and the spelling is lost.
 * - It also refuses what `JSON.parse` silently accepts: a duplicate key (last wins, so the signed
 *   string and the parsed object could disagree) and `__proto__`-like keys.
 *
 * It reads exactly one JSON object and returns its leaf entries in text order, nested objects
 * flattened to dotted paths (`nextAction.authorizationUrl`). Arrays are refused: the body has none.
 */
import { RawJsonError } from './errors.js';
import { OPEN_BRACE, Reader } from './raw-json-reader.js';

export type { RawEntry, RawEntryKind } from './raw-json-reader.js';
import type { RawEntry } from './raw-json-reader.js';

export interface RawJsonOptions {
  /** Deepest object nesting allowed; the top object is depth 1. Default 2 (top level + nextAction). */
  maxDepth?: number;
  /** Largest body accepted, in UTF-8 bytes. Default 65536. */
  maxBytes?: number;
}

export const DEFAULT_MAX_DEPTH = 2;
export const DEFAULT_MAX_BYTES = 65_536;


/**
 * Reads one JSON object and returns its leaf entries in the order they stand in the text.
 *
 * @example
 * parseRawJsonObject('{"b":1,"1":5000.0,"n":{"u":"x"}}')
 * // [{ path: 'b', raw: '1', ... }, { path: '1', raw: '5000.0', ... }, { path: 'n.u', raw: 'x', ... }]
 */
export function parseRawJsonObject(text: string, options: RawJsonOptions = {}): RawEntry[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  checkSize(text, maxBytes);
  const reader = new Reader(text, maxDepth);
  reader.skipWhitespace();
  if (reader.peek() !== OPEN_BRACE) {
    throw new RawJsonError(
      'NOT_JSON_OBJECT',
      `the text must be one JSON object starting with "{" (found ${reader.describeHere()})`,
    );
  }
  reader.readObject('', 1);
  reader.skipWhitespace();
  if (!reader.atEnd()) {
    throw new RawJsonError(
      'NOT_JSON_OBJECT',
      `the text must hold exactly one JSON object, but more text follows it at offset ${reader.position}`,
    );
  }
  return reader.entries;
}

/** UTF-8 byte length, computed only when the UTF-16 length leaves a doubt. */
function checkSize(text: string, maxBytes: number): void {
  // Each UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units).
  if (text.length * 3 <= maxBytes) return;
  const bytes = text.length > maxBytes ? text.length : utf8Length(text);
  if (bytes > maxBytes) {
    throw new RawJsonError(
      'TOO_LARGE',
      `the body is over ${maxBytes} bytes; a webhook body is a few hundred bytes, refuse it or raise maxBytes`,
    );
  }
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

