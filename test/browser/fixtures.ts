import { fixture, html, waitUntil } from '@open-wc/testing';
import type { CheckoutView, LookupResponse, OperatorView, PaymentState, PaymentView } from '../../src/contract/companion.js';
import { createScriptedClient } from '../../src/client/scripted-client.js';
import type { ClientScript, ScriptedClient } from '../../src/client/scripted-client.js';
import '../../src/define.js';
import { languagesInFiles } from '../../src/contract/languages.js';
import { loadLanguageFile } from '../../src/localize/load-language-file.js';
import type { MomoCheckout } from '../../src/element/momo-checkout.js';
import type { Status } from '../../src/machine/states.js';

// Every language file of the one list (contract/languages.ts), as a page that offers them all includes them.
await Promise.all(languagesInFiles.map(loadLanguageFile));

export const checkout: CheckoutView = {
  orderId: 'order-42',
  amount: '5000',
  currencyCode: 'XOF',
  decimalPlaces: 0,
  expiresAt: '2030-01-01T00:00:00Z',
  countries: [
    { code: 'BJ', name: 'Benin', dialCode: '+229' },
    { code: 'CI', name: "Côte d'Ivoire", dialCode: '+225' },
  ],
  payment: null,
};

/** A Benin mobile number in the 2024 10-digit plan, as typed and in E.164. */
export const typedNumber = '01 97 00 00 00';
export const e164 = '+2290197000000';

export function operator(overrides: Partial<OperatorView> = {}): OperatorView {
  return {
    code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://logos.example/mtn.svg', instructions: null,
    workflowHint: 'provider_auth', minAmount: '100', maxAmount: null, decimalPlaces: 0, ...overrides,
  };
}

export function lookupAnswer(overrides: Partial<LookupResponse> = {}): LookupResponse {
  return { phoneNumber: e164, country: 'BJ', operator: operator(), wallet: null, ...overrides };
}

export function payment(state: PaymentState, version: number, overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    state, version, orderId: 'order-42', phoneNumberMasked: '+229••••••00', operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://logos.example/mtn.svg' },
    workflow: 'provider_auth', instructions: null, authorizationUrl: null, returned: false, canRetry: true,
    updatedAt: '2030-01-01T00:00:00Z', ...overrides,
  };
}

export interface Mounted {
  el: MomoCheckout;
  client: ScriptedClient;
  events: Event[];
  navigations: string[];
  root: ShadowRoot;
}

const eventNames = ['momo-state-change', 'momo-submit', 'momo-succeeded', 'momo-failed', 'momo-error'] as const;

/** Renders the element with a scripted client and waits until it shows `until`. */
export async function mount(
  script: Partial<ClientScript> = {},
  options: { lang?: string; until?: Status; expirySeconds?: number; remember?: string } = {},
): Promise<Mounted> {
  const client = createScriptedClient({
    checkout,
    lookup: lookupAnswer(),
    preview: { workflow: 'provider_auth' },
    pay: () => payment('pending', 1),
    ...script,
  });
  const events: Event[] = [];
  const navigations: string[] = [];
  const wrapper = await fixture<HTMLDivElement>(html`<div>
    <momo-checkout lang=${options.lang ?? 'en'} expiry-seconds=${options.expirySeconds ?? 180} remember=${options.remember ?? ''}></momo-checkout>
  </div>`);
  const el = wrapper.querySelector('momo-checkout')!;
  for (const name of eventNames) wrapper.addEventListener(name, (event) => events.push(event));
  el.validationDelayMs = 20;
  el.navigate = (url) => navigations.push(url);
  el.client = client;
  await reach(el, options.until ?? 'entering');
  return { el, client, events, navigations, root: el.shadowRoot! };
}

export async function reach(el: MomoCheckout, status: Status): Promise<void> {
  await waitUntil(() => el.status === status, `never reached ${status} (stuck in ${el.status})`, { timeout: 3000 });
  await el.updateComplete;
}

export function $(root: ShadowRoot, selector: string): HTMLElement {
  const found = root.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`nothing matches ${selector} in the shadow root`);
  return found;
}

export function text(root: ShadowRoot): string {
  return (root.textContent ?? '').replace(/\s+/g, ' ');
}

/** Types into a field as a person would (value + input event), without leaving it. */
export function typeInto(input: HTMLElement, value: string): void {
  (input as HTMLInputElement).value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** Enters a valid number and waits for the pay button (lookup and preview done). */
export async function enterNumber(m: Mounted, value = typedNumber): Promise<void> {
  const input = $(m.root, 'input#phone');
  input.focus();
  typeInto(input, value);
  await reach(m.el, 'ready');
}

/** A push payment to its end: Pay pressed, the approval step, then the service's "completed". */
export async function payUntilPaid(m: Mounted): Promise<void> {
  $(m.root, '[part="submit-button"]').click();
  await reach(m.el, 'awaiting-approval');
  m.client.emit(payment('completed', 2));
  await reach(m.el, 'succeeded');
}

export function calls(client: ScriptedClient, method: string): unknown[] {
  return client.calls.filter((call) => call.method === method).map((call) => call.request);
}

export function statusesOf(events: Event[]): string[] {
  return events
    .filter((e) => e.type === 'momo-state-change')
    .map((e) => (e as CustomEvent & { detail: { status: string } }).detail.status);
}
