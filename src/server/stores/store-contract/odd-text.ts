/**
 * The contract's cases of odd text (part of `momo-checkout/store-contract`, issue 55): a store keeps
 * every string of a record exactly as written, whatever it holds, as the file store does. The texts
 * come from outside: a refund's reason from the merchant, a pay-out's failure reason and category,
 * a status, an operator's name from the service. A NUL, or half of an emoji cut by `slice` (a lone
 * UTF-16 surrogate), is text a JavaScript string holds and JSON writes (`\u0000`, `\ud83d`); a
 * backend that cannot hold it as such (PostgreSQL's text) must keep it in a form it gives back
 * unchanged, never refuse the write: a refused write of a notification's outcome was a refund left
 * `pending` for ever (issue 55).
 *
 * And a lookup by an id no record can hold (a NUL, a lone surrogate: ids are refused with them at
 * the edge, model/id-text.ts) answers none, never an error: a notification naming such an order
 * is then ignored, not retried for ever.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckoutRecord, InboxEntry } from '../../model/records.js';
import { nextSampleNumber, sampleRecord, sampleRefund, withPayment, type MakeStore } from './samples.js';

/** Texts a store must give back as written: each a case seen or feared (issue 55). */
export const oddTexts: readonly string[] = [
  'a NUL \u0000 inside',
  '\u0000',
  'half an emoji \ud83d',
  'its other half \ude00 alone',
  'both halves reversed \ude00\ud83d',
  'a whole emoji 😀 and a flag 🇧🇯',
  'the escapes written out: \\u0000 \\ud83d \\\\u0000',
  'controls \u0001\u0008\u001f\u007f\u0085',
  'noncharacters \ufdd0 \ufdd0\ufdd0 \ufdd00000 \ufdd0d83d \uffff \ufffe',
  'a BOM \ufeff, a replacement \ufffd, a right-to-left override \u202e',
  'quotes " \' and a backslash \\ at the end \\',
];

/** An inbox entry with any lone surrogate as U+FFFD, as a UTF-8 encoder writes it. */
const wellFormed = (entry: InboxEntry) => ({ ...entry, id: entry.id.replace(/\p{Cs}/gu, '\ufffd'), rawBody: entry.rawBody.replace(/\p{Cs}/gu, '\ufffd') });

export function runOddTextContract(makeStore: MakeStore): void {
  describe('odd text (issue 55)', () => {
    it('keeps NUL, lone surrogates and other odd text in every string of a record, and gives it back as written by every read', async () => {
      const clock = 1_000_000;
      const store = await makeStore({ now: () => clock });
      const created = sampleRecord({ returnUrl: `https://shop.example/back?note=${oddTexts.join('|')}` });
      assert.equal((await store.createIfAbsent(created)).created, true);
      assert.deepEqual(await store.getByOrderId(created.orderId), created);

      const serviceOrderId = `${created.orderId}-odd`;
      const paid = withPayment(created, serviceOrderId, 1, 'completed', 500);
      const operator = { code: 'odd', name: `Operator ${oddTexts[2]}${oddTexts[0]}`, logoUrl: 'https://service.example/odd.png', instructions: oddTexts.join('\n') };
      const payment = { ...paid.payment!, operator, lastServiceStatus: oddTexts[8]! };
      const refunds = oddTexts.map((text, index) => ({
        ...sampleRefund(`rf-odd-${index}`, `${created.orderId}-r${index + 1}`, '10'),
        reason: text,
        // One left `pending` (held for support until its notification) so the record is in the support view.
        state: index === 0 ? ('pending' as const) : ('failed' as const),
        failureReason: index === 0 ? null : text,
        failureCategory: index === 0 ? null : `${text} (category)`,
      }));
      const written: CheckoutRecord = { ...paid, payment, refunds, timeline: oddTexts.map((status, at) => ({ kind: 'notification' as const, at, status, serviceOrderId })) };
      assert.equal(await store.compareAndSet(created.orderId, 0, written), true, 'the write of odd text is kept, not refused');

      assert.deepEqual(await store.getByOrderId(created.orderId), written, 'by order id');
      assert.deepEqual(await store.getByServiceOrderId(serviceOrderId), written, 'by service order id');
      assert.deepEqual(await store.getByTokenHash(created.tokenHash), written, 'by token hash');
      assert.deepEqual(await store.getByReturnId(created.returnId), written, 'by return id');
      assert.deepEqual((await store.listPayments({ limit: 1_000 })).find((record) => record.orderId === created.orderId), written, 'in the payments list');
      if (store.listNeedingSupport) assert.deepEqual((await store.listNeedingSupport()).find((record) => record.orderId === created.orderId), written, 'in the support view');
      if (store.listPaymentsCreated) {
        const page = await store.listPaymentsCreated({ from: 0, to: 1, limit: 1_000 });
        assert.deepEqual(page.find((record) => record.orderId === created.orderId), written, 'in the export');
      }
      if (store.countPayments) {
        const counts = await store.countPayments(500, 501);
        // A column of UTF-8 text (SQLite's, a Redis key) holds a lone surrogate as U+FFFD: a count's name may read so.
        const names = [operator.name, operator.name.replace(/\p{Cs}/gu, '\ufffd')];
        assert.ok(counts.some((count) => names.includes(count.operator)), `the operator counted under its name as written, among ${JSON.stringify(counts)}`);
      }

      // Written again over itself (a later notification's write), the text still comes back as it was.
      const again = { ...written, revision: written.revision + 1 };
      assert.equal(await store.compareAndSet(created.orderId, written.revision, again), true);
      assert.deepEqual(await store.getByOrderId(created.orderId), again);
      await store.close?.();
    });

    it('keeps an inbox entry whose id and body hold odd text, gives it back as written, and marks it done', async () => {
      const store = await makeStore({ now: () => 1_000_000 });
      const n = nextSampleNumber();
      const entries = oddTexts.map((text, index) => ({ id: `odd-nonce-${n}-${index}-${text}`, rawBody: `{"failureReason":${JSON.stringify(text)},"raw":"${text}"}`, receivedAt: 1_000 + index }));
      for (const entry of entries) assert.equal(await store.addToInbox(entry, 60_000), true, JSON.stringify(entry.id));
      assert.equal(await store.addToInbox(entries[0]!, 60_000), false, 'a duplicate is known by its id as written');
      const ours = async () => (await store.pendingInbox(10_000)).filter((entry) => entry.id.startsWith(`odd-nonce-${n}-`));
      // A body arrives as UTF-8 (no lone surrogate survives it), so a store keeping it as UTF-8 text
      // (SQLite's, Redis's) may give one back as U+FFFD; a NUL and the rest come back as written.
      assert.deepEqual((await ours()).map(wellFormed), entries.map(wellFormed));
      for (const entry of entries) await store.markInboxDone(entry.id);
      assert.deepEqual(await ours(), [], 'every entry left the inbox');
      await store.close?.();
    });

    it('answers none, never an error, for a lookup by an id holding a NUL or a lone surrogate', async () => {
      const store = await makeStore({ now: () => 1_000_000 });
      const record = sampleRecord();
      await store.createIfAbsent(record);
      for (const id of [`${record.orderId}\u0000`, `${record.orderId}\ud83d`, '\u0000', '\udc00']) {
        assert.equal(await store.getByOrderId(id), undefined, JSON.stringify(id));
        assert.equal(await store.getByServiceOrderId(id), undefined, JSON.stringify(id));
        assert.equal(await store.getByTokenHash(id), undefined, JSON.stringify(id));
        assert.equal(await store.getByReturnId(id), undefined, JSON.stringify(id));
      }
      await store.close?.();
    });
  });
}
