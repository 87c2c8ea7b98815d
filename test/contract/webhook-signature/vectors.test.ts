/**
 * Vectors derived by hand from §6.3: each test writes the body AND the expected signed string
 * literally; the signature comes from node:crypto (the oracle), not from the code under test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildSignedString,
  parseRawJsonObject,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../src/contract/webhook-signature/index.js';
import { bodyWithSignature, now, oracleSignature, OTHER_SECRET, SECRET } from './helpers.js';

const options = { secrets: [SECRET], now };

async function assertMismatch(body: string, secrets: readonly string[] = [SECRET]) {
  await assert.rejects(
    verifyWebhook(body, { secrets, now }),
    (error: unknown) => error instanceof WebhookVerificationError && error.reason === 'SIGNATURE_MISMATCH',
  );
}

describe('§6.3 vectors', () => {
  it('§6.3.6 worked shape: key then value, no separator, signature left out', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":5000,"orderId":"ord-1","status":"completed","_nonce":"n-1","_timestamp":1700000000000}';
    const signedString = 'phoneNumber+22990000001amount5000orderIdord-1statuscompleted_noncen-1_timestamp1700000000000';
    const body = bodyWithSignature(unsigned, signedString);
    assert.equal(buildSignedString(parseRawJsonObject(body)), signedString);
    const notification = await verifyWebhook(body, options);
    assert.equal(notification.orderId, 'ord-1');
    assert.equal(notification.status, 'completed');
    assert.equal(notification.amount, 5000);
    assert.equal(notification.rawAmount, '5000');
    assert.equal(notification._timestamp, 1_700_000_000_000);
  });

  it('§6.3.2 walks keys in body order, not alphabetical', async () => {
    const unsigned =
      '{"status":"failed","orderId":"ord-2","amount":100,"phoneNumber":"+22990000001","_timestamp":1700000000000,"_nonce":"n"}';
    const signedString = 'statusfailedorderIdord-2amount100phoneNumber+22990000001_timestamp1700000000000_noncen';
    await verifyWebhook(bodyWithSignature(unsigned, signedString), options);
    const alphabetical = '_noncen_timestamp1700000000000amount100orderIdord-2phoneNumber+22990000001statusfailed';
    await assertMismatch(bodyWithSignature(unsigned, alphabetical));
  });

  it('§6.3.2 keeps an integer-like key where it stands ("1" after "b")', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"o","status":"pending","b":"x","1":"y","_nonce":"n","_timestamp":1700000000000}';
    const signedString = 'phoneNumber+22990000001amount1orderIdostatuspendingbx1y_noncen_timestamp1700000000000';
    const notification = await verifyWebhook(bodyWithSignature(unsigned, signedString), options);
    assert.equal((notification as Record<string, unknown>)['1'], 'y');
    // The order JSON.parse would give ("1" first) is not what was signed.
    const reordered = '1yphoneNumber+22990000001amount1orderIdostatuspendingbx_noncen_timestamp1700000000000';
    await assertMismatch(bodyWithSignature(unsigned, reordered));
  });

  it('§6.3.3 descends into nextAction with a dotted path', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":2500,"orderId":"o-3","status":"pending","nextAction":{"authorizationUrl":"https://pay.example/a?b=1"},"_nonce":"n","_timestamp":1700000000000}';
    const signedString =
      'phoneNumber+22990000001amount2500orderIdo-3statuspendingnextAction.authorizationUrlhttps://pay.example/a?b=1_noncen_timestamp1700000000000';
    const notification = await verifyWebhook(bodyWithSignature(unsigned, signedString), options);
    assert.equal(notification.nextAction?.authorizationUrl, 'https://pay.example/a?b=1');
  });

  it('§6.3.5 signs numbers as written: 5000.0 and 5000 give different signatures', async () => {
    const template = (amount: string) =>
      `{"phoneNumber":"+22990000001","amount":${amount},"orderId":"o","status":"completed","_nonce":"n","_timestamp":1700000000000}`;
    const signedDecimal = 'phoneNumber+22990000001amount5000.0orderIdostatuscompleted_noncen_timestamp1700000000000';
    const signedInteger = 'phoneNumber+22990000001amount5000orderIdostatuscompleted_noncen_timestamp1700000000000';
    assert.notEqual(oracleSignature(signedDecimal), oracleSignature(signedInteger));
    const notification = await verifyWebhook(bodyWithSignature(template('5000.0'), signedDecimal), options);
    assert.equal(notification.amount, 5000);
    assert.equal(notification.rawAmount, '5000.0');
    await verifyWebhook(bodyWithSignature(template('5000'), signedInteger), options);
    // The service signed "5000.0"; a body re-serialised to 5000 no longer verifies.
    await assertMismatch(bodyWithSignature(template('5000'), signedDecimal));
  });

  it('signs decoded strings: literal unicode and its \\u escape verify with the same signature', async () => {
    const signedString = 'phoneNumber+22990000001amount1orderIdcafé-😀statuscompleted_noncen_timestamp1700000000000';
    const literal =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"café-😀","status":"completed","_nonce":"n","_timestamp":1700000000000}';
    const escaped =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"caf\\u00e9-\\ud83d\\ude00","status":"completed","_nonce":"n","_timestamp":1700000000000}';
    const a = await verifyWebhook(bodyWithSignature(literal, signedString), options);
    const b = await verifyWebhook(bodyWithSignature(escaped, signedString), options);
    assert.equal(a.orderId, 'café-😀');
    assert.equal(b.orderId, 'café-😀');
  });

  it('signs booleans and null as their literal text', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"o","status":"failed","failureCategory":null,"flag":true,"_nonce":"n","_timestamp":1700000000000}';
    const signedString =
      'phoneNumber+22990000001amount1orderIdostatusfailedfailureCategorynullflagtrue_noncen_timestamp1700000000000';
    await verifyWebhook(bodyWithSignature(unsigned, signedString), options);
  });

  it('accepts a signature placed anywhere in the body, not only last', async () => {
    const signedString = 'phoneNumber+22990000001amount1orderIdostatuscompleted_noncen_timestamp1700000000000';
    const body = `{"signature":"${oracleSignature(signedString)}","phoneNumber":"+22990000001","amount":1,"orderId":"o","status":"completed","_nonce":"n","_timestamp":1700000000000}`;
    await verifyWebhook(body, options);
  });

  it('accepts insignificant whitespace between tokens (it is not signed)', async () => {
    const unsigned =
      '{\n  "phoneNumber": "+22990000001",\n  "amount": 1,\n  "orderId": "o",\n  "status": "completed",\n  "_nonce": "n",\n  "_timestamp": 1700000000000\n}';
    const signedString = 'phoneNumber+22990000001amount1orderIdostatuscompleted_noncen_timestamp1700000000000';
    await verifyWebhook(bodyWithSignature(unsigned, signedString), options);
  });

  it('§5.8 rotation: a body signed with the second configured secret verifies', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"o","status":"completed","_nonce":"n","_timestamp":1700000000000}';
    const signedString = 'phoneNumber+22990000001amount1orderIdostatuscompleted_noncen_timestamp1700000000000';
    const body = bodyWithSignature(unsigned, signedString, OTHER_SECRET);
    await verifyWebhook(body, { secrets: [SECRET, OTHER_SECRET], now });
    await assertMismatch(body, [SECRET]);
  });

  it('accepts a Uint8Array body (the raw request bytes)', async () => {
    const unsigned =
      '{"phoneNumber":"+22990000001","amount":1,"orderId":"é","status":"completed","_nonce":"n","_timestamp":1700000000000}';
    const signedString = 'phoneNumber+22990000001amount1orderIdéstatuscompleted_noncen_timestamp1700000000000';
    const bytes = new TextEncoder().encode(bodyWithSignature(unsigned, signedString));
    assert.equal((await verifyWebhook(bytes, options)).orderId, 'é');
  });
});

describe('§6.3 tampering', () => {
  const unsigned =
    '{"phoneNumber":"+22990000001","amount":5000,"orderId":"ord-1","status":"failed","_nonce":"n-1","_timestamp":1700000000000}';
  const signedString = 'phoneNumber+22990000001amount5000orderIdord-1statusfailed_noncen-1_timestamp1700000000000';
  const body = bodyWithSignature(unsigned, signedString);

  it('the untouched body verifies', async () => {
    await verifyWebhook(body, options);
  });

  it('refuses one character of a value changed', async () => {
    await assertMismatch(body.replace('"failed"', '"failes"'));
    await assertMismatch(body.replace('5000', '5001'));
    await assertMismatch(body.replace('n-1', 'n-2'));
  });

  it('refuses two keys swapped', async () => {
    await assertMismatch(body.replace('"amount":5000,"orderId":"ord-1"', '"orderId":"ord-1","amount":5000'));
  });

  it('refuses a field added', async () => {
    await assertMismatch(body.replace('"status":"failed"', '"status":"failed","extra":"x"'));
  });

  it('refuses a field removed', async () => {
    await assertMismatch(body.replace('"orderId":"ord-1",', ''));
  });

  it('refuses the signature of another secret', async () => {
    await assertMismatch(bodyWithSignature(unsigned, signedString, OTHER_SECRET));
  });
});
