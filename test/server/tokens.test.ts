/** The token hash is the same through node:crypto and through Web Crypto (other runtimes): stored hashes stay valid either way. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomId, sha256Base64url, webCryptoSha256Base64url } from '../../src/server/tokens.js';

describe('token hash', () => {
  it('gives the same base64url SHA-256 on both paths', async () => {
    for (const text of ['', 'a', randomId(), 'é€😀', 'x'.repeat(5_000)]) {
      assert.equal(await sha256Base64url(text), await webCryptoSha256Base64url(text));
    }
    assert.equal(await sha256Base64url('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});
