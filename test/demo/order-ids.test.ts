/**
 * Every order the demo's generator makes is accepted (issue 26): `demo-<time>-<6 hex>` is
 * `demo-<time>-a03872` whenever the hex is an "a" and five digits, a form the companion once
 * refused as reserved for retries (about 1 new demo order in 80).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderId } from '../../demo/order.js';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { silentLogger } from '../../src/server/log.js';

let demo: RunningDemo;
before(async () => {
  demo = await startDemo({ port: 0, log: () => {}, companionLog: silentLogger, bundle: { code: Buffer.from(''), gzipBytes: 0, buildMs: 0 } });
});
after(async () => demo.close());

describe('demo order ids', () => {
  it('accepts 400 new demo orders in a row, every tenth one of the form "-a" and five digits', async () => {
    const ids = Array.from({ length: 400 }, (_, index) =>
      // "a0" then the index in four digits: a valid 3-byte hex, and the form the issue met.
      index % 10 === 0 ? newOrderId(Buffer.from(`a0${String(index).padStart(4, '0')}`, 'hex')) : newOrderId(),
    );
    assert.ok(ids.some((id) => /-a\d{5}$/.test(id)), 'the generator makes the "-a<digits>" form');
    const refused: string[] = [];
    for (const orderId of ids) {
      try {
        await demo.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      } catch (error) {
        refused.push(`${orderId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    assert.deepEqual(refused, []);
  });

  it('places 400 new orders from the page in a row, none refused', async () => {
    const statuses = new Map<number, number>();
    for (let index = 0; index < 400; index++) {
      const answer = await fetch(`${demo.url}/`, { redirect: 'manual' });
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 200: 400 }, 'each new order is placed and shown (at once, no redirect)');
  });
});
