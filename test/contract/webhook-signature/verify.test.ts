import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  webhookRefusalReasons,
  type WebhookRefusalReason,
} from '../../../src/contract/webhook-signature/index.js';
import { bodyWithSignature, NOW, now, SECRET } from './helpers.js';

const FIELDS = { phoneNumber: '+22990000001', amount: 5000, orderId: 'ord-1', status: 'completed' };
const seenReasons = new Set<WebhookRefusalReason>();

async function assertRefused(
  body: string | Uint8Array,
  reason: WebhookRefusalReason,
  options: Partial<Parameters<typeof verifyWebhook>[1]> = {},
): Promise<WebhookVerificationError> {
  let caught: unknown;
  try {
    await verifyWebhook(body, { secrets: [SECRET], now, ...options });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof WebhookVerificationError, `expected a WebhookVerificationError ${reason}, got ${String(caught)}`);
  assert.equal(caught.reason, reason, caught.message);
  assert.ok(!caught.message.includes(SECRET), 'the message must not carry the secret');
  if (typeof body === 'string' && body.length > 40) {
    assert.ok(!caught.message.includes(body), 'the message must not carry the body');
  }
  seenReasons.add(reason);
  return caught;
}

/** A body with a valid signature over whatever fields it holds (§6.3), written without signWebhook. */
function handSigned(members: string): string {
  const entries: string[] = [];
  // Only flat string/number members here, so the signed string is easy to write out.
  for (const match of members.matchAll(/"([^"]+)":("([^"]*)"|[^,]+)/g)) {
    entries.push(match[1]! + (match[3] ?? match[2]!));
  }
  return bodyWithSignature(`{${members}}`, entries.join(''));
}

describe('verifyWebhook refusals', () => {
  it('NO_SECRETS when no secret (or only empty ones) is configured', async () => {
    const body = await signWebhook(FIELDS, SECRET, { now });
    const error = await assertRefused(body, 'NO_SECRETS', { secrets: [] });
    assert.match(error.message, /create one/);
    await assertRefused(body, 'NO_SECRETS', { secrets: [''] });
  });

  it('NOT_JSON_OBJECT on invalid JSON, an array, trailing text or invalid UTF-8', async () => {
    await assertRefused('not json', 'NOT_JSON_OBJECT');
    await assertRefused('{"a":', 'NOT_JSON_OBJECT');
    await assertRefused('[{"a":1}]', 'NOT_JSON_OBJECT');
    await assertRefused('{"a":[1]}', 'NOT_JSON_OBJECT');
    const body = await signWebhook(FIELDS, SECRET, { now });
    await assertRefused(`${body}\n{}`, 'NOT_JSON_OBJECT');
    await assertRefused(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'NOT_JSON_OBJECT');
  });

  it('DUPLICATE_KEY, FORBIDDEN_KEY, DOTTED_KEY, TOO_DEEP from the body structure', async () => {
    await assertRefused('{"status":"failed","status":"completed"}', 'DUPLICATE_KEY');
    await assertRefused('{"__proto__":{"status":"completed"}}', 'FORBIDDEN_KEY');
    await assertRefused('{"nextAction":{"constructor":"x"}}', 'FORBIDDEN_KEY');
    await assertRefused('{"nextAction.authorizationUrl":"https://x.example"}', 'DOTTED_KEY');
    await assertRefused('{"nextAction":{"a":{"b":1}}}', 'TOO_DEEP');
  });

  it('TOO_LARGE for a body over 64 KB, as text or as bytes, even when signed', async () => {
    const big = await signWebhook({ ...FIELDS, padding: 'x'.repeat(65_536) }, SECRET, { now });
    assert.ok(big.length > 65_536);
    await assertRefused(big, 'TOO_LARGE');
    await assertRefused(new TextEncoder().encode(big), 'TOO_LARGE');
  });

  it('accepts a signed body just under 64 KB', async () => {
    const body = await signWebhook({ ...FIELDS, padding: 'x'.repeat(65_000) }, SECRET, { now });
    assert.ok(body.length <= 65_536);
    await verifyWebhook(body, { secrets: [SECRET], now });
  });

  it('MISSING_SIGNATURE and MALFORMED_SIGNATURE', async () => {
    await assertRefused('{"status":"completed","_nonce":"n","_timestamp":1700000000000}', 'MISSING_SIGNATURE');
    const body = await signWebhook(FIELDS, SECRET, { now });
    const signature = /"signature":"([0-9a-f]+)"/.exec(body)![1]!;
    await assertRefused(body.replace(signature, signature.toUpperCase()), 'MALFORMED_SIGNATURE');
    await assertRefused(body.replace(signature, signature.slice(2)), 'MALFORMED_SIGNATURE');
    await assertRefused(body.replace(signature, `${signature}00`), 'MALFORMED_SIGNATURE');
    await assertRefused(body.replace(signature, `${signature.slice(1)}g`), 'MALFORMED_SIGNATURE');
    await assertRefused(body.replace(`"${signature}"`, '12'), 'MALFORMED_SIGNATURE');
  });

  it('MISSING_NONCE and MISSING_TIMESTAMP', async () => {
    await assertRefused(handSigned('"status":"completed","_timestamp":1700000000000'), 'MISSING_NONCE');
    await assertRefused(handSigned('"status":"completed","_nonce":"n"'), 'MISSING_TIMESTAMP');
  });

  it('MALFORMED_TIMESTAMP when not an integer number of ms', async () => {
    for (const timestamp of ['"1700000000000"', '1700000000000.0', '1.7e12', '-1700000000000', '99999999999999999']) {
      await assertRefused(handSigned(`"status":"completed","_nonce":"n","_timestamp":${timestamp}`), 'MALFORMED_TIMESTAMP');
    }
  });

  it('TIMESTAMP_TOO_OLD and TIMESTAMP_IN_FUTURE beyond the tolerance (default 5 minutes)', async () => {
    const at = (timestamp: number) => signWebhook({ ...FIELDS, _timestamp: timestamp }, SECRET);
    await verifyWebhook(await at(NOW - 300_000), { secrets: [SECRET], now });
    await verifyWebhook(await at(NOW + 300_000), { secrets: [SECRET], now });
    await assertRefused(await at(NOW - 300_001), 'TIMESTAMP_TOO_OLD');
    await assertRefused(await at(NOW + 300_001), 'TIMESTAMP_IN_FUTURE');
    await assertRefused(await at(NOW - 61_000), 'TIMESTAMP_TOO_OLD', { toleranceMs: 60_000 });
    await verifyWebhook(await at(NOW - 3_600_000), { secrets: [SECRET], now, toleranceMs: 3_600_000 });
  });

  it('SIGNATURE_MISMATCH says what to check', async () => {
    const body = await signWebhook(FIELDS, 'whsec_someone_else', { now });
    const error = await assertRefused(body, 'SIGNATURE_MISMATCH');
    assert.match(error.message, /re-serialised/);
    assert.match(error.message, /raw request text/);
    // The rule in words (merchants do not have the service's document to look a § up in).
    assert.match(error.message, /the user whose API key created the transaction/);
    assert.doesNotMatch(error.message, /§/);
  });

  it('checks the signature before the freshness: a stale forgery is a mismatch', async () => {
    const body = await signWebhook({ ...FIELDS, _timestamp: NOW - 10_000_000 }, 'whsec_someone_else');
    await assertRefused(body, 'SIGNATURE_MISMATCH');
  });

  it('INVALID_BODY names the missing or wrong field of a correctly signed body', async () => {
    const withoutOrder = await signWebhook({ phoneNumber: '+22990000001', amount: 1, status: 'completed' }, SECRET, { now });
    assert.match((await assertRefused(withoutOrder, 'INVALID_BODY')).message, /orderId is required/);
    const textAmount = await signWebhook({ ...FIELDS, amount: '5000' }, SECRET, { now });
    assert.match((await assertRefused(textAmount, 'INVALID_BODY')).message, /amount/);
    const badUrl = await signWebhook({ ...FIELDS, nextAction: { authorizationUrl: 'not a url' } }, SECRET, { now });
    assert.match((await assertRefused(badUrl, 'INVALID_BODY')).message, /nextAction\.authorizationUrl/);
    const textNonce = await signWebhook({ ...FIELDS, _nonce: 12 }, SECRET, { now });
    assert.match((await assertRefused(textNonce, 'INVALID_BODY')).message, /_nonce/);
  });

  it('covered every refusal reason', () => {
    assert.deepEqual([...webhookRefusalReasons].filter((reason) => !seenReasons.has(reason)), []);
  });
});

describe('verifyWebhook result', () => {
  it('returns the typed notification with unknown fields kept and rawAmount as written', async () => {
    const body = await signWebhook(
      [
        ['phoneNumber', '+22990000001'],
        ['amount', { rawNumber: '2500.50' }],
        ['orderId', 'ord-9'],
        ['status', 'reversed'],
        ['nextAction', { authorizationUrl: 'https://pay.example/x' }],
        ['failureCategory', 'INSUFFICIENT_FUNDS'],
        ['futureField', 'kept'],
      ],
      SECRET,
      { now, nonce: 'abc' },
    );
    const notification = await verifyWebhook(body, { secrets: [SECRET], now });
    assert.deepEqual(notification, {
      phoneNumber: '+22990000001',
      amount: 2500.5,
      rawAmount: '2500.50',
      orderId: 'ord-9',
      status: 'reversed',
      nextAction: { authorizationUrl: 'https://pay.example/x' },
      failureCategory: 'INSUFFICIENT_FUNDS',
      futureField: 'kept',
      _nonce: 'abc',
      _timestamp: NOW,
      signature: /"signature":"([0-9a-f]{128})"/.exec(body)![1],
    });
  });
});
