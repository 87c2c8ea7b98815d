import type { CheckoutView, LookupResponse, PaymentView } from '../contract/companion.js';
import type { CheckoutEvent, Problem } from './events.js';
import type { EventType, Status } from './states.js';

/** Everything the element renders from. Replaced, never mutated, by {@link next}. */
export interface MachineState {
  status: Status;
  checkout: CheckoutView | null;
  /** The number sent to lookup (E.164 when the browser could parse it, else as typed). */
  phoneNumber: string | null;
  lookup: LookupResponse | null;
  /** True only when the payer chose the overlay wallet (§2.3 operatorCode). */
  useWallet: boolean;
  /** From the fee preview: decides whether the OTP step comes before paying. */
  workflow: string | null;
  payment: PaymentView | null;
  /** A payment version the payer moved past with "try again": older news about it is ignored. */
  retiredVersion: number;
  problem: Problem | null;
}

export const initialState: MachineState = {
  status: 'loading',
  checkout: null,
  phoneNumber: null,
  lookup: null,
  useWallet: false,
  workflow: null,
  payment: null,
  retiredVersion: -1,
  problem: null,
};

type Table = { readonly [S in Status]: Partial<Readonly<Record<EventType, Status>>> };

/** News about the payment moves every non-final state to the state the payment is in. */
const paymentNews = {
  PAYMENT_NEEDS_OTP: 'needs-otp',
  PAYMENT_PENDING: 'awaiting-approval',
  PAYMENT_AWAITING_REDIRECT: 'awaiting-redirect',
  PAYMENT_REDIRECT_READY: 'redirecting',
  PAYMENT_APPROVAL_UNAVAILABLE: 'approval-unavailable',
  PAYMENT_RETURNED: 'confirming',
  PAYMENT_UNKNOWN: 'checking',
  PAYMENT_COMPLETED: 'succeeded',
  PAYMENT_FAILED: 'failed',
} as const satisfies Partial<Record<EventType, Status>>;

/** Waiting states: no outcome within `expiry-seconds` means "expired" (issue 4 §1, outcome). */
const waiting = { ...paymentNews, TIMED_OUT: 'expired' } as const;

export const transitions = {
  loading: { CHECKOUT_LOADED: 'entering', CHECKOUT_UNPAYABLE: 'error', FAILED_REQUEST: 'error', ...paymentNews },
  entering: { NUMBER_EDITED: 'entering', NUMBER_COMPLETE: 'looking-up', ...paymentNews },
  'looking-up': {
    NUMBER_EDITED: 'entering',
    LOOKUP_OK: 'previewing',
    LOOKUP_REFUSED: 'entering',
    FAILED_REQUEST: 'error',
    ...paymentNews,
  },
  previewing: {
    NUMBER_EDITED: 'entering',
    CHOICE_CHANGED: 'previewing',
    PREVIEW_OK: 'ready',
    LOOKUP_REFUSED: 'entering',
    REJECTED: 'ready',
    FAILED_REQUEST: 'error',
    ...paymentNews,
  },
  ready: {
    NUMBER_EDITED: 'entering',
    CHOICE_CHANGED: 'previewing',
    OTP_STEP: 'needs-otp',
    SUBMIT: 'submitting',
    ...paymentNews,
  },
  'needs-otp': { NUMBER_EDITED: 'entering', SUBMIT: 'submitting', ...paymentNews },
  submitting: {
    REJECTED: 'ready',
    OTP_REFUSED: 'needs-otp',
    FAILED_REQUEST: 'error',
    ...paymentNews,
  },
  'awaiting-approval': waiting,
  'awaiting-redirect': waiting,
  redirecting: { ...waiting, REDIRECT_REFUSED: 'error' },
  // Not waiting (nothing will come for this attempt) and not failed (it is left to expire at the
  // service, and a late outcome still shows): the payer may pay another way.
  'approval-unavailable': { ...paymentNews, TRY_AGAIN: 'entering' },
  confirming: waiting,
  checking: waiting,
  succeeded: {},
  failed: { TRY_AGAIN: 'entering' },
  // A late outcome still shows; "check again" reloads the checkout (the payment comes with it).
  expired: { RETRY: 'loading', ...paymentNews },
  error: { RETRY: 'loading', ...paymentNews },
} as const satisfies Table;

/** Conditions beyond the table, per event. A false guard refuses the event. */
const guards: Partial<Record<EventType, (state: MachineState, event: CheckoutEvent) => boolean>> = {
  TRY_AGAIN: (state) => state.payment?.canRetry === true,
};

function isStale(state: MachineState, payment: PaymentView): boolean {
  // Statuses are monotone (§3) but news may arrive out of order: never go back to an older view.
  if (payment.version <= state.retiredVersion) return true;
  return state.payment !== null && payment.version < state.payment.version;
}

/** Where an event leads from a status, or undefined when the table refuses it. */
export function target(status: Status, type: EventType): Status | undefined {
  const row: Partial<Record<EventType, Status>> = transitions[status];
  return row[type];
}

/**
 * The pure step: the state after `event`, or the very same object when the event is refused there
 * (callers compare by identity to know nothing happened).
 */
export function next(state: MachineState, event: CheckoutEvent): MachineState {
  const to = target(state.status, event.type);
  if (to === undefined) return state;
  if (guards[event.type]?.(state, event) === false) return state;
  if ('payment' in event && isStale(state, event.payment)) return state;
  return { ...state, ...changes(state, event), status: to };
}

function changes(state: MachineState, event: CheckoutEvent): Partial<MachineState> {
  switch (event.type) {
    case 'CHECKOUT_LOADED':
      return { checkout: event.checkout, problem: null };
    case 'CHECKOUT_UNPAYABLE':
      return { checkout: event.checkout, problem: { code: 'ORDER_NOT_PAYABLE', message: 'No country served for the order\'s currency: the payment service has no active pay-in corridor for it. Check the currency of createCheckout, or the account\'s corridors.' } };
    case 'NUMBER_EDITED':
      return { phoneNumber: null, lookup: null, useWallet: false, workflow: null, problem: null };
    case 'NUMBER_COMPLETE':
      return { phoneNumber: event.phoneNumber, lookup: null, workflow: null, problem: null };
    case 'LOOKUP_OK':
      // With only the overlay wallet on offer, it is the payer's one choice (its button says so).
      return { lookup: event.lookup, useWallet: event.lookup.operator === null && event.lookup.wallet !== null, problem: null };
    case 'LOOKUP_REFUSED':
      return { lookup: null, workflow: null, problem: event.problem };
    case 'CHOICE_CHANGED':
      return { useWallet: event.useWallet, workflow: null, problem: null };
    case 'PREVIEW_OK':
      return { workflow: event.workflow, problem: null };
    case 'OTP_STEP':
    case 'SUBMIT':
    case 'RETRY':
    case 'TIMED_OUT':
      return { problem: null };
    case 'REJECTED':
    case 'OTP_REFUSED':
    case 'FAILED_REQUEST':
      return { problem: event.problem };
    case 'REDIRECT_REFUSED':
      return { problem: { code: 'UNSAFE_REDIRECT' } };
    case 'TRY_AGAIN':
      return {
        retiredVersion: state.payment?.version ?? state.retiredVersion,
        phoneNumber: null,
        lookup: null,
        useWallet: false,
        workflow: null,
        problem: null,
      };
    default:
      return { payment: event.payment, problem: null };
  }
}
