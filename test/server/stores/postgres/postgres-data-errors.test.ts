/**
 * Issue 55 on PostgreSQL, beside the store contract's odd-text cases (which every engine runs):
 *
 * - what the store sends PostgreSQL never holds an escape its json functions refuse to decode (a
 *   NUL's `\u0000`, a lone surrogate's `\ud83d`), and it reads back every text as written: the
 *   marks of postgres-records.ts, checked over many strings made of the awkward characters;
 * - a value PostgreSQL refuses for what it is (a data exception, SQLSTATE class 22; here a revision
 *   past an integer column's range, a real one) is a StoreDataError, which the store guard passes
 *   unchanged: the server API answers it 500 without "retry unchanged" or Retry-After, not
 *   `503 STORE_UNAVAILABLE`, and a notification it refuses leaves the inbox instead of being
 *   applied again at every round of maintenance, for ever.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signWebhook } from '../../../../src/server/index.js';
import { createLogger } from '../../../../src/server/log.js';
import { keepableJson, keepableText, restoredJson, restoredText } from '../../../../src/server/stores/postgres/postgres-records.js';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { storeDeadline, guardStore } from '../../../../src/server/stores/store-guard.js';
import { StoreDataError } from '../../../../src/server/stores/store.js';
import { sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';
import { until } from '../../../support/until.js';
import { newOrderId } from '../../harness.js';
import { refundHarness } from '../../refunds/fixtures/refund-harness.js';

const postgres = usePostgresDatabase();
const serverSecret = 'postgres-data-errors-server-secret-0123456789';
let schemas = 0;

/** An escape PostgreSQL refuses to decode, in a json text: a `\` not itself escaped, then u0000 or a surrogate's code. */
const undecodable = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/;

describe('the marks of what PostgreSQL cannot decode (postgres-records.ts)', () => {
  it('give back every text as written, in values and keys, and leave no escape PostgreSQL refuses', () => {
    const pieces = ['\u0000', '\ud83d', '\ude00', '😀', '\ufdd0', '\\', 'u', '0', 'd', '8', '3', 'f', '"', 'é', ' '];
    let seed = 55;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 3_000; round++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]!).join('');
      const value = { [text]: text, list: [text, { nested: text }] };
      const sent = keepableJson(JSON.stringify(value));
      assert.doesNotMatch(sent, undecodable, JSON.stringify(text));
      assert.deepEqual(JSON.parse(restoredJson(sent)), value, JSON.stringify(text));
      const column = keepableText(text);
      assert.doesNotMatch(column, /[\u0000\p{Cs}]/u, JSON.stringify(text));
      assert.equal(restoredText(column), text, JSON.stringify(text));
      assert.equal(keepableJson(JSON.stringify(text)), JSON.stringify(column), 'one mark for a text in a json document and in a column');
    }
    const plain = JSON.stringify({ reason: 'colis abîmé 📦', escaped: 'a \\u0000 written out', control: '\u0007' });
    assert.equal(keepableJson(plain), plain, 'a text without any of the three is sent as it was');
  });
});

describe('a data error on PostgreSQL is not an outage', () => {
  it('is a StoreDataError through the store and its guard, for a revision past the integer column', async () => {
    const store = await createPostgresStore({ url: postgres.url, schema: `data_errors_${++schemas}`, log: createLogger({ sink: () => {} }) });
    const guarded = guardStore(store, storeDeadline(4_000));
    try {
      const record = sampleRecord();
      await store.createIfAbsent(record);
      const past = { ...record, revision: 2 ** 31 };
      await assert.rejects(store.compareAndSet(record.orderId, 0, past), (error: unknown) => error instanceof StoreDataError && /SQLSTATE 22003/.test(error.message));
      await assert.rejects(guarded.compareAndSet(record.orderId, 0, past), StoreDataError, 'the guard passes it unchanged');
      await assert.rejects(store.createIfAbsent({ ...sampleRecord(), revision: 2 ** 31 }), StoreDataError);
      assert.equal((await store.getByOrderId(record.orderId))?.revision, 0, 'nothing written');
    } finally {
      await store.close?.();
    }
  });

  it('answers the server API 500 without Retry-After, and a notification it refuses leaves the inbox', async () => {
    const store = await createPostgresStore({ url: postgres.url, schema: `data_errors_${++schemas}`, log: createLogger({ sink: () => {} }) });
    const { h, errors } = await refundHarness(store, serverSecret);
    try {
      // A paid order whose next write would pass the integer column's range: every write of it fails the same way.
      const orderId = newOrderId();
      const paid = withPayment(sampleRecord({ orderId, amount: '5000' }), `${orderId}`, 1, 'completed', Date.now());
      await store.createIfAbsent({ ...paid, revision: 2 ** 31 - 1 });
      const refund = await fetch(`${h.base}/server/payments/${orderId}/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ refundId: 'rf-1', amount: '1000' }),
      });
      const answer = (await refund.json()) as { error: { code: string; message: string } };
      assert.equal(refund.status, 500, JSON.stringify(answer));
      assert.equal(answer.error.code, 'INTERNAL');
      assert.match(answer.error.message, /store refused a value of this request .*SQLSTATE 22003.*Repeating it unchanged fails the same way/);
      assert.equal(refund.headers.get('retry-after'), null);

      // A notification of that payment: kept, answered 200, refused by the store when applied.
      const body = await signWebhook(
        [
          ['phoneNumber', paid.payment!.phoneNumber],
          ['amount', { rawNumber: '5000' }],
          ['orderId', orderId],
          ['status', 'completed'],
        ],
        h.sandbox.webhookSecret,
      );
      assert.equal((await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, 200);
      await until('the notification left the inbox', async () => (await store.pendingInbox(10)).length === 0, 8_000);
      await new Promise((resolve) => setTimeout(resolve, 300)); // several rounds of maintenance
      const said = errors.filter((line) => line.includes('cannot be applied'));
      assert.equal(said.length, 1, `said once, not once per round: ${JSON.stringify(errors)}`);
      assert.match(said[0]!, /needs support/);
    } finally {
      await h.close();
    }
  });
});
