import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { createSandbox } from '../../src/sandbox/index.js';
import { request } from './helpers.js';

describe('control HTTP surface (/_sandbox/)', () => {
  it('lists transactions, settles, re-emits and lists deliveries', async () => {
    const sandbox = createSandbox({ log: () => {}, pushDelayMs: 10_000 });
    const call = async (path: string, body?: object) => {
      const response = await sandbox.fetch(request(sandbox.apiKey, path, body ? { body } : {}));
      return { status: response.status, body: (await response.json()) as any };
    };
    await call('/v1/pay-in', { orderId: 'c-1', amount: 5000, phoneNumber: '+2290196000003', currencyCode: 'XOF' });
    const list = await call('/_sandbox/transactions');
    assert.equal(list.body.data.transactions[0].orderId, 'c-1');
    assert.equal(list.body.data.transactions[0].status, 'pending');
    assert.equal((await call('/_sandbox/settle', { orderId: 'c-1', status: 'maybe' })).status, 400);
    assert.equal((await call('/_sandbox/settle', { orderId: 'nope', status: 'failed' })).status, 404);
    const settled = await call('/_sandbox/settle', { orderId: 'c-1', status: 'failed' });
    assert.equal(settled.status, 200);
    assert.equal(settled.body.data.transaction.status, 'failed');
    // No webhookUrl: nothing to re-emit, said plainly.
    const reemit = await call('/_sandbox/reemit', { orderId: 'c-1', how: 'duplicate' });
    assert.equal(reemit.status, 400);
    assert.match(reemit.body.message, /webhookUrl/);
    assert.deepEqual((await call('/_sandbox/deliveries')).body.data.deliveries, []);
    assert.equal((await call('/_sandbox/balances')).body.data.balances.XOF, '1000000');
  });

  it('sets a balance, and a pay-out above it fails at once with INSUFFICIENT_FUNDS and the balance', async () => {
    const sandbox = createSandbox({ log: () => {}, pushDelayMs: 10_000 });
    const call = async (path: string, body?: object) => {
      const response = await sandbox.fetch(request(sandbox.apiKey, path, body ? { body } : {}));
      return { status: response.status, body: (await response.json()) as any };
    };
    assert.equal((await call('/_sandbox/balances', { currencyCode: 'XOF', amount: '1.5' })).status, 400, 'XOF has no decimals');
    assert.equal((await call('/_sandbox/balances', { currencyCode: 'XOF', amount: 100 })).status, 400, 'a decimal string');
    const set = await call('/_sandbox/balances', { currencyCode: 'XOF', amount: '100' });
    assert.equal(set.body.data.balances.XOF, '100');
    const payout = await call('/v1/pay-out', { orderId: 'po-1', amount: 500, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: 'https://shop.example/hook' });
    assert.equal(payout.status, 200);
    assert.equal(payout.body.data.status, 'failed');
    assert.equal(payout.body.data.failureCategory, 'INSUFFICIENT_FUNDS');
    assert.equal(payout.body.data.newBalance, 100);
    const paid = await call('/v1/pay-out', { orderId: 'po-2', amount: 100, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: 'https://shop.example/hook' });
    assert.equal(paid.body.data.status, 'pending');
    assert.equal(paid.body.data.newBalance, 0);
  });
});

describe('npm run sandbox (src/sandbox/cli.ts)', () => {
  it('prints that it is a LOCAL SIMULATOR, its URL, key, secret and test numbers, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Its banner once tsx has compiled the CLI: seconds when the machine is quiet, more when test
      // files run side by side under load (15 s ran out once at a load of 20); a child that died
      // stops the wait at once.
      let ended = false;
      void exited.then(() => (ended = true));
      const deadline = Date.now() + 45_000;
      while (!output.includes('Other numbers') && !ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(output, /LOCAL SIMULATOR/);
      assert.match(output, /No real money/);
      const url = /URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const key = /API key\s+(sk_test_sandbox_\S+)/.exec(output)?.[1];
      assert.ok(url && key, output);
      assert.match(output, /Webhook secret\s+whsec_\S+/);
      assert.match(output, /\+2290196000001/);
      assert.match(output, /123456/);
      const response = await fetch(`${url}/v1/operators?country=BJ`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
