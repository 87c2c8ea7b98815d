import { expect, waitUntil } from '@open-wc/testing';
import { CompanionRequestError } from '../../src/client/errors.js';
import type { PayRequest } from '../../src/contract/companion.js';
import { $, calls, e164, enterNumber, lookupAnswer, mount, operator, payment, reach, statusesOf, text, typeInto } from './fixtures.js';

describe('<momo-checkout> paying', () => {
  it('push: one pay-in, "approve on your phone" with a countdown, help later, then success', async () => {
    const m = await mount();
    m.el.promptHelpAfterSeconds = 0.05;
    await enterNumber(m);
    const pay = $(m.root, '[part="submit-button"]');
    pay.focus();
    pay.click();
    await reach(m.el, 'awaiting-approval');
    expect(calls(m.client, 'pay')).to.deep.equal([{ phoneNumber: e164, useWallet: false }]);
    const submit = m.events.find((e) => e.type === 'momo-submit') as Event & { detail: unknown };
    expect(submit.detail).to.deep.equal({ phoneNumber: e164, useWallet: false, withOtp: false });
    expect(submit.bubbles && submit.composed && submit.cancelable).to.equal(true);
    expect(text(m.root)).to.contain('Approve the payment on your phone');
    expect($(m.root, '.countdown').textContent).to.match(/Time left: 3:00|2:59/);
    expect(m.root.activeElement?.tagName).to.equal('H2', 'focus moves to the new step');
    await expect(m.el).to.be.accessible();
    await waitUntil(() => text(m.root).includes('Didn’t get the prompt?'), 'no help after the delay', { timeout: 3000 });
    m.client.emit(payment('completed', 2));
    await reach(m.el, 'succeeded');
    expect(text(m.root)).to.contain('Payment received');
    const succeeded = m.events.find((e) => e.type === 'momo-succeeded') as Event & { detail: { orderId: string } };
    expect(succeeded.detail.orderId).to.equal('order-42');
    expect(statusesOf(m.events)).to.deep.equal(['entering', 'looking-up', 'previewing', 'ready', 'submitting', 'awaiting-approval', 'succeeded']);
    await expect(m.el).to.be.accessible();
  });

  it('starts one pay-in for a double click, Enter and a second click while submitting', async () => {
    let release: () => void = () => {};
    const m = await mount({
      pay: () => new Promise((resolve) => (release = () => resolve(payment('pending', 1)))),
    });
    await enterNumber(m);
    const pay = $(m.root, '[part="submit-button"]') as HTMLButtonElement;
    pay.click();
    pay.click();
    pay.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    ($(m.root, 'form') as HTMLFormElement).requestSubmit();
    await m.el.updateComplete;
    expect(m.el.status).to.equal('submitting');
    expect(($(m.root, '[part="submit-button"]') as HTMLButtonElement).disabled).to.equal(true);
    await expect(m.el).to.be.accessible();
    release();
    await reach(m.el, 'awaiting-approval');
    expect(calls(m.client, 'pay')).to.have.length(1);
    expect(m.events.filter((e) => e.type === 'momo-submit')).to.have.length(1);
  });

  it('lets the page veto the payment with momo-submit.preventDefault()', async () => {
    const m = await mount();
    m.el.addEventListener('momo-submit', (event) => event.preventDefault());
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await m.el.updateComplete;
    expect(m.el.status).to.equal('ready');
    expect(calls(m.client, 'pay')).to.have.length(0);
  });

  it('OTP: instructions with tap-to-dial USSD links, then sends exactly what was typed', async () => {
    const instructions = 'Dial *144*4*6# to get a code, or #150# for help.';
    let attempts = 0;
    const m = await mount({
      lookup: lookupAnswer({ operator: operator({ name: 'Moov Money', instructions, workflowHint: 'pre_authorized' }) }),
      preview: { workflow: 'pre_authorized' },
      pay: (request: PayRequest) => {
        attempts += 1;
        if (attempts === 1) throw new CompanionRequestError('OTP_REFUSED', 422, 'refused');
        return payment('pending', 1, { workflow: 'pre_authorized' });
      },
    });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'needs-otp');
    expect(calls(m.client, 'pay')).to.have.length(0, 'the preview put the OTP step before paying');
    const links = [...m.root.querySelectorAll<HTMLAnchorElement>('[part="instructions"] a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['tel:*144*4*6%23', 'tel:%23150%23']);
    expect(links.map((a) => a.textContent)).to.deep.equal(['*144*4*6#', '#150#']);
    expect($(m.root, '[part="instructions"]').textContent).to.contain('to get a code');
    expect(m.root.querySelectorAll('[part="instructions"] button')).to.have.length(2);
    const otp = $(m.root, '[part="otp-input"]');
    expect(otp.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(m.root.activeElement?.tagName).to.equal('H2');
    await expect(m.el).to.be.accessible();
    typeInto(otp, ' 12-ab ');
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'needs-otp');
    await waitUntil(() => m.root.querySelector('#otp-error'), 'no refusal shown');
    expect(otp.getAttribute('aria-describedby')).to.contain('otp-error');
    await expect(m.el).to.be.accessible();
    typeInto($(m.root, '[part="otp-input"]'), '4321');
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    expect(calls(m.client, 'pay')).to.deep.equal([
      { phoneNumber: e164, useWallet: false, otp: ' 12-ab ' },
      { phoneNumber: e164, useWallet: false, otp: '4321' },
    ]);
  });

  it('OTP with empty instructions: a fallback that still says what to do', async () => {
    const m = await mount({
      lookup: lookupAnswer({ operator: operator({ instructions: '' }) }),
      preview: { workflow: 'pre_authorized' },
    });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'needs-otp');
    expect($(m.root, '[part="instructions"]').textContent).to.contain('generate a payment code');
  });

  it('a pay answer that needs an OTP the preview did not foresee shows the OTP step', async () => {
    const m = await mount({ pay: () => payment('needs-otp', 1, { instructions: 'Dial *555#' }) });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'needs-otp');
    expect($(m.root, '[part="instructions"] a').getAttribute('href')).to.equal('tel:*555%23');
  });

  it('redirect: waits for the https URL, then navigates same-tab once', async () => {
    const m = await mount({ pay: () => payment('awaiting-redirect', 1, { workflow: 'redirect_url' }) });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-redirect');
    await expect(m.el).to.be.accessible();
    expect(m.navigations).to.deep.equal([]);
    m.client.emit(payment('redirect-ready', 2, { authorizationUrl: 'https://pay.example/authorize/1' }));
    await reach(m.el, 'redirecting');
    m.client.emit(payment('redirect-ready', 3, { authorizationUrl: 'https://pay.example/authorize/1' }));
    await m.el.updateComplete;
    expect(m.navigations).to.deep.equal(['https://pay.example/authorize/1']);
  });

  it('redirect: refuses to navigate anywhere but https, and says so', async () => {
    const m = await mount({ pay: () => payment('redirect-ready', 1, { authorizationUrl: 'javascript:alert(1)' }) });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'error');
    expect(m.navigations).to.deep.equal([]);
    expect(text(m.root)).to.contain('not secure');
    const plain = await mount({ pay: () => payment('redirect-ready', 1, { authorizationUrl: 'http://pay.example/a' }) });
    await enterNumber(plain);
    $(plain.root, '[part="submit-button"]').click();
    await reach(plain.el, 'error');
    expect(plain.navigations).to.deep.equal([]);
  });

  it('back from the authorisation page: resumes from the token and shows "confirming"', async () => {
    const m = await mount(
      { checkout: { ...(await import('./fixtures.js')).checkout, payment: payment('redirect-ready', 4, { returned: true, authorizationUrl: 'https://pay.example/a' }) } },
      { until: 'confirming' },
    );
    expect(text(m.root)).to.contain('Confirming your payment');
    expect(m.navigations).to.deep.equal([]);
    await expect(m.el).to.be.accessible();
    m.client.emit(payment('failed', 5, { canRetry: false }));
    await reach(m.el, 'failed');
  });
});
