/**
 * Every checkout state as a scripted companion (no server) plus the steps a payer takes to reach
 * it. The stories render these; their play functions walk the steps and check the state and
 * accessibility, so a story that stops showing its state fails `npm run test:stories`.
 */
import { CompanionRequestError, NetworkError } from '../src/client/errors.js';
import { createScriptedClient } from '../src/client/scripted-client.js';
import type { ClientScript, ScriptedClient } from '../src/client/scripted-client.js';
import type { CheckoutView, LookupResponse, OperatorView, PaymentState, PaymentView } from '../src/contract/companion.js';
import { numberMemoryKey } from '../src/element/number-memory.js';
import type { MomoCheckout } from '../src/element/momo-checkout.js';
import type { Status } from '../src/machine/states.js';
// The companion's own drawing, so the story shows a QR code a phone can scan.
import { approvalQrView } from '../src/server/page-routes/approval-qr.js';
import type { LanguageCode } from '../src/contract/languages.js';

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

/** A Benin number in the 2024 10-digit plan (a test number, nobody's). */
const typedNumber = '01 97 00 00 00';
const e164 = '+2290197000000';
/**
 * Logo files served beside the stories (.storybook/main.ts `staticDirs`): same origin, as the element
 * accepts (https or the page's or companion's origin), and offline. A `data:` URL would be refused.
 */
function logo(code: 'mtn' | 'moov' | 'wallet'): string {
  return new URL(`operator-logos/${code}.svg`, document.baseURI).href;
}

function operator(overrides: Partial<OperatorView> = {}): OperatorView {
  return {
    code: 'mtn', name: 'MTN MoMo', logoUrl: logo('mtn'), instructions: null, workflowHint: 'provider_auth',
    minAmount: '100', maxAmount: null, decimalPlaces: 0, ...overrides,
  };
}

function lookup(overrides: Partial<LookupResponse> = {}): LookupResponse {
  return { phoneNumber: e164, country: 'BJ', operator: operator(), wallet: null, ...overrides };
}

function payment(state: PaymentState, version: number, overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    state, version, orderId: 'order-42', phoneNumberMasked: '+229••••••00',
    operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: logo('mtn') }, workflow: 'provider_auth', instructions: null,
    authorizationUrl: null, returned: false, canRetry: true, updatedAt: '2030-01-01T00:00:00Z', ...overrides,
  };
}

export interface Scenario {
  /** The companion's answers; `lang` for texts the service itself writes (operator instructions). */
  script: (lang: Lang) => Partial<ClientScript>;
  /** Property-only settings of the element (e.g. a short expiry so "expired" shows at once). */
  setup?: (el: MomoCheckout) => void;
  /** The payer's steps, in the story's play function. */
  steps?: (el: MomoCheckout, client: ScriptedClient) => Promise<void>;
  /** Where the element stands once the steps are done. */
  status: Status;
  /** A CSS selector inside the shadow root that must be shown in this state. */
  shows: string;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function reach(el: MomoCheckout, status: Status): Promise<void> {
  await waitFor(() => el.status === status, `status ${status} (stuck in ${el.status})`);
  await el.updateComplete;
}

function shadow(el: MomoCheckout, selector: string): HTMLElement {
  const found = el.shadowRoot?.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`nothing matches ${selector} in the shadow root`);
  return found;
}

/** Types as a person would (value + input event). */
function typeInto(input: HTMLElement, value: string): void {
  (input as HTMLInputElement).value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

async function enterNumber(el: MomoCheckout, value = typedNumber): Promise<void> {
  await reach(el, 'entering');
  typeInto(shadow(el, 'input#phone'), value);
  await reach(el, 'ready');
}

async function pay(el: MomoCheckout): Promise<void> {
  await enterNumber(el);
  shadow(el, '[part="submit-button"]').click();
}

/** The one list's languages (contract/languages.ts): each needs its operator menu texts below. */
export type Lang = LanguageCode;

/** What an operator's menu says, in the payer's language as the service would send it. */
const dialText: Record<'moov' | 'mtn', Record<Lang, string>> = {
  moov: {
    en: 'Dial *855*4*6# to get a payment code.',
    fr: 'Composez le *855*4*6# pour obtenir un code de paiement.',
    pt: 'Marque *855*4*6# para obter um código de pagamento.',
    sw: 'Piga *855*4*6# kupata msimbo wa malipo.',
    ar: 'اطلب *855*4*6# للحصول على رمز دفع.',
  },
  mtn: {
    en: 'Dial *555# for a code.',
    fr: 'Composez le *555# pour obtenir un code.',
    pt: 'Marque *555# para obter um código.',
    sw: 'Piga *555# kupata msimbo.',
    ar: 'اطلب *555# للحصول على رمز.',
  },
};

const approvalUrl = 'https://pay.example/authorize/1';

const otpPreview = { preview: { workflow: 'pre_authorized' } } as const;

/** An answer that never comes: the element stays in the in-between state it shows while waiting. */
const held = () => new Promise<never>(() => {});

async function fillOtp(el: MomoCheckout, code: string): Promise<void> {
  await reach(el, 'needs-otp');
  typeInto(shadow(el, '[part="otp-input"]'), code);
  shadow(el, 'form [part="submit-button"]').click();
}

export const scenarios = {
  EnteringNumber: {
    script: () => ({}),
    status: 'entering',
    shows: 'input#phone',
  },
  InvalidNumber: {
    script: () => ({}),
    steps: async (el) => {
      await reach(el, 'entering');
      const input = shadow(el, 'input#phone');
      typeInto(input, '01 97');
      input.blur();
      await waitFor(() => el.shadowRoot?.querySelector('#phone-error') !== null, 'the number error');
    },
    status: 'entering',
    shows: '#phone-error',
  },
  OperatorWithInstructions: {
    script: (lang) => ({
      lookup: lookup({ operator: operator({ code: 'moov', name: 'Moov Money', logoUrl: logo('moov'), instructions: dialText.moov[lang], workflowHint: 'pre_authorized' }) }),
      ...otpPreview,
    }),
    steps: pay,
    status: 'needs-otp',
    shows: '[part="instructions"] a',
  },
  OperatorWithEmptyInstructions: {
    script: () => ({ lookup: lookup({ operator: operator({ instructions: '', workflowHint: 'pre_authorized' }) }), ...otpPreview }),
    steps: pay,
    status: 'needs-otp',
    shows: '[part="instructions"]',
  },
  CopiedDialCode: {
    script: (lang) => ({
      lookup: lookup({ operator: operator({ code: 'moov', name: 'Moov Money', logoUrl: logo('moov'), instructions: dialText.moov[lang], workflowHint: 'pre_authorized' }) }),
      ...otpPreview,
    }),
    steps: async (el) => {
      await pay(el);
      await reach(el, 'needs-otp');
      // Focused as a keyboard user leaves it: the ring must keep off the words around the code.
      const copy = shadow(el, '.ussd button.copy');
      const before = copy.textContent;
      copy.focus();
      copy.click();
      await waitFor(() => copy.textContent !== before, 'the Copy button to say it copied');
    },
    status: 'needs-otp',
    shows: '.ussd button.copy:focus-visible',
  },
  WalletChoice: {
    script: () => ({ lookup: lookup({ wallet: operator({ code: 'wallet', name: 'Djamo Wallet', logoUrl: logo('wallet'), workflowHint: 'redirect_url' }) }) }),
    steps: (el) => enterNumber(el),
    status: 'ready',
    shows: 'input[type="radio"]',
  },
  LookingUpOperator: {
    script: () => ({ lookup: held }),
    steps: async (el) => {
      await reach(el, 'entering');
      typeInto(shadow(el, 'input#phone'), typedNumber);
    },
    status: 'looking-up',
    shows: '[part="status"]',
  },
  UnknownOperator: {
    script: () => ({ lookup: new CompanionRequestError('NO_OPERATOR', 422, 'none') }),
    steps: async (el) => {
      await reach(el, 'entering');
      typeInto(shadow(el, 'input#phone'), typedNumber);
      await waitFor(() => el.shadowRoot?.querySelector('#phone-error') !== null, 'the number error');
    },
    status: 'entering',
    shows: '#phone-error',
  },
  Submitting: {
    script: () => ({ pay: held }),
    steps: pay,
    status: 'submitting',
    shows: '[part="submit-button"][aria-busy="true"]',
  },
  OtpStep: {
    script: (lang) => ({ pay: () => payment('needs-otp', 1, { workflow: 'pre_authorized', instructions: dialText.mtn[lang] }) }),
    steps: pay,
    status: 'needs-otp',
    shows: '[part="otp-input"]',
  },
  WrongCode: {
    script: (lang) => ({
      pay: (request) => {
        if (request.otp) throw new CompanionRequestError('OTP_REFUSED', 422, 'refused');
        return payment('needs-otp', 1, { workflow: 'pre_authorized', instructions: dialText.mtn[lang] });
      },
    }),
    steps: async (el) => {
      await pay(el);
      await fillOtp(el, '123456');
      await waitFor(() => el.shadowRoot?.querySelector('#otp-error') !== null, 'the code error');
    },
    status: 'needs-otp',
    shows: '#otp-error',
  },
  AwaitingPush: {
    script: () => ({}),
    steps: pay,
    status: 'awaiting-approval',
    shows: '.countdown',
  },
  WrongNumberHelp: {
    script: () => ({}),
    steps: async (el) => {
      await pay(el);
      await reach(el, 'awaiting-approval');
      (shadow(el, 'details.wrong-number') as HTMLDetailsElement).open = true;
    },
    status: 'awaiting-approval',
    shows: 'details.wrong-number[open] p',
  },
  NoPromptHelp: {
    script: () => ({}),
    setup: (el) => (el.promptHelpAfterSeconds = 0),
    steps: pay,
    status: 'awaiting-approval',
    shows: 'h3',
  },
  Redirecting: {
    script: () => ({ preview: { workflow: 'redirect_url' }, pay: () => payment('redirect-ready', 1, { workflow: 'redirect_url', authorizationUrl: approvalUrl }) }),
    // A phone (touch, narrow): the page opens here, whatever the window the story runs in.
    setup: (el) => (el.phoneHandoff = () => false),
    steps: pay,
    status: 'redirecting',
    shows: '[part="status"]',
  },
  ApproveOnPhone: {
    script: () => ({
      preview: { workflow: 'redirect_url' },
      pay: () => payment('redirect-ready', 1, { workflow: 'redirect_url', authorizationUrl: approvalUrl }),
      approvalQr: approvalQrView(approvalUrl),
    }),
    // A desktop (wide, a mouse): the page is offered to the phone as a QR code.
    setup: (el) => (el.phoneHandoff = () => true),
    steps: async (el) => {
      await pay(el);
      await reach(el, 'redirecting');
      await waitFor(() => el.shadowRoot?.querySelector('svg.qr') !== null, 'the QR code');
    },
    status: 'redirecting',
    shows: 'svg.qr',
  },
  RememberedNumber: {
    script: () => ({}),
    steps: async (el) => {
      await reach(el, 'entering');
      // This device kept the number at an earlier checkout: the element reads it when it (re)starts.
      // Written and removed here, so no other story finds it.
      localStorage.setItem(numberMemoryKey, JSON.stringify({ typed: typedNumber, country: 'BJ', useWallet: false }));
      try {
        const parent = el.parentElement!;
        el.remove();
        parent.append(el);
      } finally {
        localStorage.removeItem(numberMemoryKey);
      }
      await reach(el, 'ready');
    },
    status: 'ready',
    shows: '.remembered button',
  },
  ConfirmingAfterReturn: {
    script: () => ({ checkout: { ...checkout, payment: payment('redirect-ready', 4, { workflow: 'redirect_url', returned: true, authorizationUrl: 'https://pay.example/a' }) } }),
    status: 'confirming',
    shows: '[part="status"]',
  },
  Succeeded: {
    script: () => ({}),
    steps: async (el, client) => {
      await pay(el);
      await reach(el, 'awaiting-approval');
      client.emit(payment('completed', 2));
    },
    status: 'succeeded',
    shows: 'h2',
  },
  Failed: {
    script: () => ({ checkout: { ...checkout, payment: payment('failed', 3, { canRetry: true }) } }),
    status: 'failed',
    shows: 'button',
  },
  FailedNoRetry: {
    script: () => ({ checkout: { ...checkout, payment: payment('failed', 3, { canRetry: false }) } }),
    status: 'failed',
    shows: '.failed p + p',
  },
  Expired: {
    script: () => ({}),
    setup: (el) => (el.expirySeconds = 0.2),
    steps: pay,
    status: 'expired',
    shows: '.reference',
  },
  CompanionError: {
    script: () => ({ checkout: new CompanionRequestError('TOKEN_EXPIRED', 401, 'expired') }),
    status: 'error',
    shows: '[part="error"]',
  },
  NetworkDown: {
    script: () => ({ checkout: new NetworkError('down') }),
    status: 'error',
    shows: '[part="error"]',
  },
  NotPayable: {
    script: () => ({ checkout: { ...checkout, countries: [] } }),
    status: 'error',
    shows: '[part="error"]',
  },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof scenarios;

/** A client for the scenario, with the defaults of a push (provider_auth) corridor. */
export function clientFor(scenario: Scenario, lang: Lang): ScriptedClient {
  return createScriptedClient({
    checkout,
    lookup: lookup(),
    preview: { workflow: 'provider_auth' },
    pay: () => payment('pending', 1),
    ...scenario.script(lang),
  });
}
