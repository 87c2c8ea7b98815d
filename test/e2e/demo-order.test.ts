/**
 * The demo's query-string order (issue 4 §2): `?amount=&currency=` set the order on the SERVER,
 * a new order id per load unless `?order=` is given, and a wrong value is a message, not a throw.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { orderFromQuery, orderQuery } from '../../demo/order.js';

const parse = (query: string) => orderFromQuery(new URLSearchParams(query));

describe('demo order from the query string', () => {
  it('defaults to the shop basket of 5000 XOF, with item lines that add up to the total', () => {
    const result = parse('');
    assert.ok(result.ok);
    assert.equal(result.order.amount, '5000');
    assert.equal(result.order.currencyCode, 'XOF');
    assert.equal(result.order.lines.reduce((sum, line) => sum + Number(line.amount), 0), 5000);
  });

  it('takes the amount and currency as written (exact decimal string, upper-cased code)', () => {
    const result = parse('amount=12.50&currency=usd');
    assert.ok(result.ok);
    assert.equal(result.order.amount, '12.50');
    assert.equal(result.order.currencyCode, 'USD');
  });

  it('makes a new order id per load, and keeps the one given with ?order=', () => {
    const first = parse('');
    const second = parse('');
    assert.ok(first.ok && second.ok);
    assert.notEqual(first.order.orderId, second.order.orderId);
    const kept = parse('order=shop-42');
    assert.ok(kept.ok);
    assert.equal(kept.order.orderId, 'shop-42');
  });

  for (const [query, words] of [
    ['amount=abc', 'not a positive number'],
    ['amount=0', 'not a positive number'],
    ['amount=-5', 'not a positive number'],
    ['amount=1e3', 'not a positive number'],
    ['amount=1,000', 'not a positive number'],
    ['currency=X1', 'not a currency code'],
    ['order=<script>', 'order id may only hold'],
    ['expiry=0', 'seconds to wait'],
  ] as const) {
    it(`refuses ?${query} with a message that says what to write`, () => {
      const result = parse(query);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && result.message.includes(words), !result.ok ? result.message : '');
    });
  }

  it('the return query brings the payer back to the same order (and custom amount)', () => {
    const sample = parse('order=o-1');
    assert.ok(sample.ok);
    assert.equal(orderQuery(sample.order), 'order=o-1');
    const custom = parse('order=o-2&amount=700&currency=XAF&expiry=5');
    assert.ok(custom.ok);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(orderQuery(custom.order))), { order: 'o-2', amount: '700', currency: 'XAF', expiry: '5' });
  });
});
