/**
 * Which store engine the environment chooses: one rule (`storeEngineFromEnv`), which the companion
 * opens by and the doctor's store check reads, so `doctor` never checks another store than `serve`
 * would open. An unclear choice is a sentence saying what to set.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError } from '../../../src/server/config-error.js';
import { storeCheck } from '../../../src/server/commands/store-check.js';
import { storeEngineFromEnv } from '../../../src/server/stores/store-from-env.js';

const postgres = 'postgres://shop@127.0.0.1:1/shop';
const redis = 'redis://127.0.0.1:1';

describe('storeEngineFromEnv', () => {
  it('chooses by MOMO_STORE first, then by the URL that is set, else the file store', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'file'],
      [{ MOMO_STORE: 'memory' }, 'memory'],
      [{ MOMO_STORE: ' Memory ', MOMO_POSTGRES_URL: postgres }, 'memory'],
      [{ MOMO_POSTGRES_URL: postgres }, 'postgres'],
      [{ MOMO_REDIS_URL: redis }, 'redis'],
      [{ MOMO_STORE: 'postgres', MOMO_POSTGRES_URL: postgres, MOMO_REDIS_URL: redis }, 'postgres'],
      [{ MOMO_STORE: 'redis', MOMO_POSTGRES_URL: postgres, MOMO_REDIS_URL: redis }, 'redis'],
      [{ MOMO_STORE: 'file', MOMO_POSTGRES_URL: postgres }, 'file'],
      [{ MOMO_POSTGRES_URL: '  ' }, 'file'],
    ];
    for (const [env, engine] of cases) assert.equal(storeEngineFromEnv(env), engine, JSON.stringify(env));
  });

  it('refuses an unknown MOMO_STORE, and two shared stores with nothing saying which, with what to set', () => {
    assert.throws(() => storeEngineFromEnv({ MOMO_STORE: 'mysql' }), (error: unknown) => error instanceof CompanionConfigError && /MOMO_STORE=mysql is not a store/.test(error.message));
    assert.throws(
      () => storeEngineFromEnv({ MOMO_POSTGRES_URL: postgres, MOMO_REDIS_URL: redis }),
      (error: unknown) => error instanceof CompanionConfigError && /MOMO_STORE=postgres or MOMO_STORE=redis/.test(error.message),
    );
  });
});

describe("the doctor's store check follows the same rule", () => {
  it('says what to set when the choice is unclear, without opening anything', async () => {
    const check = await storeCheck({ MOMO_POSTGRES_URL: postgres, MOMO_REDIS_URL: redis });
    assert.equal(check.status, 'error');
    assert.match(check.message, /Both MOMO_POSTGRES_URL and MOMO_REDIS_URL are set/);
  });

  it('checks PostgreSQL on its own terms when MOMO_STORE=postgres chooses it over a Redis URL', async () => {
    // Nothing listens on port 1: the Postgres check's own failure, not Redis's, is what is said.
    const check = await storeCheck({ MOMO_STORE: 'postgres', MOMO_POSTGRES_URL: postgres, MOMO_REDIS_URL: redis});
    assert.equal(check.status, 'error');
    assert.match(check.message, /^Cannot use PostgreSQL at 127\.0\.0\.1:1\/shop/);
  });
});
