import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutView, LookupResponse, PaymentState, PaymentView } from '../../src/contract/companion.js';
import { eventForCheckout, eventForPayment } from '../../src/machine/events.js';
import type { CheckoutEvent } from '../../src/machine/events.js';
import { initialState, next, transitions } from '../../src/machine/machine.js';
import type { MachineState } from '../../src/machine/machine.js';
import { eventTypes, statuses } from '../../src/machine/states.js';
import type { EventType, Status } from '../../src/machine/states.js';

const checkout: CheckoutView = {
  orderId: 'order-1',
  amount: '5000',
  currencyCode: 'XOF',
  decimalPlaces: 0,
  expiresAt: '2030-01-01T00:00:00Z',
  countries: [{ code: 'BJ', name: 'Benin', dialCode: '+229' }],
  payment: null,
};

const lookup: LookupResponse = {
  phoneNumber: '+2290197000000',
  country: 'BJ',
  operator: {
    code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://x/mtn.svg', instructions: null, workflowHint: 'provider_auth',
    minAmount: '100', maxAmount: null, decimalPlaces: 0,
  },
  wallet: null,
};

function payment(state: PaymentState, version: number, extra: Partial<PaymentView> = {}): PaymentView {
  return {
    state, version, orderId: 'order-1', phoneNumberMasked: '+229••••••00', operator: null, workflow: null,
    instructions: null, authorizationUrl: null, returned: false, canRetry: true, updatedAt: '2030-01-01T00:00:00Z',
    ...extra,
  };
}

/** A representative event of each type. */
function sample(type: EventType, version = 5): CheckoutEvent {
  switch (type) {
    case 'CHECKOUT_LOADED': return { type, checkout };
    case 'CHECKOUT_UNPAYABLE': return { type, checkout: { ...checkout, countries: [] } };
    case 'NUMBER_COMPLETE': return { type, phoneNumber: '+2290197000000' };
    case 'LOOKUP_OK': return { type, lookup };
    case 'LOOKUP_REFUSED': return { type, problem: { code: 'INVALID_PHONE' } };
    case 'CHOICE_CHANGED': return { type, useWallet: true };
    case 'PREVIEW_OK': return { type, workflow: 'provider_auth' };
    case 'REJECTED': return { type, problem: { code: 'AMOUNT_OUT_OF_RANGE' } };
    case 'OTP_REFUSED': return { type, problem: { code: 'OTP_REFUSED' } };
    case 'FAILED_REQUEST': return { type, problem: { code: 'NETWORK' } };
    case 'PAYMENT_NEEDS_OTP': return { type, payment: payment('needs-otp', version) };
    case 'PAYMENT_PENDING': return { type, payment: payment('pending', version) };
    case 'PAYMENT_AWAITING_REDIRECT': return { type, payment: payment('awaiting-redirect', version) };
    case 'PAYMENT_REDIRECT_READY': return { type, payment: payment('redirect-ready', version, { authorizationUrl: 'https://pay.example/a' }) };
    case 'PAYMENT_RETURNED': return { type, payment: payment('pending', version, { returned: true }) };
    case 'PAYMENT_UNKNOWN': return { type, payment: payment('unknown', version) };
    case 'PAYMENT_COMPLETED': return { type, payment: payment('completed', version) };
    case 'PAYMENT_FAILED': return { type, payment: payment('failed', version) };
    default: return { type } as CheckoutEvent;
  }
}

/** A state in `status` whose data lets every guarded event through (a retryable failed payment). */
function stateIn(status: Status): MachineState {
  return { ...initialState, status, checkout, phoneNumber: '+2290197000000', payment: payment('failed', 1) };
}

describe('the checkout machine, as a transition table', () => {
  for (const status of statuses) {
    const row: Partial<Record<EventType, Status>> = transitions[status];
    describe(`from ${status}`, () => {
      for (const [type, to] of Object.entries(row) as Array<[EventType, Status]>) {
        it(`${type} leads to ${to}`, () => {
          const after = next(stateIn(status), sample(type));
          assert.equal(after.status, to);
        });
      }
      const refused = eventTypes.filter((type) => !(type in row));
      for (const type of refused) {
        it(`refuses ${type} (same state object back)`, () => {
          const before = stateIn(status);
          assert.equal(next(before, sample(type)), before);
        });
      }
    });
  }

  it('has a row for every status and only known events in each row', () => {
    assert.deepEqual(Object.keys(transitions).sort(), [...statuses].sort());
    for (const row of Object.values(transitions)) {
      for (const type of Object.keys(row)) assert.ok((eventTypes as readonly string[]).includes(type), type);
    }
  });

  it('refuses at least one event in every status (each state constrains what can happen)', () => {
    for (const status of statuses) {
      assert.ok(eventTypes.some((type) => !(type in transitions[status])), status);
    }
  });

  it('ends in succeeded: nothing moves a completed payment', () => {
    const done = stateIn('succeeded');
    for (const type of eventTypes) assert.equal(next(done, sample(type, 99)), done, type);
  });
});

describe('the checkout machine, its data', () => {
  it('walks the push flow: number, lookup, preview, pay, approval, success', () => {
    let s = next(initialState, { type: 'CHECKOUT_LOADED', checkout });
    s = next(s, { type: 'NUMBER_COMPLETE', phoneNumber: '+2290197000000' });
    assert.equal(s.status, 'looking-up');
    s = next(s, { type: 'LOOKUP_OK', lookup });
    assert.equal(s.status, 'previewing');
    assert.equal(s.useWallet, false);
    s = next(s, { type: 'PREVIEW_OK', workflow: 'provider_auth' });
    assert.equal(s.status, 'ready');
    s = next(s, { type: 'SUBMIT' });
    assert.equal(s.status, 'submitting');
    assert.equal(next(s, { type: 'SUBMIT' }), s, 'a second submit while submitting is refused');
    s = next(s, eventForPayment(payment('pending', 1)));
    assert.equal(s.status, 'awaiting-approval');
    s = next(s, eventForPayment(payment('completed', 2)));
    assert.equal(s.status, 'succeeded');
    assert.equal(s.payment?.state, 'completed');
  });

  it('never goes back to an older payment view (news arrives out of order)', () => {
    const s = next(stateIn('awaiting-approval'), eventForPayment(payment('unknown', 7)));
    assert.equal(s.status, 'checking');
    assert.equal(next(s, eventForPayment(payment('pending', 6))), s);
  });

  it('lets "try again" through only when the payment allows it, and then ignores the old failure', () => {
    const noRetry = { ...stateIn('failed'), payment: payment('failed', 3, { canRetry: false }) };
    assert.equal(next(noRetry, { type: 'TRY_AGAIN' }), noRetry);
    const retry = next({ ...stateIn('failed'), payment: payment('failed', 3) }, { type: 'TRY_AGAIN' });
    assert.equal(retry.status, 'entering');
    assert.equal(next(retry, eventForPayment(payment('failed', 3))), retry, 'the same failed view (a poll) is old news');
    assert.equal(next(retry, eventForPayment(payment('pending', 4))).status, 'awaiting-approval');
  });

  it('says at once that an approval page the companion refused leaves this way of paying unavailable, never "failed", and offers another way', () => {
    const refused = payment('awaiting-redirect', 4, { approvalUnavailable: true, canRetry: true });
    const s = next(stateIn('awaiting-redirect'), eventForPayment(refused));
    assert.equal(s.status, 'approval-unavailable');
    assert.equal(next(s, { type: 'TIMED_OUT' }), s, 'nothing is waited for: no "we haven\'t heard back"');
    assert.equal(next(s, eventForPayment(payment('completed', 5))).status, 'succeeded', 'a late outcome still shows');
    assert.equal(next(s, { type: 'TRY_AGAIN' }).status, 'entering');
    const last = { ...s, payment: { ...refused, canRetry: false } };
    assert.equal(next(last, { type: 'TRY_AGAIN' }), last, 'no attempt left: the text sends the payer back to the shop');
    assert.equal(eventForPayment(payment('completed', 6, { approvalUnavailable: true })).type, 'PAYMENT_COMPLETED');
  });

  it('reads a returned, non-final payment as confirming and a final one as its outcome', () => {
    assert.equal(eventForPayment(payment('redirect-ready', 1, { returned: true })).type, 'PAYMENT_RETURNED');
    assert.equal(eventForPayment(payment('completed', 1, { returned: true })).type, 'PAYMENT_COMPLETED');
    assert.equal(eventForPayment({ ...payment('pending', 1), state: 'something-new' as PaymentState }).type, 'PAYMENT_UNKNOWN');
  });

  it('forgets the operator and the choice when the number is edited', () => {
    const s = next({ ...stateIn('ready'), lookup, useWallet: true, workflow: 'redirect_url' }, { type: 'NUMBER_EDITED' });
    assert.deepEqual([s.status, s.lookup, s.useWallet, s.workflow, s.phoneNumber], ['entering', null, false, null, null]);
  });

  it('chooses the overlay wallet by itself only when it is the only rail for the number', () => {
    const walletOnly = { ...lookup, operator: null, wallet: { ...lookup.operator!, code: 'wallet', name: 'Wallet' } };
    assert.equal(next(stateIn('looking-up'), { type: 'LOOKUP_OK', lookup: walletOnly }).useWallet, true);
    assert.equal(next(stateIn('looking-up'), { type: 'LOOKUP_OK', lookup: { ...walletOnly, operator: lookup.operator } }).useWallet, false);
  });

  it('reads a checkout that no country serves as "not payable", not as an empty list to choose from', () => {
    const none = { ...checkout, countries: [] };
    assert.equal(eventForCheckout(checkout).type, 'CHECKOUT_LOADED');
    assert.equal(eventForCheckout(none).type, 'CHECKOUT_UNPAYABLE');
    // A payment already started still shows, whatever the countries are now.
    assert.equal(eventForCheckout({ ...none, payment: payment('pending', 1) }).type, 'CHECKOUT_LOADED');
    const s = next(initialState, eventForCheckout(none));
    assert.deepEqual([s.status, s.problem?.code, s.checkout], ['error', 'ORDER_NOT_PAYABLE', none]);
  });

  it('records why a redirect was refused', () => {
    const s = next(stateIn('redirecting'), { type: 'REDIRECT_REFUSED' });
    assert.deepEqual([s.status, s.problem], ['error', { code: 'UNSAFE_REDIRECT' }]);
  });
});
