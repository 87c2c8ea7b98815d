/** `npx momo-checkout payments --stale`: what a merchant runs to find what to send to support. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createFileStore, createPostgresStore, transitionCheckout } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { createDatabase, startPostgresServer } from '../../support/postgres-server.js';
import { createCheckoutRecord } from '../../../src/server/payments/checkouts.js';

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

describe('momo-checkout payments', () => {
  it('lists a stuck payment from the file store with the sentence for support, as a table and as JSON', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-cli-'));
    const store = createFileStore({ dataDir });
    const orderId = 'order-cli-1';
    await createCheckoutRecord(store, { orderId, amount: '7500', currencyCode: 'XOF' }, { ttlMs: 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null });
    const longAgo = Date.now() - 40 * 60_000;
    await transitionCheckout(store, orderId, (checkout) => ({
      ...checkout,
      payment: {
        state: 'pending', attempt: 1, serviceOrderId: orderId, phoneNumber: '+2290196000003', useWallet: false, operator: null, workflow: 'provider_auth',
        authorizationUrl: null, returned: false, amountMismatch: false, lastServiceStatus: null, transactionId: '5f0c1d2e-0000-4000-8000-000000000001', updatedAt: longAgo,
      },
    }));
    await store.close?.();

    const table = cli(['payments', '--stale'], { MOMO_DATA_DIR: dataDir });
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /1 payment\(s\) in the file .* that need attention/);
    assert.match(table.stdout, /order-cli-1\s+pending\s+7500 XOF/);
    assert.doesNotMatch(table.stdout, /96000003/, 'the number is masked');
    assert.match(table.stdout, /re-emit the notification of transaction 5f0c1d2e-0000-4000-8000-000000000001/);

    const json = cli(['payments', '--stale', '--json'], { MOMO_DATA_DIR: dataDir });
    assert.equal(json.status, 0, json.stderr);
    const [summary] = JSON.parse(json.stdout);
    assert.equal(summary.orderId, orderId);
    assert.ok(summary.ageMinutes >= 39);

    const none = cli(['payments', '--stale', '--older-than', '60'], { MOMO_DATA_DIR: dataDir });
    assert.match(none.stdout, /0 payment\(s\)/);
  });

  it('reads a PostgreSQL store (MOMO_POSTGRES_URL), and exits once done', async () => {
    const server = await startPostgresServer();
    try {
      const url = server.urlOf(createDatabase(server));
      const store = await createPostgresStore({ url, log: silentLogger });
      await createCheckoutRecord(store, { orderId: 'order-cli-pg', amount: '7500', currencyCode: 'XOF' }, { ttlMs: 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null });
      await transitionCheckout(store, 'order-cli-pg', (checkout) => ({
        ...checkout,
        payment: {
          state: 'pending', attempt: 1, serviceOrderId: 'order-cli-pg', phoneNumber: '+2290196000003', useWallet: false, operator: null, workflow: 'provider_auth',
          authorizationUrl: null, returned: false, amountMismatch: false, lastServiceStatus: null, transactionId: null, updatedAt: Date.now() - 40 * 60_000,
        },
      }));
      await store.close?.();
      // spawnSync with a timeout: a connection left open (the status hub's LISTEN) would hang the command.
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'payments', '--stale'], { env: { ...process.env, MOMO_POSTGRES_URL: url }, encoding: 'utf8', timeout: 20_000 });
      assert.equal(result.status, 0, `${result.error?.message ?? ''} ${result.stderr}`);
      assert.match(result.stdout, /1 payment\(s\) in PostgreSQL at 127\.0\.0\.1:\d+\/\w+ \(schema momo_checkout\) that need attention/);
      assert.match(result.stdout, /order-cli-pg\s+pending\s+7500 XOF/);
    } finally {
      await server.stop();
    }
  });

  it('says how to use it when the arguments are wrong', () => {
    const result = cli(['payments', '--older-than', 'soon'], { MOMO_STORE: 'memory' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--older-than takes a number of minutes/);
  });
});
