import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  hmacSha512Hex,
  nodeHmacSha512Hex,
  timingSafeEqualText,
  webCryptoHmacSha512Hex,
} from '../../../src/contract/webhook-signature/hmac.js';
import { oracleSignature } from './helpers.js';

describe('HMAC-SHA512 (§6.3.4)', () => {
  const cases: Array<[string, string]> = [
    ['whsec_a', 'phoneNumber+22990000001amount5000'],
    ['whsec_é😀', 'orderIdcafé-😀'],
    ['k', ''],
  ];

  it('the Web Crypto path (used outside Node) matches node:crypto as an oracle', async () => {
    for (const [secret, message] of cases) {
      assert.equal(await webCryptoHmacSha512Hex(secret, message), oracleSignature(message, secret));
      // Second call uses the cached CryptoKey.
      assert.equal(await webCryptoHmacSha512Hex(secret, message), oracleSignature(message, secret));
    }
  });

  it('the Node fast path is present on Node and agrees with the Web Crypto path', async () => {
    assert.ok(nodeHmacSha512Hex);
    for (const [secret, message] of cases) {
      assert.equal(nodeHmacSha512Hex(secret, message), await webCryptoHmacSha512Hex(secret, message));
      assert.equal(await hmacSha512Hex(secret, message), oracleSignature(message, secret));
    }
  });

  it('compares lengths first, then every character', () => {
    assert.equal(timingSafeEqualText('abc', 'abc'), true);
    assert.equal(timingSafeEqualText('abc', 'abd'), false);
    assert.equal(timingSafeEqualText('abc', 'ab'), false);
    assert.equal(timingSafeEqualText('', ''), true);
  });
});
