/** The doctor fails where the store would lose payments, and says what to set. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { storeCheck } from '../../../src/server/commands/store-check.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'momo-doctor-'));

describe("the doctor's store check", () => {
  it('passes for the file store on a lasting disk', async () => {
    const check = await storeCheck({ MOMO_DATA_DIR: dataDir() });
    assert.equal(check.status, 'ok');
    assert.match(check.message, /momo-checkout\.sqlite/);
  });

  it('fails a memory store in production', async () => {
    const check = await storeCheck({ MOMO_STORE: 'memory', NODE_ENV: 'production' });
    assert.equal(check.status, 'error');
    assert.match(check.message, /MOMO_REDIS_URL/);
  });

  it('fails a file store where the disk does not last (serverless)', async () => {
    for (const variable of ['VERCEL', 'AWS_LAMBDA_FUNCTION_NAME']) {
      const check = await storeCheck({ MOMO_DATA_DIR: dataDir(), [variable]: '1' });
      assert.equal(check.status, 'error', variable);
      assert.match(check.message, new RegExp(`${variable} is set.*MOMO_REDIS_URL`));
    }
  });

  it('fails, naming the fix, when Redis cannot be reached', async () => {
    const check = await storeCheck({ MOMO_REDIS_URL: 'redis://127.0.0.1:1' });
    assert.equal(check.status, 'error');
    assert.match(check.message, /127\.0\.0\.1:1|Redis/);
  });
});
