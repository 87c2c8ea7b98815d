/** The server secret check gives the same answers through node:crypto and through Web Crypto (other runtimes). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError } from '../../../src/server/index.js';
import { createServerSecretCheck } from '../../../src/server/server-api/server-secret.js';

const secret = 'a-server-secret-of-more-than-32-characters';

async function answers(check: (presented: string) => Promise<boolean>): Promise<boolean[]> {
  return Promise.all([secret, `${secret}x`, secret.slice(0, -1), '', 'x'.repeat(10_000), secret.toUpperCase()].map(check));
}

describe('server secret check', () => {
  it('accepts exactly the secret, on Node and on a runtime without node:crypto', async () => {
    const expected = [true, false, false, false, false, false];
    assert.deepEqual(await answers(createServerSecretCheck(secret)), expected, 'node:crypto path');
    const original = process.getBuiltinModule;
    // What Deno, Bun or an edge runtime looks like to the module: no getBuiltinModule.
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      assert.deepEqual(await answers(createServerSecretCheck(secret)), expected, 'Web Crypto path');
    } finally {
      (process as { getBuiltinModule?: unknown }).getBuiltinModule = original;
    }
  });

  it('refuses a secret shorter than 32 characters, saying how to make one', () => {
    assert.throws(() => createServerSecretCheck('short'), (error: unknown) => error instanceof CompanionConfigError && /openssl rand -hex 32/.test(error.message));
  });
});
