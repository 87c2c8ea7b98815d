import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { $, calls, checkout, e164, enterNumber, lookupAnswer, mount, operator, text, typeInto } from './fixtures.js';

describe('<momo-checkout> number step', () => {
  it('shows the amount and a labelled phone field with the right autofill hints', async () => {
    const m = await mount();
    expect(text(m.root)).to.match(/5[\s,.\u202f\u00a0]?000/);
    const input = $(m.root, 'input#phone') as HTMLInputElement;
    expect(input.getAttribute('autocomplete')).to.equal('tel');
    expect(input.getAttribute('inputmode')).to.equal('tel');
    expect(input.getAttribute('type')).to.equal('tel');
    expect(input.getAttribute('part')).to.equal('phone-input');
    expect(m.root.querySelector('label[for="phone"]')?.textContent).to.equal('Mobile money number');
    const options = [...m.root.querySelectorAll('select#country option')].map((o) => (o as HTMLOptionElement).value);
    expect(options).to.deep.equal(['BJ', 'CI'], 'only the countries the checkout serves');
    await expect(m.el).to.be.accessible();
  });

  it('shows the amount exactly as the order holds it, never rounded', async () => {
    const odd = await mount({ checkout: { ...checkout, amount: '5000.5' } });
    expect(text(odd.root)).to.contain('5,000.5');
    expect(text(odd.root)).not.to.contain('5,001');
    const usd = await mount({ checkout: { ...checkout, amount: '12.345', currencyCode: 'USD', decimalPlaces: 2 } });
    expect(text(usd.root)).to.contain('$12.345');
    await enterNumber(usd);
    expect($(usd.root, '[part="submit-button"]').textContent).to.contain('Pay $12.345');
    const cents = await mount({ checkout: { ...checkout, amount: '12.5', currencyCode: 'USD', decimalPlaces: 2 } });
    expect(text(cents.root)).to.contain('$12.50');
  });

  it('names the countries in the payer\'s language, with their calling codes', async () => {
    const en = await mount();
    const labels = (m: typeof en) => [...m.root.querySelectorAll('select#country option')].map((o) => o.textContent);
    expect(labels(en)).to.deep.equal(['Benin (+229)', 'Côte d’Ivoire (+225)']);
    const fr = await mount({}, { lang: 'fr' });
    expect(labels(fr)).to.deep.equal(['Bénin (+229)', 'Côte d’Ivoire (+225)']);
    const cm = await mount({ checkout: { ...checkout, countries: [{ code: 'SN', name: 'Senegal', dialCode: '+221' }, { code: 'CM', name: 'Cameroon', dialCode: '+237' }] } }, { lang: 'fr' });
    expect(labels(cm)).to.deep.equal(['Cameroun (+237)', 'Sénégal (+221)'], 'in French alphabetical order');
  });

  for (const [lang, message] of [
    ['en', 'This order cannot be paid with mobile money. Contact the shop.'],
    ['fr', 'Cette commande ne peut pas être payée par mobile money. Contactez la boutique.'],
  ] as const) {
    it(`never leaves the payer on an empty country list (${lang})`, async () => {
      const m = await mount({ checkout: { ...checkout, countries: [] } }, { lang, until: 'error' });
      expect(text(m.root)).to.contain(message);
      expect(m.root.querySelector('select')).to.equal(null);
      expect(m.root.querySelector('input#phone')).to.equal(null);
      const error = m.events.find((e) => e.type === 'momo-error') as Event & { detail: { code: string } };
      expect(error.detail.code).to.equal('ORDER_NOT_PAYABLE');
      expect(calls(m.client, 'subscribe')).to.have.length(0);
      await expect(m.el).to.be.accessible();
    });
  }

  it('shows the number field at once: the payer types while the checkout loads, and it is looked up when it answers', async () => {
    let answer: (view: typeof checkout) => void = () => {};
    const held = new Promise<typeof checkout>((resolve) => (answer = resolve));
    const { fixture, html } = await import('@open-wc/testing');
    const { createScriptedClient } = await import('../../src/client/scripted-client.js');
    const client = createScriptedClient({ checkout: () => held, lookup: lookupAnswer(), preview: { workflow: 'provider_auth' } });
    const el = await fixture<import('../../src/element/momo-checkout.js').MomoCheckout>(
      html`<momo-checkout lang="fr" country="BJ" .validationDelayMs=${20} .client=${client}></momo-checkout>`,
    );
    const root = el.shadowRoot!;
    expect(el.status).to.equal('loading');
    const input = $(root, 'input#phone') as HTMLInputElement;
    expect(input.disabled).to.equal(false);
    expect([...root.querySelectorAll('select#country option')].map((o) => o.textContent)).to.deep.equal(['Bénin (+229)']);
    expect(text(root)).to.contain('Chargement du paiement');
    await expect(el).to.be.accessible();
    // A mistake is said while it loads (the check is local)...
    typeInto(input, '01 97');
    await waitUntil(() => root.querySelector('#phone-error'), 'no message while loading');
    // ...and a good number waits for the checkout, then goes on by itself.
    typeInto(input, '01 97 00 00 00');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls(client, 'lookup')).to.have.length(0);
    expect(root.querySelector('#phone-error')).to.equal(null);
    answer(checkout);
    await waitUntil(() => el.status === 'ready', `stuck in ${el.status}`);
    expect(calls(client, 'lookup')).to.deep.equal([{ phoneNumber: e164, country: 'BJ' }]);
    expect(text(root)).to.match(/5[\s\u202f\u00a0]000/);
    expect(($(root, 'input#phone') as HTMLInputElement).value).to.equal('01 97 00 00 00');
  });

  it('starts from a checkout view the page embedded: no first request, amount and countries at once', async () => {
    const { fixture, html } = await import('@open-wc/testing');
    const { createScriptedClient } = await import('../../src/client/scripted-client.js');
    const client = createScriptedClient({ checkout, lookup: lookupAnswer(), preview: { workflow: 'provider_auth' } });
    const el = await fixture<import('../../src/element/momo-checkout.js').MomoCheckout>(
      html`<momo-checkout lang="en" checkout-view=${JSON.stringify(checkout)} .client=${client}></momo-checkout>`,
    );
    expect(el.status).to.equal('entering');
    expect(text(el.shadowRoot!)).to.match(/5,000/);
    expect(client.calls.map((call) => call.method)).to.deep.equal(['subscribe'], 'the stream still carries the payment');
  });

  it('ignores an embedded view that is malformed (with a console warning) or expired, and asks the companion', async () => {
    const { fixture, html } = await import('@open-wc/testing');
    const { createScriptedClient } = await import('../../src/client/scripted-client.js');
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    try {
      for (const view of ['{"orderId":', JSON.stringify({ ...checkout, expiresAt: '2001-01-01T00:00:00Z' })]) {
        const client = createScriptedClient({ checkout });
        const el = await fixture<import('../../src/element/momo-checkout.js').MomoCheckout>(
          html`<momo-checkout lang="en" checkout-view=${view} .client=${client}></momo-checkout>`,
        );
        await waitUntil(() => el.status === 'entering');
        expect(calls(client, 'getCheckout')).to.have.length(1);
      }
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain('checkout-view');
    } finally {
      console.warn = warn;
    }
  });

  it('says nothing per keystroke, then explains a wrong number when the payer leaves the field', async () => {
    const m = await mount();
    m.el.validationDelayMs = 60_000;
    const input = $(m.root, 'input#phone');
    input.focus();
    typeInto(input, '01 97');
    await m.el.updateComplete;
    expect(m.root.querySelector('#phone-error')).to.equal(null);
    input.blur();
    await m.el.updateComplete;
    const error = $(m.root, '#phone-error');
    expect(error.textContent).to.match(/too short|does not exist/i);
    expect(input.getAttribute('aria-describedby')).to.contain('phone-error');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(calls(m.client, 'lookup')).to.have.length(0);
    await expect(m.el).to.be.accessible();
  });

  it('explains a wrong number after a pause in typing', async () => {
    const m = await mount();
    typeInto($(m.root, 'input#phone'), '01 97');
    await waitUntil(() => m.root.querySelector('#phone-error'), 'no message after the pause');
  });

  it('normalises what was typed, looks it up once and previews once, then offers to pay', async () => {
    const m = await mount();
    await enterNumber(m, '00229 01-97-00-00-00');
    expect(calls(m.client, 'lookup')).to.deep.equal([{ phoneNumber: e164, country: 'BJ' }]);
    expect(calls(m.client, 'preview')).to.deep.equal([{ phoneNumber: e164, useWallet: false }]);
    expect($(m.root, '[part="operator"]').textContent).to.contain('MTN MoMo');
    const pay = $(m.root, '[part="submit-button"]') as HTMLButtonElement;
    expect(pay.disabled).to.equal(false);
    expect(pay.textContent).to.match(/Pay .*5[\s,.\u202f\u00a0]?000/);
    // Leaving the field and typing the same number again asks nothing more of the companion.
    const input = $(m.root, 'input#phone');
    input.blur();
    typeInto(input, '0197000000');
    await waitUntil(() => m.el.status === 'ready');
    expect(calls(m.client, 'lookup')).to.have.length(1);
    expect(calls(m.client, 'preview')).to.have.length(1);
    await expect(m.el).to.be.accessible();
  });

  it('goes from a number to "Pay" in one round trip when the lookup brings the preview along', async () => {
    const m = await mount({ lookup: lookupAnswer({ preview: { useWallet: false, workflow: 'provider_auth' } }) });
    await enterNumber(m);
    expect(m.client.calls.map((call) => call.method).filter((method) => method !== 'subscribe')).to.deep.equal(['getCheckout', 'lookup']);
    expect(($(m.root, '[part="submit-button"]') as HTMLButtonElement).disabled).to.equal(false);
  });

  it('previews itself a choice the lookup did not preview (the wallet)', async () => {
    const m = await mount({
      lookup: lookupAnswer({ wallet: operator({ code: 'wallet', name: 'Djamo Wallet' }), preview: { useWallet: false, workflow: 'provider_auth' } }),
      preview: { workflow: 'redirect_url' },
    });
    await enterNumber(m);
    expect(calls(m.client, 'preview')).to.have.length(0);
    m.root.querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!.click();
    await waitUntil(() => m.el.status === 'ready' && calls(m.client, 'preview').length === 1);
    expect(calls(m.client, 'preview')).to.deep.equal([{ phoneNumber: e164, useWallet: true }]);
  });

  it('sends a number of a country outside the bundled metadata as typed (the companion validates)', async () => {
    const m = await mount({ lookup: lookupAnswer({ phoneNumber: '+33612345678', country: 'FR' }) });
    await enterNumber(m, '+33 6 12 34 56 78');
    expect(calls(m.client, 'lookup')).to.deep.equal([{ phoneNumber: '+33 6 12 34 56 78', country: 'BJ' }]);
  });

  it('shows the companion refusing the number under the field', async () => {
    const { CompanionRequestError } = await import('../../src/client/errors.js');
    const m = await mount({ lookup: new CompanionRequestError('NO_OPERATOR', 422, 'none') });
    typeInto($(m.root, 'input#phone'), '0197000000');
    await waitUntil(() => m.root.querySelector('#phone-error'));
    expect($(m.root, '#phone-error').textContent).to.contain('No mobile money operator');
    expect(m.el.status).to.equal('entering');
    await expect(m.el).to.be.accessible();
  });

  it('offers the overlay wallet as a clear second option and sends useWallet only when chosen', async () => {
    const m = await mount({
      lookup: lookupAnswer({ wallet: operator({ code: 'wallet', name: 'Djamo Wallet', workflowHint: 'redirect_url' }) }),
      preview: (request) => ({ workflow: request.useWallet ? 'redirect_url' : 'provider_auth' }),
    });
    await enterNumber(m);
    const labels = [...m.root.querySelectorAll('label.choice')].map((l) => l.textContent!.replace(/\s+/g, ' ').trim());
    expect(labels[0]).to.contain('Pay with MTN MoMo');
    expect(labels[1]).to.contain('Pay with Djamo Wallet');
    const radios = m.root.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    expect(radios[0]!.checked).to.equal(true);
    radios[1]!.click();
    await waitUntil(() => m.el.status === 'ready' && calls(m.client, 'preview').length === 2);
    $(m.root, '[part="submit-button"]').click();
    await waitUntil(() => calls(m.client, 'pay').length === 1);
    expect(calls(m.client, 'pay')).to.deep.equal([{ phoneNumber: e164, useWallet: true }]);
    expect(calls(m.client, 'preview')).to.deep.equal([
      { phoneNumber: e164, useWallet: false },
      { phoneNumber: e164, useWallet: true },
    ]);
  });

  it('renders operator names as text, and a placeholder for a logo that is not https', async () => {
    const m = await mount({ lookup: lookupAnswer({ operator: operator({ name: '<img src=x onerror=alert(1)>', logoUrl: 'http://evil.example/x.svg' }) }) });
    await enterNumber(m);
    const row = $(m.root, '[part="operator"]');
    expect(row.querySelector('img')).to.equal(null);
    expect(row.querySelector('.logo-placeholder')).to.not.equal(null);
    expect(row.textContent).to.contain('<img src=x onerror=alert(1)>');
  });

  it('swaps a logo that fails to load for a placeholder', async () => {
    const m = await mount({ lookup: lookupAnswer({ operator: operator({ logoUrl: 'https://127.0.0.1:1/missing.svg' }) }) });
    await enterNumber(m);
    await waitUntil(() => m.root.querySelector('[part="operator"] .logo-placeholder'), 'no placeholder after the error');
  });

  it('has its pay button from the start, so the card keeps its height; while typing, the button checks the number', async () => {
    const m = await mount();
    m.el.validationDelayMs = 60_000; // only the button checks the number here
    const heightWhileTyping = $(m.root, '[part="base"]').getBoundingClientRect().height;
    typeInto($(m.root, 'input#phone'), '01 97');
    $(m.root, '[part="submit-button"]').click();
    await waitUntil(() => m.root.querySelector('#phone-error'), 'the button did not check the number');
    expect(calls(m.client, 'lookup')).to.have.length(0);
    typeInto($(m.root, 'input#phone'), '01 97 00 00 00');
    $(m.root, '[part="submit-button"]').click();
    await waitUntil(() => m.el.status === 'ready', 'a complete number was not checked');
    expect(calls(m.client, 'pay')).to.have.length(0, 'checking the number is not paying');
    // The operator row comes in; the button was already there.
    const grownBy = $(m.root, '[part="base"]').getBoundingClientRect().height - heightWhileTyping;
    const operatorRow = $(m.root, '[part="operator"]').getBoundingClientRect().height;
    expect(grownBy).to.be.at.most(operatorRow + 20);
  });

  it('can be done by keyboard alone: type, Enter to pay', async () => {
    const m = await mount();
    m.el.validationDelayMs = 60_000; // only Enter checks the number here
    $(m.root, 'input#phone').focus();
    await sendKeys({ type: '0197000000' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => m.el.status === 'ready', 'Enter did not check the number');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => m.el.status === 'awaiting-approval', 'Enter did not pay');
    expect(calls(m.client, 'pay')).to.have.length(1);
  });
});
