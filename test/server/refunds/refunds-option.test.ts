/** Refunds move money out: off unless the environment says `MOMO_REFUNDS=on` in so many words. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError, companionOptionsFromEnv } from '../../../src/server/index.js';

const env = {
  MOMO_BASE_URL: 'https://api.example.com',
  MOMO_API_KEY: 'sk_live_x',
  MOMO_WEBHOOK_SECRETS: 'whsec_x',
  MOMO_PUBLIC_URL: 'https://shop.example/momo',
};

describe('MOMO_REFUNDS', () => {
  it('turns refunds on with "on" only; absent or "off" leaves them off', () => {
    assert.equal(companionOptionsFromEnv({ ...env, MOMO_REFUNDS: 'on' }).refunds, true);
    assert.equal(companionOptionsFromEnv({ ...env, MOMO_REFUNDS: 'ON ' }).refunds, true);
    assert.equal(companionOptionsFromEnv({ ...env, MOMO_REFUNDS: 'off' }).refunds, undefined);
    assert.equal(companionOptionsFromEnv(env).refunds, undefined);
  });

  it('refuses any other value, saying what to write', () => {
    assert.throws(
      () => companionOptionsFromEnv({ ...env, MOMO_REFUNDS: 'yes' }),
      (error: unknown) => error instanceof CompanionConfigError && error.problems.some((problem) => problem.variable === 'MOMO_REFUNDS' && /set it to on/.test(problem.message)),
    );
  });
});
