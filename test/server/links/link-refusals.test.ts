/**
 * Issue 55's item 4 on payment links: an impossible date refused, never moved (a link's expiry, the
 * export's window); a currency whose decimals the service has not said yet (USDC on a fresh process)
 * takes at most 2 on a link; a description counted in characters, not UTF-16 units; the page a payer
 * sees when the element's files are missing or the store does not answer (never "closed", never JSON).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createRedisStore } from '../../../src/server/index.js';
import { linkAmountDecimals, linkFromRequest, payerAmountOf } from '../../../src/server/links/link-rules.js';
import { silentLogger } from '../../../src/server/log.js';
import { exportWindow } from '../../../src/server/payments/export-window.js';
import { startRedisServer } from '../../support/redis-server.js';
import { startHarness } from '../harness.js';

const secret = 'test-server-secret-link-refusals-0123456789';
const freshProcess = { decimalPlaces: null, lowestMinimum: null, served: null, servedCurrencies: null };
const request = (fields: Record<string, unknown>) =>
  linkFromRequest({ currencyCode: 'XOF', description: 'Pagne wax', amount: '5000', ...fields } as never, { linkId: 'L', now: Date.parse('2026-11-20T00:00:00Z'), facts: freshProcess, defaultReturnUrl: null });

describe('payment links: what is refused, and how', () => {
  it('refuses an expiry on a day the calendar does not have, and one without a zone, instead of moving it', () => {
    for (const expiresAt of ['2027-02-30T00:00:00Z', '2027-02-29T12:00:00Z', '2026-11-31T10:00:00+01:00', '2026-12-01T24:00:00Z', '2026-12-31T23:59:00']) {
      assert.throws(() => request({ expiresAt }), /expiresAt must be an ISO 8601 time on a real day, with its zone/, expiresAt);
    }
    assert.equal(request({ expiresAt: '2027-02-28T23:59:00Z' }).expiresAt, Date.parse('2027-02-28T23:59:00Z'));
    assert.equal(request({ expiresAt: '2026-12-01T10:00:00+01:00' }).expiresAt, Date.parse('2026-12-01T09:00:00Z'));
  });

  it("refuses an export window's impossible day (a February file never takes 1-2 March)", () => {
    assert.throws(() => exportWindow({ from: '2026-02-30', to: '2026-03-01' }, Date.now()), /2026-02-30 is not a day of the calendar: from must be/);
    assert.throws(() => exportWindow({ from: '2026-02-01', to: '2026-02-29T00:00:00Z' }, Date.now()), /2026-02-29 is not a day of the calendar: to must be/);
    assert.deepEqual(exportWindow({ from: '2024-02-01', to: '2024-02-29' }, Date.now()), { from: Date.UTC(2024, 1, 1), to: Date.UTC(2024, 1, 29) }, 'a leap year has its 29th');
  });

  it('takes at most 2 decimals in USDC before the service has said its figure (a fresh process), and says why', () => {
    assert.throws(() => request({ currencyCode: 'USDC', amount: '1.234' }), /at most 2 decimals.*stand in until the payment service tells this companion USDC's own figure/);
    assert.equal(request({ currencyCode: 'USDC', amount: '1.23' }).amount, '1.23');
    const bounded = request({ currencyCode: 'USDC', amount: undefined, minAmount: '1', maxAmount: '50' });
    assert.deepEqual(payerAmountOf(bounded, '1.234', linkAmountDecimals('USDC', freshProcess)), { ok: false, problem: 'too-precise' }, "the payer's page says: at most 2 decimals");
    assert.equal(linkAmountDecimals('USDC', { decimalPlaces: 3 }), 3, "the service's figure once said");
  });

  it('counts a description in characters: 200 emoji are taken, 201 are not', () => {
    assert.equal([...request({ description: '🎉'.repeat(200) }).description].length, 200);
    assert.throws(() => request({ description: '🎉'.repeat(201) }), /1 to 200 characters/);
  });
});

describe("payment links: the page when it cannot be made", () => {
  it('missing element files: 503 saying the page cannot open now, in the payer\'s language, never "closed"', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'momo-no-element-'));
    const h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, elementAssetsDir: empty });
    try {
      const created = await fetch(`${h.base}/server/links`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ currencyCode: 'XOF', description: 'Sac', amount: '3000' }) });
      const link = await created.json();
      const answer = await fetch(link.url, { method: 'POST', headers: { origin: new URL(h.base).origin, 'accept-language': 'fr', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      assert.equal(answer.status, 503);
      const html = await answer.text();
      assert.match(html, /Cette page de paiement ne peut pas s&#39;ouvrir pour le moment\./);
      assert.doesNotMatch(html, /fermé/);
      assert.equal((await fetch(link.url)).status, 200, 'the link is still open');
    } finally {
      await h.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("the store not answering (Redis stopped): a 503 page in the payer's language with Retry-After, never JSON", async () => {
    const redis = await startRedisServer();
    const store = await createRedisStore({ url: redis.url, log: silentLogger });
    const h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, store });
    try {
      const created = await fetch(`${h.base}/server/links`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ currencyCode: 'XOF', description: 'Sac', amount: '3000' }) });
      const link = await created.json();
      await redis.stop();
      for (const init of [{}, { method: 'POST', headers: { origin: new URL(h.base).origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }]) {
        const answer = await fetch(`${link.url}?lang=pt`, init);
        assert.equal(answer.status, 503);
        assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
        assert.ok(answer.headers.get('retry-after'));
        assert.match(await answer.text(), /Esta página de pagamento não pode abrir neste momento\./);
      }
    } finally {
      await h.close();
      await store.close?.();
      await redis.stop();
    }
  });
});
