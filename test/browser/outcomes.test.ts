import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { NetworkError } from '../../src/client/errors.js';
import { createScriptedClient } from '../../src/client/scripted-client.js';
import type { MomoCheckout } from '../../src/element/momo-checkout.js';
import { $, calls, checkout, enterNumber, mount, payment, reach, statusesOf, text } from './fixtures.js';

describe('<momo-checkout> outcomes, errors, language and layout', () => {
  it('failed with canRetry: says so, fires momo-failed, and "try again" goes back to the number', async () => {
    const m = await mount();
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    m.client.emit(payment('failed', 2, { canRetry: true }));
    await reach(m.el, 'failed');
    expect(text(m.root)).to.contain('Payment not completed');
    expect(m.events.some((e) => e.type === 'momo-failed')).to.equal(true);
    await expect(m.el).to.be.accessible();
    ([...m.root.querySelectorAll('button')].find((b) => b.textContent?.includes('Try another')) as HTMLButtonElement).click();
    await reach(m.el, 'entering');
    expect(m.root.activeElement?.id).to.equal('phone');
  });

  it('an approval page the companion refused: says at once this way of paying is unavailable (not failed), in French too, and offers another number', async () => {
    const m = await mount({}, { expirySeconds: 0.5 });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    m.client.emit(payment('awaiting-redirect', 2, { approvalUnavailable: true, canRetry: true }));
    await reach(m.el, 'approval-unavailable');
    expect(text(m.root)).to.contain('This way of paying is unavailable');
    expect(text(m.root)).to.contain('nothing was paid');
    expect(text(m.root)).not.to.contain('Payment not completed');
    expect(m.events.some((e) => e.type === 'momo-failed')).to.equal(false);
    await expect(m.el).to.be.accessible();
    // No waiting clock runs: past expiry-seconds it still says so, never "we haven't heard back".
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(m.el.status).to.equal('approval-unavailable');
    m.el.lang = 'fr';
    await m.el.updateComplete;
    await waitUntil(() => text(m.root).includes('Ce moyen de paiement est indisponible'), 'the French text', { timeout: 3000 });
    ([...m.root.querySelectorAll('button')].find((b) => b.textContent?.includes('Essayer un autre')) as HTMLButtonElement).click();
    await reach(m.el, 'entering');
  });

  it('failed without canRetry offers no new attempt', async () => {
    const m = await mount({ checkout: { ...checkout, payment: payment('failed', 3, { canRetry: false }) } }, { until: 'failed' });
    expect(m.root.querySelector('button')).to.equal(null);
  });

  it('expired: no outcome in time gives the order id as a reference and "not charged twice"', async () => {
    const m = await mount({}, { expirySeconds: 0.2 });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    await reach(m.el, 'expired');
    expect(text(m.root)).to.contain('We haven’t heard back');
    expect(text(m.root)).to.contain('will not be charged twice');
    expect($(m.root, '.reference').textContent).to.equal('order-42');
    await expect(m.el).to.be.accessible();
    // A late outcome still shows.
    m.client.emit(payment('completed', 2));
    await reach(m.el, 'succeeded');
  });

  it('the network down: an error with retry that resumes once the companion answers', async () => {
    const client = createScriptedClient({ checkout: new NetworkError('down') });
    const el = await fixture<MomoCheckout>(html`<momo-checkout lang="en" .client=${client}></momo-checkout>`);
    await reach(el, 'error');
    const root = el.shadowRoot!;
    expect(text(root)).to.contain('cannot reach the payment service');
    await expect(el).to.be.accessible();
    client.update({ checkout });
    ([...root.querySelectorAll('button')].find((b) => b.textContent?.includes('Try again')) as HTMLButtonElement).click();
    await reach(el, 'entering');
  });

  it('a companion error (expired token) says what to do', async () => {
    const { CompanionRequestError } = await import('../../src/client/errors.js');
    const client = createScriptedClient({ checkout: new CompanionRequestError('TOKEN_EXPIRED', 401, 'expired') });
    const el = await fixture<MomoCheckout>(html`<momo-checkout lang="en" .client=${client}></momo-checkout>`);
    await reach(el, 'error');
    expect(text(el.shadowRoot!)).to.contain('This checkout has expired');
    await expect(el).to.be.accessible();
  });

  it('checking: a lost answer shows that the payer will not be charged twice', async () => {
    const m = await mount({ checkout: { ...checkout, payment: payment('unknown', 1) } }, { until: 'checking' });
    expect(text(m.root)).to.contain('will not be charged twice');
    await expect(m.el).to.be.accessible();
  });

  it('speaks French with lang="fr", and takes the language of an ancestor', async () => {
    const m = await mount({}, { lang: 'fr' });
    expect(m.root.querySelector('label[for="phone"]')?.textContent).to.equal('Numéro mobile money');
    await enterNumber(m);
    expect($(m.root, '[part="submit-button"]').textContent).to.contain('Payer');
    await expect(m.el).to.be.accessible();
    const client = createScriptedClient({ checkout });
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="fr-CI"><momo-checkout .client=${client}></momo-checkout></div>`);
    const el = wrapper.querySelector('momo-checkout')!;
    await reach(el, 'entering');
    expect(text(el.shadowRoot!)).to.contain('Montant à payer');
    expect((el.shadowRoot!.querySelector('select') as HTMLSelectElement).value).to.equal('CI', 'the default country from fr-CI');
  });

  it('programmatic changes emit no user events', async () => {
    const m = await mount();
    const before = m.events.length;
    m.el.country = 'CI';
    m.el.lang = 'fr';
    m.el.expirySeconds = 60;
    await m.el.updateComplete;
    expect(m.events.length).to.equal(before);
    expect(calls(m.client, 'pay')).to.have.length(0);
    expect(statusesOf(m.events)).to.deep.equal(['entering']);
  });

  it('fits 320 px without horizontal overflow', async () => {
    await setViewport({ width: 320, height: 640 });
    try {
      const m = await mount({ lookup: (await import('./fixtures.js')).lookupAnswer({ wallet: (await import('./fixtures.js')).operator({ code: 'wallet', name: 'A wallet with quite a long name indeed' }) }) });
      await enterNumber(m);
      const base = $(m.root, '[part="base"]');
      expect(base.getBoundingClientRect().width).to.be.at.most(320);
      expect(base.scrollWidth).to.be.at.most(base.clientWidth);
      expect(document.documentElement.scrollWidth).to.be.at.most(320);
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });

  it('the scripted client is enough to render every step (no server)', async () => {
    await waitUntil(() => true);
    expect(customElements.get('momo-checkout')).to.not.equal(undefined);
  });
});
