/**
 * A refund's refusals said over HTTP (src/server/http-answers/refund-answers.ts), the one table the
 * server API's refund route and the console's answer with: what the shop's code branches on (the
 * status and the code) and the sentence that says what to do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refundRefusalAnswer, refundRefusalStatus } from '../../../src/server/http-answers/refund-answers.js';
import { RefundRefusal, type RefundRefusalCode } from '../../../src/server/refunds/refund-refusal.js';

describe("a refund's refusal over HTTP", () => {
  it('answers the code and its sentence in the error envelope, under the code’s status', () => {
    const [body, status] = refundRefusalAnswer(new RefundRefusal('EXCEEDS_PAID_AMOUNT', 'At most 2000 XOF is left to refund.'));
    assert.deepEqual(body, { error: { code: 'EXCEEDS_PAID_AMOUNT', message: 'At most 2000 XOF is left to refund.' } });
    assert.equal(status, 422);
  });

  it('groups the codes by what the shop does next: fix the body (400/422), wait or look (409), turn refunds on (403), ask us (500)', () => {
    const codesOf = (status: number) => Object.entries(refundRefusalStatus).flatMap(([code, given]) => (given === status ? [code] : [])).sort();
    assert.deepEqual(codesOf(409), ['NOT_REFUNDABLE', 'REFUND_ID_REUSED', 'REFUND_IN_PROGRESS']);
    assert.deepEqual(codesOf(422), ['AMOUNT_INVALID', 'EXCEEDS_PAID_AMOUNT']);
    assert.deepEqual([codesOf(400), codesOf(403), codesOf(404), codesOf(500)], [['BAD_REQUEST'], ['REFUNDS_DISABLED'], ['NOT_FOUND'], ['NO_PAYOUT_ID']]);
    for (const code of Object.keys(refundRefusalStatus) as RefundRefusalCode[]) assert.equal(refundRefusalAnswer(new RefundRefusal(code, 'why'))[1], refundRefusalStatus[code]);
  });
});
