import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rawNumber, signWebhook } from '../../../src/contract/webhook-signature/index.js';
import { now, oracleSignature, SECRET } from './helpers.js';

function withoutSignature(body: string): { unsigned: string; signature: string } {
  const match = /,"signature":"([0-9a-f]{128})"\}$/.exec(body);
  assert.ok(match, 'signature must be the last member');
  return { unsigned: `${body.slice(0, match.index)}}`, signature: match[1]! };
}

describe('signWebhook', () => {
  it('writes the fields in order, then _nonce, _timestamp and signature last, signed per §6.3', async () => {
    const body = await signWebhook(
      { phoneNumber: '+22990000001', amount: 5000, orderId: 'o', status: 'completed' },
      SECRET,
      { now, nonce: 'n-1' },
    );
    const { unsigned, signature } = withoutSignature(body);
    assert.equal(
      unsigned,
      '{"phoneNumber":"+22990000001","amount":5000,"orderId":"o","status":"completed","_nonce":"n-1","_timestamp":1700000000000}',
    );
    assert.equal(
      signature,
      oracleSignature('phoneNumber+22990000001amount5000orderIdostatuscompleted_noncen-1_timestamp1700000000000'),
    );
  });

  it('keeps _nonce and _timestamp given in the fields, where they stand', async () => {
    const body = await signWebhook({ _timestamp: 5, status: 'x', _nonce: 'given' }, SECRET, { now, nonce: 'unused' });
    assert.equal(withoutSignature(body).unsigned, '{"_timestamp":5,"status":"x","_nonce":"given"}');
  });

  it('writes a random 32-hex-digit nonce by default, different each time', async () => {
    const nonceOf = async () => /"_nonce":"([^"]*)"/.exec(await signWebhook({ a: 1 }, SECRET, { now }))![1];
    const [a, b] = [await nonceOf(), await nonceOf()];
    assert.match(a!, /^[0-9a-f]{32}$/);
    assert.notEqual(a, b);
  });

  it('writes raw number text as given and nested objects with dotted signed paths', async () => {
    const body = await signWebhook(
      { amount: rawNumber('5000.0'), nextAction: { authorizationUrl: 'https://x.example/é' }, skipped: undefined },
      SECRET,
      { now, nonce: 'n' },
    );
    const { unsigned, signature } = withoutSignature(body);
    assert.equal(unsigned, '{"amount":5000.0,"nextAction":{"authorizationUrl":"https://x.example/é"},"_nonce":"n","_timestamp":1700000000000}');
    assert.equal(signature, oracleSignature('amount5000.0nextAction.authorizationUrlhttps://x.example/é_noncen_timestamp1700000000000'));
  });

  it('keeps the order of a [key, value] list, integer-like keys included', async () => {
    const body = await signWebhook([['b', 'x'], ['1', 'y']], SECRET, { now, nonce: 'n' });
    assert.equal(withoutSignature(body).unsigned, '{"b":"x","1":"y","_nonce":"n","_timestamp":1700000000000}');
  });

  it('refuses values JSON cannot carry, and bad raw numbers', async () => {
    await assert.rejects(signWebhook({ a: [1] }, SECRET), TypeError);
    await assert.rejects(signWebhook({ a: Number.NaN }, SECRET), TypeError);
    await assert.rejects(signWebhook({ a: () => 1 }, SECRET), TypeError);
    assert.throws(() => rawNumber('5,0'), TypeError);
    assert.throws(() => rawNumber('05'), TypeError);
  });
});
