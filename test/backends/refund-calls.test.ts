/**
 * The refund calls of docs/backends.md (docs/backends/php/refund.php, docs/backends/python/refund.py)
 * run by real PHP and Python against a companion's server API in front of the sandbox: each makes
 * one pay-out, a repeat makes none, and a refusal arrives as the language's error with the code.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newOrderId, startHarness, type Harness } from '../server/harness.js';
import { root } from './harness.js';

const serverSecret = 'backend-refund-calls-secret-0123456789abcdef';

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No __pycache__ written beside the documented files.
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', PYTHONDONTWRITEBYTECODE: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const php = (env: Record<string, string>, orderId: string, refundId: string, amount: string) =>
  run('php', ['-r', `require '${join(root, 'docs/backends/php/refund.php')}'; try { echo json_encode(momo_refund($argv[1], $argv[2], $argv[3])); } catch (MomoError $e) { echo 'ERROR ', $e->getMessage(); }`, orderId, refundId, amount], env);
const python = (env: Record<string, string>, orderId: string, refundId: string, amount: string) =>
  run('python3', ['-c', `import json, sys\nsys.path.insert(0, ${JSON.stringify(join(root, 'docs/backends/python'))})\nfrom refund import refund\nfrom momo import MomoError\ntry:\n    print(json.dumps(refund(*sys.argv[1:4])))\nexcept MomoError as error:\n    print('ERROR', error)`, orderId, refundId, amount], env);

describe('refund calls from PHP and Python (docs/backends.md)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ refunds: true, serverSecret, setupChecksAtStart: false });
  });
  after(() => h.close());

  for (const [language, call] of [['PHP', php], ['Python', python]] as const) {
    it(`${language}: refunds once, a repeat makes no second pay-out, a refusal carries its code`, async () => {
      const orderId = newOrderId();
      const token = await h.checkout(orderId, '5000');
      await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } });
      await h.waitFor(orderId, (view) => view.state === 'completed');
      const env = { MOMO_SERVER_URL: `${h.base}/server`, MOMO_SERVER_SECRET: serverSecret };

      const first = await call(env, orderId, 'rf-1', '2000');
      assert.equal(first.code, 0, first.stderr);
      const refund = JSON.parse(first.stdout);
      assert.equal(refund.state, 'pending');
      const again = JSON.parse((await call(env, orderId, 'rf-1', '2000')).stdout);
      assert.equal(again.payoutOrderId, refund.payoutOrderId);
      const payouts = h.sandbox.control.transactions().filter((transaction) => transaction.orderId === refund.payoutOrderId);
      assert.equal(payouts.length, 1);

      const refused = await call(env, orderId, 'rf-2', '3001');
      assert.match(refused.stdout, /^ERROR momo-checkout: HTTP 422 EXCEEDS_PAID_AMOUNT: .*at most 3000 is left/);
    });
  }
});
