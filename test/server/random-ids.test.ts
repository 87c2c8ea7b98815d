/**
 * Random ids (tokens, session ids, a delivery lease's owner) come from the CSPRNG 4 KiB at a time,
 * not one native call per id (issue 43's profile), with the same URL-safe alphabet and lengths.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { base64url, randomId } from '../../src/server/tokens.js';

describe('random ids', () => {
  it('asks the CSPRNG for 4 KiB at a time, not once per id', () => {
    const calls = mock.method(globalThis.crypto, 'getRandomValues');
    try {
      for (let i = 0; i < 1_000; i++) randomId(12);
    } finally {
      calls.mock.restore();
    }
    // 12,000 bytes: three refills of the pool, four when it was nearly used up before.
    assert.ok(calls.mock.callCount() <= 4, `${calls.mock.callCount()} calls for 1,000 ids`);
  });

  it('keeps the lengths and the URL-safe alphabet, and never repeats an id', () => {
    const seen = new Set<string>();
    const characters = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = randomId(12);
      assert.match(id, /^[A-Za-z0-9_-]{16}$/);
      seen.add(id);
      for (const character of id) characters.add(character);
    }
    assert.equal(seen.size, 20_000);
    assert.equal(characters.size, 64, 'every one of the 64 characters comes up');
    assert.match(randomId(), /^[A-Za-z0-9_-]{43}$/);
    assert.match(randomId(5_000), /^[A-Za-z0-9_-]{6667}$/, 'more than the pool holds is drawn at once');
  });

  it('encodes bytes as Node encodes base64url, at every length', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      assert.equal(base64url(bytes), Buffer.from(bytes).toString('base64url'));
    }
    assert.equal(base64url(new Uint8Array([0xfb, 0xff, 0xbf])), '-_-_');
  });
});
