/**
 * `momo-checkout/react` in Chromium (vitest browser mode, see vite.stories.config.ts for why not wtr).
 * React 18 StrictMode runs every effect twice on mount: the wrapper must not load the checkout
 * twice, bind a handler twice, or start two payments.
 *
 * Written with `createElement` rather than JSX syntax: the lead's tsconfig.json has no `jsx` option.
 */
import { createElement, StrictMode } from 'react';
import type { JSX } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedClient } from '../../../src/client/scripted-client.js';
import type { ScriptedClient } from '../../../src/client/scripted-client.js';
import type { PaymentState, PaymentView } from '../../../src/contract/companion.js';
import type { MomoCheckout as MomoCheckoutElement } from '../../../src/element/momo-checkout.js';
import type { Status } from '../../../src/machine/states.js';
import { MomoCheckout } from '../../../src/react/index.js';
import type { MomoErrorEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../../../src/react/index.js';
import { CompanionRequestError } from '../../../src/client/errors.js';

const e164 = '+2290197000000';

function payment(state: PaymentState, version: number): PaymentView {
  return {
    state, version, orderId: 'order-42', phoneNumberMasked: '+229••••••00', operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://logos.example/mtn.svg' },
    workflow: 'provider_auth', instructions: null, authorizationUrl: null, returned: false, canRetry: true, updatedAt: '2030-01-01T00:00:00Z',
  };
}

function scriptedCompanion(): ScriptedClient {
  return createScriptedClient({
    checkout: {
      orderId: 'order-42', amount: '5000', currencyCode: 'XOF', decimalPlaces: 0, expiresAt: '2030-01-01T00:00:00Z',
      countries: [{ code: 'BJ', name: 'Benin', dialCode: '+229' }], payment: null,
    },
    lookup: { phoneNumber: e164, country: 'BJ', operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://logos.example/mtn.svg', instructions: null, workflowHint: 'provider_auth', minAmount: '100', maxAmount: null, decimalPlaces: 0 }, wallet: null },
    preview: { workflow: 'provider_auth' },
    pay: () => payment('pending', 1),
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function reach(el: MomoCheckoutElement, status: Status): Promise<void> {
  await until(() => el.status === status, `${status} (stuck in ${el.status})`);
  await el.updateComplete;
}

const count = (client: ScriptedClient, method: string) => client.calls.filter((c) => c.method === method).length;

// Compile-time: the JSX types know <momo-checkout> and its properties (src/react/jsx.ts).
const intrinsicProps: JSX.IntrinsicElements['momo-checkout'] = { endpoint: '/momo', token: 'ck_x', expirySeconds: 60 };

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  root?.unmount();
  host?.remove();
});

describe('momo-checkout/react', () => {
  it('under StrictMode: one checkout load, one submit handler call, one pay-in, one success', async () => {
    const client = scriptedCompanion();
    const submits: MomoSubmitEvent[] = [];
    const successes: MomoSucceededEvent[] = [];
    const statuses: string[] = [];
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    root.render(
      createElement(
        StrictMode,
        null,
        createElement(MomoCheckout, {
          lang: 'en',
          client,
          validationDelayMs: 20,
          navigate: () => {},
          onMomoSubmit: (event: MomoSubmitEvent) => submits.push(event),
          onMomoSucceeded: (event: MomoSucceededEvent) => successes.push(event),
          onMomoStateChange: (event: MomoStateChangeEvent) => statuses.push(event.detail.status),
        }),
      ),
    );
    await until(() => host!.querySelector('momo-checkout') !== null, 'the element in the DOM');
    const el = host.querySelector('momo-checkout')!;
    expect(el.client, 'the client is set as a property, not an attribute').toBe(client);
    await reach(el, 'entering');

    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input#phone')!;
    input.value = '01 97 00 00 00';
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await reach(el, 'ready');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit-button"]')!.click();
    await reach(el, 'awaiting-approval');
    client.emit(payment('completed', 2));
    await reach(el, 'succeeded');

    expect(count(client, 'getCheckout')).toBe(1);
    expect(count(client, 'pay')).toBe(1);
    expect(submits).toHaveLength(1);
    expect(submits[0]!.detail.phoneNumber).toBe(e164);
    expect(successes).toHaveLength(1);
    expect(successes[0]!.detail.orderId).toBe('order-42');
    expect(statuses.filter((s) => s === 'awaiting-approval')).toHaveLength(1);
    expect(intrinsicProps.token).toBe('ck_x');
  });

  it('onMomoError gets the code of a failure, once, after the state change', async () => {
    const client = createScriptedClient({ checkout: new CompanionRequestError('TOKEN_EXPIRED', 401, 'The checkout token has expired.') });
    const heard: string[] = [];
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    root.render(
      createElement(StrictMode, null, createElement(MomoCheckout, {
        client,
        onMomoStateChange: (event: MomoStateChangeEvent) => heard.push(`state:${event.detail.status}`),
        onMomoError: (event: MomoErrorEvent) => heard.push(`error:${event.detail.code}:${event.detail.httpStatus}`),
      })),
    );
    await until(() => host!.querySelector('momo-checkout') !== null, 'the element in the DOM');
    const el = host.querySelector('momo-checkout')!;
    await reach(el, 'error');
    expect(heard).toEqual(['state:error', 'error:TOKEN_EXPIRED:401']);
  });

  it('a page veto through onMomoSubmit (preventDefault) stops the pay-in', async () => {
    const client = scriptedCompanion();
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    root.render(
      createElement(StrictMode, null, createElement(MomoCheckout, {
        client, validationDelayMs: 20, onMomoSubmit: (event: MomoSubmitEvent) => event.preventDefault(),
      })),
    );
    await until(() => host!.querySelector('momo-checkout') !== null, 'the element in the DOM');
    const el = host.querySelector('momo-checkout')!;
    await reach(el, 'entering');
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input#phone')!;
    input.value = '01 97 00 00 00';
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await reach(el, 'ready');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit-button"]')!.click();
    await el.updateComplete;
    expect(el.status).toBe('ready');
    expect(count(client, 'pay')).toBe(0);
  });
});
