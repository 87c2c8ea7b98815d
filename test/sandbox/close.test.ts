import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSandbox } from '../../src/sandbox/index.js';

it('a sandbox without a server stops its pending pushes on close()', async () => {
  const sandbox = createSandbox({ pushDelayMs: 30, log: () => {} });
  const response = await sandbox.fetch(
    new Request('http://sandbox.test/v1/pay-in', {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'close-1', amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF' }),
    }),
  );
  assert.equal(response.status, 200);
  await sandbox.close();
  await new Promise((resolve) => setTimeout(resolve, 120));
  // The push would have been approved after 30 ms had the sandbox kept running.
  assert.equal(sandbox.control.transaction('close-1')?.status, 'pending');
});
