/**
 * A payment link's page in app mode (`<publicUrl>/l/<linkId>?channel=<name>`, issue 54), as the
 * server answers it: the app page's frame (no header, no link out, no new window) with its bridge
 * script, the link's description and amount as the link page shows them, the app's query checked
 * as the app page checks it and kept on the form and on the payer's checkout's way back from a
 * wallet's approval page, which shows that checkout again (token kept by the bridge under its
 * order) even once the payment used the link up. The outcome in a WebView:
 * test/e2e/app-webview.test.ts and test/engines/app-webview.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatAmount } from '../../../src/contract/money.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { shopOrigin, startHarness, type Harness } from '../harness.js';

const secret = 'test-server-secret-link-app-0123456789abcdef';
const elementDir = mkdtempSync(join(tmpdir(), 'momo-link-app-'));
writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
writeFileSync(join(elementDir, 'momo-checkout-test.js'), '/* the element */');
after(() => rmSync(elementDir, { recursive: true, force: true }));

const store = createMemoryStore();
const appQuery = `channel=shopBridge&return=${encodeURIComponent('shopapp://paid?from=link')}`;
/** An amount as the page writes it, for a pattern. */
const shown = (amount: string, language = 'en') => formatAmount(amount, 'XOF', language).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Nothing an app's WebView cannot stay on: no header, no link out, no new window. */
const outsideTheApp = /<a\b|target=|<header\b|og:|window\.open/;

let h: Harness;
let origin: string;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: elementDir, appReturnSchemes: ['shopapp'], store });
  origin = new URL(h.base).origin;
});
after(() => h?.close());

async function createLink(body: Record<string, unknown>): Promise<{ linkId: string; url: string }> {
  const response = await fetch(`${h.base}/server/links`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 201);
  return (await response.json()) as { linkId: string; url: string };
}

/** The payer's press of the form's button, posted where the form says. */
async function submit(action: string, amount?: string): Promise<{ status: number; html: string; token?: string; orderId?: string }> {
  const response = await fetch(action.replaceAll('&amp;', '&'), {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: amount === undefined ? '' : new URLSearchParams({ amount }).toString(),
  });
  const html = await response.text();
  const token = /<momo-checkout [^>]*token="([^"]+)"/.exec(html)?.[1];
  const orderId = /data-order="([^"]+)"/.exec(html)?.[1];
  return { status: response.status, html, ...(token ? { token } : {}), ...(orderId ? { orderId } : {}) };
}
const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? assert.fail(`no form in ${html}`);

/** Where the return route sends a payer back from the wallet's approval page of `orderId`. */
async function wayBack(orderId: string): Promise<string> {
  const record = await store.getByOrderId(orderId);
  assert.ok(record, 'the checkout exists');
  const response = await fetch(`${h.base}/return/${record.returnId}?outcome=success`, { redirect: 'manual' });
  assert.equal(response.status, 303);
  await response.arrayBuffer();
  return response.headers.get('location')!;
}

describe("a payment link's page in app mode", () => {
  it('is the app page\'s frame with its bridge script, the link\'s description and amount, and a form that keeps the app\'s query', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Pagne wax <6 yards>', amount: '5000' });
    const answer = await fetch(`${link.url}?${appQuery}&lang=fr`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self';.*frame-ancestors 'none'/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const html = await answer.text();
    assert.match(html, /<main class="app" data-channel="shopBridge" data-return="shopapp:\/\/paid\?from=link">\n<p class="description">Pagne wax &lt;6 yards&gt;<\/p>/);
    assert.match(html, new RegExp(`<p class="amount">${shown('5000', 'fr')}</p>`));
    assert.match(html, /<script src="\/momo\/app\/assets\/app\.js" defer><\/script>/);
    assert.match(html, /<meta name="robots" content="noindex">/, 'a page for an app, not for search engines');
    assert.doesNotMatch(html, outsideTheApp);
    const action = new URL(formAction(html).replaceAll('&amp;', '&'));
    assert.deepEqual([...action.searchParams], [['lang', 'fr'], ['channel', 'shopBridge'], ['return', 'shopapp://paid?from=link']]);

    // Without the app's query the page is the link page as it always was.
    const plain = await (await fetch(link.url)).text();
    assert.match(plain, /<header>/);
    assert.doesNotMatch(plain, /app\.js|data-channel/);
  });

  it("answers the payer's checkout in the app's frame, its order named for the bridge, and brings a wallet's approval page back to the page in app mode", async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000' });
    const form = await (await fetch(`${link.url}?${appQuery}`)).text();
    const checkout = await submit(formAction(form));
    assert.equal(checkout.status, 200);
    assert.ok(checkout.token, 'the page holds this payer\'s checkout');
    assert.match(checkout.orderId ?? '', new RegExp(`^${link.linkId}-[0-9a-z]+-1$`));
    assert.match(checkout.html, new RegExp(`data-channel="shopBridge" data-return="shopapp://paid\\?from=link" data-order="${checkout.orderId}">\n<p class="description">Sac</p>\n<p class="amount">${shown('3000')}</p>\n<momo-checkout endpoint="/momo" token="`));
    assert.ok(checkout.html.indexOf('/momo/app/assets/app.js') < checkout.html.indexOf('/momo/l/assets/momo-checkout-test.js'), 'the bridge runs first');
    assert.doesNotMatch(checkout.html, outsideTheApp);

    const back = new URL(await wayBack(checkout.orderId!));
    assert.equal(`${back.origin}${back.pathname}`, link.url, 'not the link\'s returnUrl (the shop\'s web page): the page in the app');
    assert.deepEqual([...back.searchParams], [['channel', 'shopBridge'], ['return', 'shopapp://paid?from=link'], ['momo_return', 'success'], ['momo_order', checkout.orderId]]);

    // The payment completes and uses the single-use link up: the way back still shows the payer's checkout.
    const paid = await h.json('/checkout/pay', { token: checkout.token!, body: { phoneNumber: '+2290196000001' } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    await h.waitFor(checkout.orderId!, (view) => view.state === 'completed');
    assert.equal((await fetch(`${link.url}?${appQuery}`)).status, 410, 'the link takes no other payment');
    const again = await fetch(back);
    assert.equal(again.status, 200);
    const html = await again.text();
    assert.match(html, new RegExp(`data-order="${checkout.orderId}">\\n<p class="description">Sac</p>\\n<p class="amount">${shown('3000')}</p>\\n<momo-checkout endpoint="/momo" lang="en"></momo-checkout>`), 'the token is the one the bridge kept, never in the URL');
    assert.doesNotMatch(html, /token=|<form\b/);

    // Outside an app, the same link's payer still comes back to the link's returnUrl (the shop's web page).
    const reusable = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000', reusable: true });
    const inBrowser = await submit(formAction(await (await fetch(reusable.url)).text()));
    const inBrowserPaid = await h.json('/checkout/pay', { token: inBrowser.token ?? assert.fail('no checkout'), body: { phoneNumber: '+2290196000001' } });
    const browserBack = new URL(await wayBack(inBrowserPaid.body.orderId as string));
    assert.equal(`${browserBack.origin}${browserBack.pathname}`, `${shopOrigin}/checkout`);
  });

  it("sends a reloaded checkout's post (WebKit posts the way back's address again) to that payer's checkout, creating no other", async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000' });
    const first = await submit(formAction(await (await fetch(`${link.url}?${appQuery}`)).text()));
    const reloaded = `${link.url}?${appQuery}&momo_order=${first.orderId}`;
    const again = await fetch(reloaded, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), reloaded);
    const page = await (await fetch(reloaded)).text();
    assert.match(page, new RegExp(`data-order="${first.orderId}">`));
    assert.equal((await store.getByOrderId(first.orderId!.replace(/-1$/, '-2'))), undefined, 'no second checkout');
  });

  it("shows a payer-chosen amount's field, its refusal and the chosen amount in the app's frame", async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Don', minAmount: '1000', maxAmount: '20000', reusable: true });
    const form = await (await fetch(`${link.url}?${appQuery}`)).text();
    assert.match(form, /<input id="amount" name="amount"/);
    const refused = await submit(formAction(form), '50');
    assert.equal(refused.status, 422);
    assert.match(refused.html, /data-channel="shopBridge"[^>]*>\n<p class="description">Don<\/p>/);
    assert.match(refused.html, /class="problem" role="alert"/);
    const chosen = await submit(formAction(form), '2500');
    assert.equal(chosen.status, 200);
    assert.match(chosen.html, new RegExp(`<p class="amount">${shown('2500')}</p>\n<momo-checkout `));
    // Back from a wallet's page the amount is the element's to show: the page is told no amount by an order id anyone could type.
    const back = await (await fetch(await wayBack(chosen.orderId!))).text();
    assert.match(back, /<p class="description">Don<\/p>\n<momo-checkout endpoint="\/momo" lang="en">/);
  });

  it('refuses, as the app page does, a channel that is no script name and a return address of a scheme the shop did not configure, creating nothing', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000' });
    for (const query of ['channel=parent', 'channel=a-b', `return=${encodeURIComponent('https://evil.example/')}`, `channel=shopBridge&return=${encodeURIComponent('otherapp://paid')}`]) {
      const page = await fetch(`${link.url}?${query}`);
      assert.equal(page.status, 400, query);
      const text = await page.text();
      assert.match(text, /JavaScript name|browser uses itself|appReturnSchemes \(shopapp\)/, query);
      assert.doesNotMatch(text, /data-return|evil/, query);
      assert.equal((await submit(`${link.url}?${query}`)).status, 400, query);
    }
    const read = await (await fetch(`${h.base}/server/links/${link.linkId}`, { headers: { authorization: `Bearer ${secret}` } })).json();
    assert.equal(read.payments.length, 0, 'no checkout was claimed');
  });

  it("shows a closed link's page, and another link's order on the way back, as the app's frame says no payment", async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000' });
    const other = await createLink({ currencyCode: 'XOF', description: 'Autre', amount: '3000' });
    const othersCheckout = await submit(formAction(await (await fetch(`${other.url}?${appQuery}`)).text()));
    await fetch(`${h.base}/server/links/${link.linkId}/close`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
    for (const url of [`${link.url}?${appQuery}`, `${link.url}?${appQuery}&momo_order=${othersCheckout.orderId}`, `${link.url}?${appQuery}&momo_order=${link.linkId}-0-1`]) {
      const gone = await fetch(url);
      assert.equal(gone.status, 410, url);
      const html = await gone.text();
      assert.match(html, /<main class="app" data-channel="shopBridge"/);
      assert.doesNotMatch(html, /<momo-checkout|Autre|data-order/);
    }
    const unknown = await fetch(`${h.base}/l/nosuchlink?${appQuery}&momo_order=nosuchlink-0-1`);
    assert.equal(unknown.status, 404);
    assert.doesNotMatch(await unknown.text(), /<momo-checkout|<header\b/);
  });
});
