import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRawJsonObject, RawJsonError, type RawJsonErrorCode } from '../../../src/contract/webhook-signature/index.js';

function paths(text: string): string[] {
  return parseRawJsonObject(text).map((entry) => entry.path);
}

function assertRefused(text: string, code: RawJsonErrorCode, options?: Parameters<typeof parseRawJsonObject>[1]) {
  assert.throws(
    () => parseRawJsonObject(text, options),
    (error: unknown) => error instanceof RawJsonError && error.code === code,
    `expected ${code} for ${text.slice(0, 60)}`,
  );
}

describe('parseRawJsonObject: order and spelling as written (§6.3.2, §6.3.5)', () => {
  it('keeps keys in text order, integer-like keys included (JSON.parse would move "1" first)', () => {
    const text = '{"b":"x","1":"y","a":"z"}';
    assert.deepEqual(paths(text), ['b', '1', 'a']);
    assert.deepEqual(Object.keys(JSON.parse(text)), ['1', 'b', 'a']);
  });

  it('keeps the exact text of numbers', () => {
    const entries = parseRawJsonObject('{"a":5000.0,"b":5000,"c":-0.5e+3,"d":1E2,"e":0}');
    assert.deepEqual(
      entries.map((entry) => [entry.raw, entry.value]),
      [['5000.0', 5000], ['5000', 5000], ['-0.5e+3', -500], ['1E2', 100], ['0', 0]],
    );
    assert.ok(entries.every((entry) => entry.kind === 'number'));
  });

  it('reads booleans and null with their literal text', () => {
    assert.deepEqual(
      parseRawJsonObject('{"t":true,"f":false,"n":null}').map((entry) => [entry.kind, entry.raw, entry.value]),
      [['boolean', 'true', true], ['boolean', 'false', false], ['null', 'null', null]],
    );
  });

  it('flattens a nested object to dotted paths, in place', () => {
    const entries = parseRawJsonObject('{"a":1,"nextAction":{"authorizationUrl":"https://x.example/p","b":2},"z":3}');
    assert.deepEqual(
      entries.map((entry) => [entry.path, entry.key]),
      [['a', 'a'], ['nextAction.authorizationUrl', 'authorizationUrl'], ['nextAction.b', 'b'], ['z', 'z']],
    );
  });

  it('decodes string escapes, \\u escapes and surrogate pairs; keeps literal unicode', () => {
    const [escaped, literal] = parseRawJsonObject(
      '{"e":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00","l":"é😀 \u00e9"}',
    );
    assert.equal(escaped?.value, '"\\/\b\f\n\r\té😀');
    assert.equal(escaped?.raw, escaped?.value);
    assert.equal(literal?.value, 'é😀 é');
  });

  it('decodes escaped keys too', () => {
    assert.deepEqual(paths('{"\\u0061b":1}'), ['ab']);
  });

  it('allows JSON whitespace everywhere between tokens', () => {
    assert.deepEqual(paths(' \n\t{ "a" : 1 ,\r\n "b" : { "c" : null } } \n'), ['a', 'b.c']);
  });

  it('returns no entry for an empty object', () => {
    assert.deepEqual(parseRawJsonObject('{}'), []);
  });

  it('agrees with JSON.parse on every decoded value', () => {
    const text = '{"s":"a\\u0000b\\tc","n":-12.5e-3,"t":true,"o":{"x":"\\ud834\\udd1e"}}';
    const parsed = JSON.parse(text) as Record<string, unknown> & { o: { x: string } };
    const values = parseRawJsonObject(text).map((entry) => entry.value);
    assert.deepEqual(values, [parsed['s'], parsed['n'], parsed['t'], parsed.o.x]);
  });
});

describe('parseRawJsonObject: refusals', () => {
  it('refuses what is not exactly one JSON object', () => {
    for (const text of ['', '   ', '[]', '[{"a":1}]', '"a"', '1', 'null', '{"a":1} x', '{"a":1}{"b":2}', 'x{"a":1}', '\ufeff{"a":1}']) {
      assertRefused(text, 'NOT_JSON_OBJECT');
    }
  });

  it('refuses invalid JSON', () => {
    for (const text of [
      '{', '{"a"}', '{"a":}', '{"a":1,}', '{,"a":1}', '{a:1}', "{'a':1}", '{"a":01}', '{"a":1.}', '{"a":.5}',
      '{"a":+1}', '{"a":1e}', '{"a":tru}', '{"a":"x}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"tab\there"}',
      '{"a":NaN}', '{"a":1 "b":2}',
    ]) {
      assertRefused(text, 'INVALID_JSON');
    }
  });

  it('refuses unpaired surrogates, escaped or literal (they would hash like U+FFFD)', () => {
    for (const text of ['{"a":"\\ud800"}', '{"a":"\\udc00x"}', '{"a":"\\ud83d\\u0041"}', '{"a":"\ud800"}', '{"\\ud800":1}']) {
      assertRefused(text, 'INVALID_JSON');
    }
    assert.equal(parseRawJsonObject('{"a":"\\ud83d\ude00"}')[0]?.value, '😀');
  });

  it('refuses a duplicate key, at the top level and nested', () => {
    assertRefused('{"a":1,"a":1}', 'DUPLICATE_KEY');
    assertRefused('{"n":{"a":1,"a":2}}', 'DUPLICATE_KEY');
    assertRefused('{"a":"x","\\u0061":"y"}', 'DUPLICATE_KEY');
  });

  it('accepts the same key name in different objects', () => {
    assert.deepEqual(paths('{"a":1,"n":{"a":2}}'), ['a', 'n.a']);
  });

  it('refuses __proto__, constructor and prototype keys at any level', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      assertRefused(`{"${key}":1}`, 'FORBIDDEN_KEY');
      assertRefused(`{"n":{"${key}":{}}}`, 'FORBIDDEN_KEY');
    }
  });

  it('refuses a key containing a dot', () => {
    assertRefused('{"nextAction.authorizationUrl":"x"}', 'DOTTED_KEY');
    assertRefused('{"n":{"a.b":1}}', 'DOTTED_KEY');
  });

  it('refuses arrays anywhere', () => {
    assertRefused('{"a":[]}', 'ARRAY_NOT_ALLOWED');
    assertRefused('{"n":{"a":[1,2]}}', 'ARRAY_NOT_ALLOWED');
  });

  it('refuses nesting deeper than maxDepth (default 2)', () => {
    assert.deepEqual(paths('{"a":{"b":1}}'), ['a.b']);
    assertRefused('{"a":{"b":{"c":1}}}', 'TOO_DEEP');
    assertRefused('{"a":{"b":1}}', 'TOO_DEEP', { maxDepth: 1 });
    assert.deepEqual(parseRawJsonObject('{"a":{"b":{"c":1}}}', { maxDepth: 3 }).map((e) => e.path), ['a.b.c']);
  });

  it('refuses text over maxBytes counted in UTF-8 bytes, and accepts it at the limit', () => {
    const atLimit = `{"a":"${'x'.repeat(65_536 - 8)}"}`;
    assert.equal(Buffer.byteLength(atLimit), 65_536);
    assert.equal(parseRawJsonObject(atLimit).length, 1);
    assertRefused(`{"a":"${'x'.repeat(65_536 - 7)}"}`, 'TOO_LARGE');
    // 'é' is 2 bytes: 11 characters of text, 14 bytes.
    const accented = '{"a":"ééé"}';
    assert.equal(parseRawJsonObject(accented, { maxBytes: 14 }).length, 1);
    assertRefused(accented, 'TOO_LARGE', { maxBytes: 13 });
    // A surrogate pair is 4 bytes.
    assertRefused('{"a":"😀"}', 'TOO_LARGE', { maxBytes: 11 });
    assert.equal(parseRawJsonObject('{"a":"😀"}', { maxBytes: 12 }).length, 1);
  });

  it('never puts more than a short piece of a key into the message', () => {
    const longKey = 'k'.repeat(1000);
    assert.throws(
      () => parseRawJsonObject(`{"${longKey}":1,"${longKey}":2}`),
      (error: unknown) => error instanceof RawJsonError && error.message.length < 200,
    );
  });
});
