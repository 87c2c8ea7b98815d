/**
 * The reader behind `parseRawJsonObject` (raw-json.ts): walks one JSON object's text from left to
 * right, keeping each leaf's key path and its text exactly as written, and refusing what a webhook
 * body never holds (arrays, deep nesting, duplicate or prototype-reaching keys). Hand-written for
 * the reasons raw-json.ts gives.
 */
import { RawJsonError } from './errors.js';

export type RawEntryKind = 'string' | 'number' | 'boolean' | 'null';

export interface RawEntry {
  /** Dotted path from the top object, e.g. `nextAction.authorizationUrl`. */
  path: string;
  /** The entry's own (decoded) key, e.g. `authorizationUrl`. */
  key: string;
  kind: RawEntryKind;
  /** Exact text of a number/true/false/null; the decoded text for a string. */
  raw: string;
  value: string | number | boolean | null;
}

/** Keys that could reach an object's prototype once the entries become an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// Character codes, named so the scanner reads as the JSON grammar.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

export class Reader {
  position = 0;
  readonly entries: RawEntry[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  peek(): number {
    return this.text.charCodeAt(this.position);
  }

  skipWhitespace(): void {
    const text = this.text;
    let i = this.position;
    for (;;) {
      const code = text.charCodeAt(i);
      // JSON whitespace only: space, tab, LF, CR.
      if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) i++;
      else break;
    }
    this.position = i;
  }

  describeHere(): string {
    if (this.atEnd()) return 'the end of the text';
    return `${JSON.stringify(this.text.charAt(this.position))} at offset ${this.position}`;
  }

  invalid(expected: string): never {
    throw new RawJsonError('INVALID_JSON', `invalid JSON: expected ${expected}, found ${this.describeHere()}`);
  }

  expect(code: number, what: string): void {
    if (this.text.charCodeAt(this.position) !== code) this.invalid(what);
    this.position++;
  }

  /** Reads `{...}` at the current position (known to be `{`); `prefix` is the parent path + '.'. */
  readObject(prefix: string, depth: number): void {
    if (depth > this.maxDepth) {
      throw new RawJsonError(
        'TOO_DEEP',
        `objects are nested deeper than ${this.maxDepth} levels at ${quote(prefix.slice(0, -1))}; a webhook body has only nextAction inside it`,
      );
    }
    this.position++; // '{'
    this.skipWhitespace();
    if (this.peek() === CLOSE_BRACE) {
      this.position++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      if (this.peek() !== QUOTE) this.invalid('a key in double quotes');
      const key = this.readString();
      const path = prefix + key;
      checkKey(key, path, seen);
      this.skipWhitespace();
      this.expect(COLON, '":" after a key');
      this.skipWhitespace();
      this.readValue(key, path, depth);
      this.skipWhitespace();
      const next = this.peek();
      this.position++;
      if (next === COMMA) {
        this.skipWhitespace();
        continue;
      }
      if (next === CLOSE_BRACE) return;
      this.position--;
      this.invalid('"," or "}"');
    }
  }

  readValue(key: string, path: string, depth: number): void {
    const code = this.peek();
    if (code === QUOTE) {
      const value = this.readString();
      this.entries.push({ path, key, kind: 'string', raw: value, value });
    } else if (code === OPEN_BRACE) {
      this.readObject(path + '.', depth + 1);
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      const raw = this.readNumber();
      this.entries.push({ path, key, kind: 'number', raw, value: Number(raw) });
    } else if (this.text.startsWith('true', this.position)) {
      this.position += 4;
      this.entries.push({ path, key, kind: 'boolean', raw: 'true', value: true });
    } else if (this.text.startsWith('false', this.position)) {
      this.position += 5;
      this.entries.push({ path, key, kind: 'boolean', raw: 'false', value: false });
    } else if (this.text.startsWith('null', this.position)) {
      this.position += 4;
      this.entries.push({ path, key, kind: 'null', raw: 'null', value: null });
    } else if (code === OPEN_BRACKET) {
      throw new RawJsonError(
        'ARRAY_NOT_ALLOWED',
        `${quote(path)} holds an array; a webhook body has none, so this is not a notification of the service`,
      );
    } else {
      this.invalid('a value');
    }
  }

  /** JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? ; returns its exact text. */
  readNumber(): string {
    const text = this.text;
    const start = this.position;
    let i = start;
    if (text.charCodeAt(i) === MINUS) i++;
    const first = text.charCodeAt(i);
    if (first === DIGIT_0) i++;
    else if (first > DIGIT_0 && first <= DIGIT_9) i = skipDigits(text, i + 1);
    else return this.at(i).invalid('a digit');
    if (text.charCodeAt(i) === DOT) {
      const afterDot = skipDigits(text, i + 1);
      if (afterDot === i + 1) return this.at(i + 1).invalid('a digit after "."');
      i = afterDot;
    }
    const e = text.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      const afterExponent = skipDigits(text, i);
      if (afterExponent === i) return this.at(i).invalid('a digit in the exponent');
      i = afterExponent;
    }
    this.position = i;
    return text.slice(start, i);
  }

  private at(position: number): this {
    this.position = position;
    return this;
  }

  /** Reads a string at the current position (known to be `"`) and returns its decoded text. */
  readString(): string {
    const text = this.text;
    const start = this.position + 1;
    // Fast path: most webhook strings hold no escape, so the decoded text is a slice.
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        this.position = i + 1;
        return text.slice(start, i);
      }
      // Escapes and surrogates (to check their pairing) take the slow path.
      if (code === BACKSLASH || (code >= 0xd800 && code <= 0xdfff)) return this.readEscapedString(start, i);
      if (code < 0x20) return this.at(i).invalid('no raw control character inside a string');
    }
    return this.at(text.length).invalid('a closing \'"\'');
  }

  private readEscapedString(start: number, firstEscape: number): string {
    const text = this.text;
    let decoded = text.slice(start, firstEscape);
    let i = firstEscape;
    let chunkStart = i;
    for (;;) {
      if (i >= text.length) return this.at(i).invalid('a closing \'"\'');
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        decoded += text.slice(chunkStart, i);
        // A lone surrogate has no UTF-8 form: it would be hashed as U+FFFD, so two different
        // strings ("\ud800" and "\ufffd") would share one signature. No real body holds one.
        if (!isWellFormed(decoded)) return this.at(start).invalid('a string without unpaired surrogates');
        this.position = i + 1;
        return decoded;
      }
      if (code < 0x20) return this.at(i).invalid('no raw control character inside a string');
      if (code !== BACKSLASH) {
        i++;
        continue;
      }
      decoded += text.slice(chunkStart, i);
      const escape = text.charAt(i + 1);
      switch (escape) {
        case '"': decoded += '"'; break;
        case '\\': decoded += '\\'; break;
        case '/': decoded += '/'; break;
        case 'b': decoded += '\b'; break;
        case 'f': decoded += '\f'; break;
        case 'n': decoded += '\n'; break;
        case 'r': decoded += '\r'; break;
        case 't': decoded += '\t'; break;
        case 'u': {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.at(i).invalid('four hex digits after "\\u"');
          // Each \uXXXX is one UTF-16 unit; a pair \uD83D\uDE00 joins into one character by itself.
          decoded += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          chunkStart = i;
          continue;
        }
        default:
          return this.at(i).invalid('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      }
      i += 2;
      chunkStart = i;
    }
  }
}

/** String.prototype.isWellFormed (ES2024), written out for the ES2023 library this project targets. */
function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code >= 0xdc00) return false;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

function skipDigits(text: string, from: number): number {
  let i = from;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code >= DIGIT_0 && code <= DIGIT_9) i++;
    else return i;
  }
}

function checkKey(key: string, path: string, seen: Set<string>): void {
  if (seen.has(key)) {
    throw new RawJsonError(
      'DUPLICATE_KEY',
      `the key ${quote(path)} appears twice; the signed string and the parsed body could disagree, so the body is refused`,
    );
  }
  seen.add(key);
  if (FORBIDDEN_KEYS.has(key)) {
    throw new RawJsonError('FORBIDDEN_KEY', `the key ${quote(path)} is refused: it could reach an object prototype`);
  }
  if (key.includes('.')) {
    throw new RawJsonError(
      'DOTTED_KEY',
      `the key ${quote(path)} contains a dot; the signed string joins nested keys with dots, so it would be ambiguous`,
    );
  }
}

/** A key for an error message: quoted, and cut short so a message never carries a large body. */
function quote(path: string): string {
  return JSON.stringify(path.length > 64 ? `${path.slice(0, 64)}...` : path);
}
