/**
 * The demo's server-rendered checkout page (issue 11.5, issue 13): the test numbers' countries are
 * named in the page's language, and the order's amounts are shown exactly as written.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutPage, formatMoney } from '../../demo/page.js';
import { orderFromQuery } from '../../demo/order.js';
import { testNumbers } from '../../src/sandbox/catalogue/test-numbers.js';

function page(lang: 'en' | 'fr', query = ''): string {
  const parsed = orderFromQuery(new URLSearchParams(query));
  assert.ok(parsed.ok);
  return checkoutPage({
    order: parsed.order, token: 'ck_x', endpoint: '/momo', lang, service: { kind: 'sandbox', url: 'http://127.0.0.1' },
    testNumbers, otp: '123456',
  });
}

const countryCells = (html: string) => [...html.matchAll(/<tr><td><code>[^<]*<\/code><\/td><td>([^<]*)<\/td>/g)].map((m) => m[1]);

describe('demo checkout page', () => {
  it('names the test numbers\' countries in the page\'s language', () => {
    assert.ok(countryCells(page('fr')).includes('Bénin'));
    assert.ok(countryCells(page('fr')).includes('Sénégal'));
    assert.ok(countryCells(page('en')).includes('Benin'));
    assert.ok(!countryCells(page('fr')).includes('BJ'), 'no bare country code');
  });

  it('shows amounts exactly as the order holds them (no rounding)', () => {
    assert.equal(formatMoney('12.345', 'USD').replace(/\s/g, ' '), '$12.345');
    assert.equal(formatMoney('5000.5', 'XOF').replace(/[\s\u00a0\u202f]/g, ' '), 'F CFA 5,000.5');
    assert.match(page('en', 'amount=12.345&currency=USD'), /\$12\.345/);
  });
});
