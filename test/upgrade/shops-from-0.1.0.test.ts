/**
 * Upgrading without reading the commit log (issue 36): the plain PHP and Python shops exactly as
 * release 0.1.0 documented them (test/fixtures/shops-0.1.0, from commit 6043c02, unchanged) run
 * against today's companion, `momo-checkout serve` with the variables 0.1.0's docs listed (and
 * refunds turned on, as a merchant does after upgrading). A payment is paid in Chromium and both
 * transitions reach the shop; a refund and a ping, types their handler cannot read (it takes
 * `data.payment` without checking `type`), never reach it: no junk row, no 500, nothing retried.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { payInChromium, readEvents, requireRuntime, root, startScenario, waitForEvents, runCli, type Scenario } from '../backends/harness.js';
import { phpShopIn, requirePhpWithCurl } from '../backends/php-shop.js';
import { pythonShopIn } from '../backends/python-shop.js';

const shops = join(root, 'test/fixtures/shops-0.1.0');

const php = phpShopIn(join(shops, 'php'));
const python = pythonShopIn(join(shops, 'python'));

async function serverApi(scenario: Scenario, path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${scenario.serverUrl}${path}`, { ...init, headers: { authorization: `Bearer ${scenario.serverSecret}`, 'content-type': 'application/json' } });
  return { status: response.status, body: await response.json() };
}

for (const [language, backend, runtime] of [
  ['PHP', php, requirePhpWithCurl],
  ['Python', python, () => requireRuntime('python3', ['--version'], 'apt-get install -y python3')],
] as const) {
  describe(`the ${language} shop of 0.1.0's docs, unchanged, against this release`, () => {
    let scenario: Scenario;
    before(async () => {
      runtime();
      // 0.1.0's variables: no MOMO_MERCHANT_EVENTS (it did not exist). Refunds on, as after an upgrade.
      scenario = await startScenario(backend, { companionEnv: { MOMO_MERCHANT_EVENTS: undefined, MOMO_REFUNDS: 'on' } });
    });
    after(async () => scenario?.close());

    it('is paid, refunds and pings without a notification its handler cannot read', async () => {
      const orderId = `upgrade-${language.toLowerCase()}-${process.pid}-${Date.now()}`;
      // The element from this package's build, on the 0.1.0 page (which pinned no integrity then).
      await payInChromium(scenario, backend, orderId, { pinned: false });
      const paid = await waitForEvents(scenario, orderId, 2);
      assert.deepEqual(paid.map((event) => event.state), ['pending', 'completed']);

      const refund = await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}/refunds`, { method: 'POST', body: JSON.stringify({ refundId: 'rf-1', amount: '1000' }) });
      assert.equal(refund.status, 200, JSON.stringify(refund.body));
      const end = Date.now() + 15_000;
      while ((await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}`)).body.refunds[0]?.state !== 'completed') {
        assert.ok(Date.now() < end, `the refund completes\n${scenario.logs()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      const ping = await runCli(['ping'], scenario);
      assert.equal(ping.status, 1, ping.stdout);
      assert.match(ping.stdout, /FAIL {2}test\.ping to .*: not sent: your endpoint does not take test\.ping \(MOMO_MERCHANT_EVENTS\)/);

      // Time for a refund notification and its first retries, had one been queued.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const rows = await readEvents(scenario.eventsFile);
      assert.deepEqual(rows.map((row) => [row.orderId, row.state]), [[orderId, 'pending'], [orderId, 'completed']], 'the shop recorded the payment, and no junk row');
      const details = await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}`);
      assert.deepEqual(details.body.deliveries.pending, [], 'nothing waits to be retried at the shop');
      assert.ok(details.body.deliveries.log.every((attempt: any) => attempt.ok && attempt.status === 204), JSON.stringify(details.body.deliveries.log));
      // 0.1.0's delivery log names, still served (deprecated) for a client written then.
      assert.ok(details.body.deliveries.log.every((attempt: any) => attempt.deliveryId === attempt.webhookId));
      assert.doesNotMatch(scenario.logs(), /Traceback|KeyError|Undefined array key|\[500\]|" 500 /, 'the shop never failed on a notification');
    });
  });
}
