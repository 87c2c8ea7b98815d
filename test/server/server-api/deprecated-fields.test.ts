/**
 * Deprecation instead of removal (issue 36): the delivery log's fields renamed after 0.1.0 are
 * served under both names, with the same values, and the old names are marked deprecated in the
 * OpenAPI document, so a client written against 0.1.0 keeps reading them for a minor release.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { merchantSecret, startReceiver, until } from '../deliveries/merchant-receiver.js';

const serverSecret = 'deprecated-fields-secret-0123456789abcdef';

describe('renamed delivery log fields', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let h: Harness;
  before(async () => {
    receiver = await startReceiver();
    receiver.answer = () => 500;
    h = await startHarness({ serverSecret, merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret, deliveryRetryDelaysMs: [3_600_000], setupChecksAtStart: false });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });
  const get = async (path: string) => (await fetch(`${h.base}/server${path}`, { headers: { authorization: `Bearer ${serverSecret}` } })).json() as Promise<any>;

  it('serves id, state and deliveryId beside webhookId and reportedState, with the same values', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    await until('a refused attempt logged', async () => (await get(`/payments/${orderId}`)).deliveries.log.length >= 1);
    const { deliveries } = await get(`/payments/${orderId}`);
    assert.ok(deliveries.pending.length >= 1);
    for (const pending of deliveries.pending) {
      assert.equal(pending.id, pending.webhookId);
      assert.equal(pending.state, pending.reportedState);
    }
    assert.equal(deliveries.pending[0].state, 'pending', "0.1.0's state: the payment state the notification reports");
    for (const attempt of deliveries.log) assert.equal(attempt.deliveryId, attempt.webhookId);
  });

  it('marks the old names deprecated in the OpenAPI document, and only them', async () => {
    const document = await get('/openapi.json');
    const deprecated = (schema: string) =>
      Object.entries(document.components.schemas[schema].properties as Record<string, { deprecated?: boolean }>)
        .filter(([, property]) => property.deprecated)
        .map(([name]) => name);
    assert.deepEqual(deprecated('PendingDelivery'), ['id', 'state']);
    assert.deepEqual(deprecated('DeliveryAttempt'), ['deliveryId']);
    // No release to come is promised (issue 53: "0.3.0 at the earliest" outlived 0.3.0 and 0.4.0).
    assert.match(document.components.schemas.PendingDelivery.properties.id.description, /webhookId.*says so under Breaking in CHANGELOG\.md/);
  });
});
