/**
 * How a service notification's outcome is said over HTTP (src/server/http-answers/), one mapping
 * for every way in: the webhook route's answer to the service, `handleWebhook`'s published result
 * and the server API's relay. The service must never read "received" for a notification the store
 * could not keep, nor a failure for a duplicate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerToRelay, answerToService, tooLargeAnswer, webhookBodyLimit, webhookResultOf } from '../../../src/server/http-answers/notification-answers.js';
import { maxNotificationBytes } from '../../../src/server/notifications/receive-notification.js';
import type { WebhookRefusalReason } from '../../../src/contract/webhook-signature/errors.js';

const refused = (reason: WebhookRefusalReason) =>
  ({ kind: 'refused', reason, message: `refused: ${reason}` }) as const;

describe('the answer to the service (the webhook route)', () => {
  it('says received for a kept or duplicate notification, 503 for one not kept, 413 for one too large', () => {
    assert.deepEqual(answerToService({ kind: 'kept' }), { status: 200, body: '{"received":true}' });
    assert.deepEqual(answerToService({ kind: 'duplicate', orderId: 'order-1' }), { status: 200, body: '{"received":true}' });
    assert.deepEqual(answerToService({ kind: 'unavailable' }), { status: 503, body: '{"error":"storage unavailable"}' });
    assert.deepEqual(answerToService({ kind: 'too-large' }), { status: 413, body: '{"error":"body too large"}' });
  });

  it('answers a refusal the sender caused 401 (a bad signature, no secret here) and a bad body 400, naming the reason', () => {
    assert.deepEqual(answerToService(refused('SIGNATURE_MISMATCH')), { status: 401, body: '{"error":"SIGNATURE_MISMATCH"}' });
    assert.deepEqual(answerToService(refused('NO_SECRETS')), { status: 401, body: '{"error":"NO_SECRETS"}' });
    assert.deepEqual(answerToService(refused('TIMESTAMP_TOO_OLD')), { status: 400, body: '{"error":"TIMESTAMP_TOO_OLD"}' });
  });

  it('hands the adapters the one body limit with the same 413', () => {
    assert.equal(webhookBodyLimit.maxBytes, maxNotificationBytes);
    assert.equal(webhookBodyLimit.tooLarge, tooLargeAnswer);
  });
});

describe("handleWebhook's result (published since 0.1.0)", () => {
  it('keeps its shape for each outcome, and throws for a notification the store could not keep', () => {
    assert.deepEqual(webhookResultOf({ kind: 'applied', orderId: 'order-1', state: 'completed' }), { status: 200, outcome: 'applied', orderId: 'order-1', state: 'completed' });
    assert.deepEqual(webhookResultOf({ kind: 'ignored', orderId: 'order-1' }), { status: 200, outcome: 'ignored', orderId: 'order-1' });
    assert.deepEqual(webhookResultOf({ kind: 'duplicate', orderId: 'order-1' }), { status: 200, outcome: 'duplicate', orderId: 'order-1' });
    assert.deepEqual(webhookResultOf(refused('SIGNATURE_MISMATCH')), { status: 401, outcome: 'refused', reason: 'SIGNATURE_MISMATCH', message: 'refused: SIGNATURE_MISMATCH' });
    assert.throws(() => webhookResultOf({ kind: 'unavailable' }), /Relay it again once it is back/);
  });
});

describe("the server API's relay", () => {
  it('answers a body for what was applied, and says what to do for a refusal or a store that is down', () => {
    assert.deepEqual(answerToRelay({ kind: 'applied', orderId: 'order-1', state: 'failed' }), { ok: true, body: { outcome: 'applied', orderId: 'order-1', state: 'failed' } });
    assert.deepEqual(answerToRelay({ kind: 'duplicate', orderId: 'order-1' }), { ok: true, body: { outcome: 'duplicate', orderId: 'order-1' } });
    const refusal = answerToRelay({ kind: 'refused', reason: 'SIGNATURE_MISMATCH', message: 'the signature does not match' });
    assert.equal(refusal.ok, false);
    assert.equal(!refusal.ok && refusal.code, 'NOTIFICATION_REFUSED');
    assert.match(!refusal.ok ? refusal.message : '', /^the signature does not match\. Forward the body exactly as your endpoint received it/);
    const down = answerToRelay({ kind: 'unavailable' });
    assert.deepEqual(!down.ok && [down.code, /\/readyz/.test(down.message)], ['STORE_UNAVAILABLE', true]);
  });
});
