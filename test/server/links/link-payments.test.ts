/**
 * Paying through a payment link over real HTTP, with the sandbox as the payment service (issue 44):
 * the link's page (its card's meta, the payer's language, 410 once it takes no payment), a payer's
 * checkout created from its form, the pay-in through the ordinary page routes, the merchant's
 * notification carrying `linkId`, the link's payments list; a second payer on a single-use link
 * refused with LINK_USED before any pay-in; a failed payment freeing the link; a reusable link with
 * bounds taking two payments of different amounts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatAmount } from '../../../src/contract/money.js';
import { startHarness, type Harness } from '../harness.js';

const secret = 'test-server-secret-link-pay-0123456789abcdef';
const numbers = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };
const elementDir = mkdtempSync(join(tmpdir(), 'momo-link-element-'));
writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
writeFileSync(join(elementDir, 'momo-checkout-test.js'), '/* the element */');

let h: Harness;
let origin: string;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: elementDir });
  origin = new URL(h.base).origin;
});
after(async () => {
  await h.close();
  rmSync(elementDir, { recursive: true, force: true });
});

async function createLink(body: Record<string, unknown>): Promise<{ linkId: string; url: string }> {
  const response = await fetch(`${h.base}/server/links`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 201);
  return (await response.json()) as { linkId: string; url: string };
}
async function readLink(linkId: string): Promise<any> {
  return (await fetch(`${h.base}/server/links/${linkId}`, { headers: { authorization: `Bearer ${secret}` } })).json();
}

/** A payer's press of the page's button: the page with their checkout, or the answer's status and text. */
async function openCheckout(url: string, amount?: string): Promise<{ status: number; html: string; token?: string; orderId?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: amount === undefined ? '' : new URLSearchParams({ amount }).toString(),
  });
  const html = await response.text();
  const token = /<momo-checkout [^>]*token="([^"]+)"/.exec(html)?.[1];
  return { status: response.status, html, ...(token ? { token } : {}) };
}
const pay = (token: string, phoneNumber: string) => h.json('/checkout/pay', { token, body: { phoneNumber } });
const payIns = () => h.sandbox.control.transactions().length;

describe('payment links: paying through one', () => {
  it('lets search engines index a reusable link\'s page only: a single-use link, a payer\'s checkout and a closed link are noindex', async () => {
    const noindex = /<meta name="robots" content="noindex">/;
    const shopPage = await createLink({ currencyCode: 'XOF', description: 'Pagne wax, for anyone', amount: '5000', reusable: true });
    assert.doesNotMatch(await (await fetch(shopPage.url)).text(), noindex, 'a reusable link is a page the shop posts publicly');
    const invoice = await createLink({ currencyCode: 'XOF', description: 'Order 18 for one buyer', amount: '5000' });
    assert.match(await (await fetch(invoice.url)).text(), noindex, 'a single-use link is one buyer\'s');
    assert.match((await openCheckout(shopPage.url)).html, noindex, 'a payer\'s checkout holds their token');
    const closed = await fetch(`${h.base}/server/links/${invoice.linkId}/close`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
    assert.equal(closed.status, 200, await closed.text());
    const gone = await fetch(invoice.url);
    assert.equal(gone.status, 410);
    assert.match(await gone.text(), noindex);
  });

  it('shows the page with its card, takes one payment, tells the merchant with linkId, and then answers 410', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Pagne wax <6 yards>', amount: '5000' });
    const page = await fetch(link.url, { headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    const html = await page.text();
    assert.match(html, /<html lang="fr">/, 'the payer\'s language from Accept-Language');
    assert.match(html, /<meta property="og:site_name" content="Maison Adjoa">/);
    assert.match(html, /<meta property="og:description" content="5\s?000\s?F\s?CFA · Pagne wax &lt;6 yards&gt;">/, 'the amount and the description, escaped');
    assert.match(html, /<meta name="twitter:card" content="summary">/);
    assert.doesNotMatch(html, /<script>|style=/, 'no inline script or style');
    assert.match(await (await fetch(`${link.url}?lang=sw`)).text(), /<html lang="sw">/, '?lang= first');
    // By the whole primary subtag, as the console chooses (contract/languages.ts): North Frisian is not French.
    assert.match(await (await fetch(link.url, { headers: { 'accept-language': 'frr,pt;q=0.8' } })).text(), /<html lang="pt">/, 'frr is not fr');
    assert.equal(payIns(), payIns(), 'opening the page posts nothing');

    const before = payIns();
    const checkout = await openCheckout(link.url);
    assert.equal(checkout.status, 200);
    assert.ok(checkout.token, 'the page holds this payer\'s checkout');
    assert.equal(payIns(), before, 'no pay-in before the payer pays');
    const paid = await pay(checkout.token!, numbers.approve);
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const orderId = paid.body.orderId as string;
    assert.match(orderId, new RegExp(`^${link.linkId}-[0-9a-z]+-1$`), 'the order id is derived from the link');
    await h.waitFor(orderId, (view) => view.state === 'completed');

    const read = await readLink(link.linkId);
    assert.equal(read.state, 'used-up');
    assert.deepEqual(read.payments.map((payment: any) => [payment.orderId, payment.state, payment.amount]), [[orderId, 'completed', '5000']]);
    const update = h.updates.find((u) => u.orderId === orderId && u.payment.state === 'completed');
    assert.equal(update?.linkId, link.linkId, 'the merchant\'s notification carries the link');
    const csv = await (await fetch(`${h.base}/server/payments`, { headers: { authorization: `Bearer ${secret}`, accept: 'text/csv' } })).text();
    const header = csv.replace(/^\uFEFF/, '').split('\r\n')[0]!.split(',');
    const row = csv.split('\r\n').find((line) => line.includes(orderId))!.split(',');
    assert.equal(row[header.indexOf('"link_id"')], `"${link.linkId}"`, "the export's link_id column names the link");

    const gone = await fetch(link.url, { headers: { 'accept-language': 'fr' } });
    assert.equal(gone.status, 410);
    assert.match(await gone.text(), /Ce lien de paiement a déjà été utilisé\./);
    assert.equal((await openCheckout(link.url)).status, 410, 'and creates no checkout');
  });

  it('refuses a second payer on a single-use link with LINK_USED before any pay-in, and frees the link when the first payment fails', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Sac', amount: '3000' });
    const first = await openCheckout(link.url);
    const second = await openCheckout(link.url);
    assert.ok(first.token && second.token, 'both payers opened the page before anyone paid');
    // The first payer never answers the prompt: their payment stays pending, holding the link.
    const firstPay = await pay(first.token!, numbers.noAnswer);
    assert.equal(firstPay.status, 200);
    const before = payIns();
    const refused = await pay(second.token!, numbers.approve);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'LINK_USED');
    assert.match(refused.body.error.message, /just used by someone else, so nothing was sent to your phone/);
    assert.equal(payIns(), before, 'no pay-in posted for the second payer');

    await h.sandbox.control.settle(firstPay.body.orderId, 'failed');
    await h.waitFor(firstPay.body.orderId, (view) => view.state === 'failed');
    // The failure frees the link (transitions tell it); the second payer may now pay.
    const retried = await pay(second.token!, numbers.approve);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    await h.waitFor(retried.body.orderId, (view) => view.state === 'completed');
    assert.equal((await readLink(link.linkId)).state, 'used-up');
  });

  it('a reusable link with bounds takes two payments of different amounts, and refuses one out of bounds with a sentence', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Don', minAmount: '1000', maxAmount: '20000', reusable: true, maxPayments: 2 });
    const form = await (await fetch(link.url)).text();
    assert.match(form, /<input id="amount" name="amount"/);
    const outside = await openCheckout(link.url, '50000');
    assert.equal(outside.status, 422);
    assert.ok(outside.html.includes(`Enter an amount from ${formatAmount('1000', 'XOF', 'en')} to ${formatAmount('20000', 'XOF', 'en')}.`), outside.html);
    assert.equal(outside.token, undefined);
    const orderIds: string[] = [];
    for (const amount of ['1500', '12000']) {
      const checkout = await openCheckout(link.url, amount);
      assert.equal(checkout.status, 200, checkout.html);
      const paid = await pay(checkout.token!, numbers.approve);
      await h.waitFor(paid.body.orderId, (view) => view.state === 'completed');
      orderIds.push(paid.body.orderId);
    }
    const read = await readLink(link.linkId);
    assert.deepEqual(read.payments.map((payment: any) => [payment.state, payment.amount]), [['completed', '1500'], ['completed', '12000']]);
    assert.equal(read.completedPayments, 2);
    assert.equal(read.state, 'used-up', 'its cap of two reached');
    const sandboxAmounts = orderIds.map((orderId) => h.sandbox.control.transaction(orderId)?.amount);
    assert.deepEqual(sandboxAmounts.map(String), ['1500', '12000'], 'the service was asked for each payer\'s own amount');
  });

  it("refuses a payer's amount it cannot take with a sentence in the payer's language, and takes digits grouped by spaces as the page writes them", async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Cotisation', minAmount: '1000', maxAmount: '20000', reusable: true });
    const refusals: Array<[string, string, string]> = [
      ['fr', '12,5', 'Écrivez le montant en chiffres, par exemple 2500.'],
      ['fr', '1500.5', "Cette monnaie n&#39;a pas de décimales : saisissez un montant entier."],
      ['fr', '', 'Saisissez le montant que vous payez.'],
      ['fr', '50 000', `Saisissez un montant de ${formatAmount('1000', 'XOF', 'fr')} à ${formatAmount('20000', 'XOF', 'fr')}.`],
      ['pt', 'mil', 'Escreva o montante em algarismos, por exemplo 2500.'],
      ['sw', '0', `Weka kiasi kuanzia ${formatAmount('1000', 'XOF', 'sw')} hadi ${formatAmount('20000', 'XOF', 'sw')}.`],
      ['ar', '-3000', 'اكتب المبلغ بالأرقام، مثل 2500.'],
      ['en', '2 50', 'Write the amount in digits, such as 2500.'],
    ];
    for (const [lang, typed, sentence] of refusals) {
      const answer = await openCheckout(`${link.url}?lang=${lang}`, typed);
      assert.equal(answer.status, 422, `${lang} ${JSON.stringify(typed)}`);
      assert.ok(answer.html.includes(`<p id="problem" class="problem" role="alert">${sentence}</p>`), `${lang} ${JSON.stringify(typed)}: ${answer.html.match(/<p id="problem"[^<]*<\/p>/)?.[0]}`);
      assert.equal(answer.token, undefined, 'no checkout for a refused amount');
    }
    // "2 500" as the French page writes "1 000": a space, a no-break space, a narrow no-break space.
    for (const typed of ['2 500', '2\u00a0500', '12\u202f000']) {
      const answer = await openCheckout(`${link.url}?lang=fr`, typed);
      assert.equal(answer.status, 200, `${JSON.stringify(typed)}: ${answer.html.match(/<p id="problem"[^<]*<\/p>/)?.[0]}`);
      const checkout = await h.json('/checkout', { token: answer.token! });
      assert.equal(checkout.body.amount, typed.replace(/\D/g, ''), 'the amount as typed, digits only: never guessed or rounded');
    }
  });

  it('keeps the language the link was opened in (?lang=) for the payer\'s checkout, whatever the browser speaks', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Pagne', amount: '5000' });
    const opened = await (await fetch(`${link.url}?lang=fr`, { headers: { 'accept-language': 'en-US' } })).text();
    assert.ok(opened.includes(`<form method="post" action="${link.url}?lang=fr">`), opened);
    const plain = await (await fetch(link.url, { headers: { 'accept-language': 'fr' } })).text();
    assert.ok(plain.includes(`<form method="post" action="${link.url}">`), 'no ?lang= asked: the browser\'s language on every page');
    const checkout = await fetch(`${link.url}?lang=fr`, { method: 'POST', headers: { origin, 'accept-language': 'en-US', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.match(await checkout.text(), /<html lang="fr">[\s\S]*<momo-checkout [^>]*lang="fr">/);
  });

  it('answers an expired link and an unknown one with their pages (410, 404), and a closed one with 410', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'Bientôt fini', amount: '1000', expiresAt: new Date(Date.now() + 1_500).toISOString() });
    assert.equal((await fetch(link.url)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const expired = await fetch(`${link.url}?lang=en`);
    assert.equal(expired.status, 410);
    assert.match(await expired.text(), /This payment link has expired\.[\s\S]*Nothing was charged\. Ask Maison Adjoa for a new link\./);
    const unknown = await fetch(`${h.base}/l/AAAAAAAAAAAAAAAAAAAAAA`);
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /This payment link does not exist\./);
    const closing = await createLink({ currencyCode: 'XOF', description: 'Fermé', amount: '1000' });
    await fetch(`${h.base}/server/links/${closing.linkId}/close`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
    assert.equal((await fetch(closing.url)).status, 410);
  });

  it('refuses a form posted from another site', async () => {
    const link = await createLink({ currencyCode: 'XOF', description: 'x', amount: '1000' });
    const response = await fetch(link.url, { method: 'POST', headers: { origin: 'https://elsewhere.example', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(response.status, 403);
  });

  it('tells the payer, in their language, when no operator takes the amount, and creates no checkout', async () => {
    // The earlier payments taught discovery the operators' minimums for XOF (payments/payable.ts).
    const link = await createLink({ currencyCode: 'XOF', description: 'Bonbon', amount: '1' });
    const answer = await fetch(`${link.url}?lang=fr`, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(answer.status, 422);
    const html = await answer.text();
    assert.match(html, /Ce montant ne peut pas être payé par mobile money\. Rien n&#39;a été débité : contactez Maison Adjoa\./);
    assert.doesNotMatch(html, /<momo-checkout/);
  });
});
