/**
 * Issue 34: `MOMO_HEARTBEAT_MS`, the status stream's heartbeat for a proxy that cuts idle
 * connections sooner than the default 15 s allows (docs/deploy.md, section 6).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError, companionOptionsFromEnv } from '../../src/server/index.js';

const local = {
  MOMO_BASE_URL: 'http://127.0.0.1:4010',
  MOMO_API_KEY: 'sk_test_sandbox',
  MOMO_WEBHOOK_SECRETS: 'whsec_sandbox',
  MOMO_PUBLIC_URL: 'http://127.0.0.1:3000/momo',
  MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
};

describe('MOMO_HEARTBEAT_MS', () => {
  it('sets heartbeatMs; unset, the companion keeps its default', () => {
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_HEARTBEAT_MS: '1000' }).heartbeatMs, 1000);
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_HEARTBEAT_MS: ' 50000 ' }).heartbeatMs, 50000);
    assert.equal('heartbeatMs' in companionOptionsFromEnv(local), false);
  });

  for (const text of ['999', '50001', '15s', '-1', '1e4', '0']) {
    it(`refuses ${JSON.stringify(text)}, saying what to write`, () => {
      assert.throws(
        () => companionOptionsFromEnv({ ...local, MOMO_HEARTBEAT_MS: text }),
        (error: unknown) =>
          error instanceof CompanionConfigError &&
          error.problems?.map((problem) => problem.variable).join() === 'MOMO_HEARTBEAT_MS' &&
          /milliseconds from 1000 to 50000/.test(error.message),
      );
    });
  }
});
