/**
 * Issue 23, "Done when": a payer who ticked "remember" finds the number filled in on the next
 * checkout of the same shop, and nothing is stored when they did not.
 */
import { expect } from '@open-wc/testing';
import { numberMemoryKey } from '../../src/element/number-memory.js';
import { $, calls, enterNumber, lookupAnswer, mount, operator, reach, typedNumber } from './fixtures.js';
import type { Mounted } from './fixtures.js';

function pay(m: Mounted): void {
  $(m.root, '[part="submit-button"]').click();
}

function tick(m: Mounted): void {
  $(m.root, 'input#remember').click();
}

describe('<momo-checkout> remembering the number on this device', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('offers the option unticked, and stores nothing when the payer pays without ticking it', async () => {
    const m = await mount();
    const box = $(m.root, 'input#remember') as HTMLInputElement;
    expect(box.checked).to.equal(false);
    expect($(m.root, 'label[for="remember"]').textContent).to.equal('Remember this number on this device');
    await enterNumber(m);
    pay(m);
    await reach(m.el, 'awaiting-approval');
    expect(localStorage.length).to.equal(0);

    const next = await mount();
    expect(($(next.root, 'input#phone') as HTMLInputElement).value).to.equal('');
  });

  it('fills the number in on the next checkout when the payer ticked it, with "not you?" beside it', async () => {
    const m = await mount();
    await enterNumber(m);
    tick(m);
    pay(m);
    await reach(m.el, 'awaiting-approval');
    expect(JSON.parse(localStorage.getItem(numberMemoryKey)!)).to.deep.equal({ typed: typedNumber, country: 'BJ', useWallet: false });

    const next = await mount({}, { until: 'ready' });
    expect(($(next.root, 'input#phone') as HTMLInputElement).value).to.equal(typedNumber);
    expect(($(next.root, 'input#remember') as HTMLInputElement).checked).to.equal(true);
    expect(next.root.textContent).to.contain('Not you? Use another number');
    // The number goes to the companion only as the payer's own lookup would.
    expect(calls(next.client, 'lookup')).to.deep.equal([{ phoneNumber: '+2290197000000', country: 'BJ' }]);
    await expect(next.el).to.be.accessible();
  });

  it('restores the overlay wallet the payer chose', async () => {
    const withWallet = { lookup: lookupAnswer({ wallet: operator({ code: 'djamo', name: 'Djamo Wallet', workflowHint: 'redirect_url' }) }) };
    const m = await mount(withWallet);
    await enterNumber(m);
    ($(m.root, 'input[name="rail"]:not(:checked)') as HTMLInputElement).click();
    await reach(m.el, 'ready');
    tick(m);
    pay(m);
    await reach(m.el, 'awaiting-approval');

    const next = await mount(withWallet, { until: 'ready' });
    await reach(next.el, 'ready');
    expect(calls(next.client, 'preview')).to.deep.include({ phoneNumber: '+2290197000000', useWallet: true });
    const radios = [...next.root.querySelectorAll<HTMLInputElement>('input[name="rail"]')];
    expect(radios.map((radio) => radio.checked)).to.deep.equal([false, true]);
  });

  it('"not you?" empties the field and unticks the box; "forget" also removes the number from the device', async () => {
    localStorage.setItem(numberMemoryKey, JSON.stringify({ typed: typedNumber, country: 'BJ', useWallet: false }));
    const m = await mount({}, { until: 'ready' });
    ([...m.root.querySelectorAll('button.link')].find((b) => b.textContent === 'Not you? Use another number') as HTMLElement).click();
    await reach(m.el, 'entering');
    expect(($(m.root, 'input#phone') as HTMLInputElement).value).to.equal('');
    expect(($(m.root, 'input#remember') as HTMLInputElement).checked).to.equal(false);
    expect(m.root.activeElement).to.equal($(m.root, 'input#phone'));
    expect(localStorage.getItem(numberMemoryKey)).not.to.equal(null);

    const again = await mount({}, { until: 'ready' });
    ([...again.root.querySelectorAll('button.link')].find((b) => b.textContent === 'Forget this number on this device') as HTMLElement).click();
    await reach(again.el, 'entering');
    expect(localStorage.getItem(numberMemoryKey)).to.equal(null);
    expect(($(again.root, 'input#phone') as HTMLInputElement).value).to.equal('');
  });

  it('drops a kept number the payer unticked before paying', async () => {
    localStorage.setItem(numberMemoryKey, JSON.stringify({ typed: typedNumber, country: 'BJ', useWallet: false }));
    const m = await mount({}, { until: 'ready' });
    tick(m);
    pay(m);
    await reach(m.el, 'awaiting-approval');
    expect(localStorage.getItem(numberMemoryKey)).to.equal(null);
  });

  it('neither offers nor fills anything with remember="off"', async () => {
    localStorage.setItem(numberMemoryKey, JSON.stringify({ typed: typedNumber, country: 'BJ', useWallet: false }));
    const m = await mount({}, { remember: 'off' });
    expect(m.root.querySelector('input#remember')).to.equal(null);
    expect(($(m.root, 'input#phone') as HTMLInputElement).value).to.equal('');
    await enterNumber(m);
    pay(m);
    await reach(m.el, 'awaiting-approval');
    expect(JSON.parse(localStorage.getItem(numberMemoryKey)!).typed, 'left as it was').to.equal(typedNumber);
  });
});
