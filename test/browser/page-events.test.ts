/**
 * What the page's code hears from `<momo-checkout>` (issue 13): every step in the order it happens,
 * the outcome after its step, and `momo-error` with a stable code for each way the element can
 * fail, including a setup with no token or endpoint (a console warning and a message to the payer,
 * never "Loading…" for ever).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { CompanionRequestError } from '../../src/client/errors.js';
import { createScriptedClient } from '../../src/client/scripted-client.js';
import type { MomoErrorEvent } from '../../src/element/events.js';
import type { MomoCheckout } from '../../src/element/momo-checkout.js';
import { $, enterNumber, mount, payment, payUntilPaid, reach, text } from './fixtures.js';

/** `state:<status>` for momo-state-change, the event name for the others. */
function sequence(events: Event[]): string[] {
  return events.map((e) =>
    e.type === 'momo-state-change'
      ? `state:${(e as Event & { detail: { status: string } }).detail.status}`
      : e.type === 'momo-error'
        ? `error:${(e as MomoErrorEvent).detail.code}`
        : e.type,
  );
}

async function bare(markup: ReturnType<typeof html>): Promise<{ el: MomoCheckout; heard: Event[] }> {
  const heard: Event[] = [];
  const wrapper = await fixture<HTMLDivElement>(html`<div
    @momo-state-change=${(e: Event) => heard.push(e)} @momo-error=${(e: Event) => heard.push(e)}>${markup}</div>`);
  return { el: wrapper.querySelector('momo-checkout')!, heard };
}

describe('<momo-checkout> events, in the order things happen', () => {
  it('a push payment: each state change in turn, momo-succeeded after the "succeeded" step', async () => {
    const m = await mount();
    await enterNumber(m);
    await payUntilPaid(m);
    expect(sequence(m.events)).to.deep.equal([
      'state:entering', 'state:looking-up', 'state:previewing', 'state:ready',
      'momo-submit', 'state:submitting', 'state:awaiting-approval', 'state:succeeded', 'momo-succeeded',
    ]);
  });

  it('a refused redirect: awaiting-redirect, redirecting, then error, then momo-error', async () => {
    const m = await mount({ pay: () => payment('awaiting-redirect', 1, { workflow: 'redirect_url' }) });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-redirect');
    m.client.emit(payment('redirect-ready', 2, { authorizationUrl: 'http://pay.example/not-https' }));
    await reach(m.el, 'error');
    expect(sequence(m.events).slice(-4)).to.deep.equal([
      'state:awaiting-redirect', 'state:redirecting', 'state:error', 'error:UNSAFE_REDIRECT',
    ]);
    expect(m.navigations).to.deep.equal([]);
  });

  it('a failed payment: the "failed" step, then momo-failed', async () => {
    const m = await mount();
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    m.client.emit(payment('failed', 2));
    await reach(m.el, 'failed');
    expect(sequence(m.events).slice(-2)).to.deep.equal(['state:failed', 'momo-failed']);
  });
});

describe('<momo-checkout> momo-error', () => {
  it('an expired token: code TOKEN_EXPIRED with the HTTP status, bubbling out of the shadow root', async () => {
    const client = createScriptedClient({ checkout: new CompanionRequestError('TOKEN_EXPIRED', 401, 'The checkout token has expired.') });
    const { el, heard } = await bare(html`<momo-checkout lang="en" .client=${client}></momo-checkout>`);
    await reach(el, 'error');
    const error = heard.find((e) => e.type === 'momo-error') as MomoErrorEvent;
    expect(error.detail).to.deep.equal({ code: 'TOKEN_EXPIRED', message: 'The checkout token has expired.', httpStatus: 401 });
    expect(error.bubbles && error.composed).to.equal(true);
    expect(sequence(heard)).to.deep.equal(['state:error', 'error:TOKEN_EXPIRED']);
    expect(text(el.shadowRoot!)).to.contain('This checkout has expired');
  });

  for (const [missing, markup, code] of [
    ['token', html`<momo-checkout lang="en" endpoint="/momo" .setupWaitMs=${10}></momo-checkout>`, 'TOKEN_MISSING'],
    ['endpoint', html`<momo-checkout lang="en" token="ck_1" .setupWaitMs=${10}></momo-checkout>`, 'ENDPOINT_MISSING'],
  ] as const) {
    it(`no ${missing} attribute: a console warning naming it, ${code}, and a message instead of "Loading…"`, async () => {
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
      try {
        const { el, heard } = await bare(markup);
        await reach(el, 'error');
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.contain(`no ${missing} attribute`);
        expect((heard.find((e) => e.type === 'momo-error') as MomoErrorEvent).detail.code).to.equal(code);
        expect(text(el.shadowRoot!)).to.contain('not set up correctly');
        expect(text(el.shadowRoot!)).not.to.contain('Loading');
        await expect(el).to.be.accessible();
      } finally {
        console.warn = warn;
      }
    });
  }

  it('a token set a moment after the element is created is waited for (no error, no warning)', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const { el, heard } = await bare(html`<momo-checkout lang="en" .setupWaitMs=${300}></momo-checkout>`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      el.client = createScriptedClient({ checkout: (await import('./fixtures.js')).checkout });
      await reach(el, 'entering');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(el.status).to.equal('entering');
      expect(heard.filter((e) => e.type === 'momo-error')).to.have.length(0);
      expect(warnings).to.have.length(0);
    } finally {
      console.warn = warn;
    }
  });

  it('a wrong endpoint (a page that is not a companion): ENDPOINT_UNREACHABLE naming the URL', async () => {
    const { el, heard } = await bare(html`<momo-checkout lang="en" endpoint="/no-companion-here" token="ck_1"></momo-checkout>`);
    await reach(el, 'error');
    const error = heard.find((e) => e.type === 'momo-error') as MomoErrorEvent;
    expect(error.detail.code).to.equal('ENDPOINT_UNREACHABLE');
    expect(error.detail.message).to.contain('/no-companion-here/checkout');
    expect(text(el.shadowRoot!)).to.contain('cannot reach the payment service');
  });

  it('an endpoint nobody answers: ENDPOINT_UNREACHABLE, then a retry that asks again', async () => {
    const { el, heard } = await bare(html`<momo-checkout lang="en" endpoint="http://127.0.0.1:9/momo" token="ck_1"></momo-checkout>`);
    await reach(el, 'error');
    expect(sequence(heard)).to.deep.equal(['state:error', 'error:ENDPOINT_UNREACHABLE']);
    ([...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.includes('Try again')) as HTMLButtonElement).click();
    await reach(el, 'error');
    expect(sequence(heard)).to.deep.equal(['state:error', 'error:ENDPOINT_UNREACHABLE', 'state:loading', 'state:error', 'error:ENDPOINT_UNREACHABLE']);
  });

  it('back online, a request that failed for want of a network is tried again by itself; a refused token is not', async () => {
    const { NetworkError } = await import('../../src/client/errors.js');
    const { checkout } = await import('./fixtures.js');
    const down = createScriptedClient({ checkout: new NetworkError('offline') });
    const { el } = await bare(html`<momo-checkout lang="en" .client=${down}></momo-checkout>`);
    await reach(el, 'error');
    down.update({ checkout });
    window.dispatchEvent(new Event('online'));
    await reach(el, 'entering');
    const refused = createScriptedClient({ checkout: new CompanionRequestError('TOKEN_INVALID', 401, 'no such checkout') });
    const other = await bare(html`<momo-checkout lang="en" .client=${refused}></momo-checkout>`);
    await reach(other.el, 'error');
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refused.calls.filter((call) => call.method === 'getCheckout')).to.have.length(1);
    expect(other.el.status).to.equal('error');
  });

  it('a rate limit on lookup: RATE_LIMITED, and the payer is told to wait', async () => {
    const m = await mount({ lookup: new CompanionRequestError('RATE_LIMITED', 429, 'Too many requests.') });
    const input = $(m.root, 'input#phone');
    input.focus();
    (input as HTMLInputElement).value = '01 97 00 00 00';
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await reach(m.el, 'error');
    expect(sequence(m.events).slice(-2)).to.deep.equal(['state:error', 'error:RATE_LIMITED']);
    expect(text(m.root)).to.contain('Wait a minute');
  });
});
