import type {
  ApprovalQrView,
  CheckoutView,
  LookupRequest,
  LookupResponse,
  PaymentView,
  PayRequest,
  PreviewRequest,
  PreviewResponse,
} from '../contract/companion.js';
import type { CompanionClient } from './types.js';

type Answer<Req, Res> = Res | Error | ((request: Req) => Res | Promise<Res>);

/**
 * What a scripted companion answers. Each answer is a value, an Error to reject with
 * (`new CompanionRequestError(...)`, `new NetworkError(...)`), or a function of the request that
 * may return a promise (hold it to show an in-between state).
 */
export interface ClientScript {
  checkout: Answer<void, CheckoutView>;
  lookup?: Answer<LookupRequest, LookupResponse>;
  preview?: Answer<PreviewRequest, PreviewResponse>;
  pay?: Answer<PayRequest, PaymentView>;
  status?: Answer<void, PaymentView | null>;
  approvalQr?: Answer<void, ApprovalQrView>;
}

export interface ScriptedCall {
  method: 'getCheckout' | 'lookup' | 'preview' | 'pay' | 'getStatus' | 'approvalQr' | 'subscribe';
  request?: unknown;
}

export interface ScriptedClient extends CompanionClient {
  /** Every call made, in order (tests count pay calls; stories show them). */
  readonly calls: ScriptedCall[];
  /** Sends a payment transition to every open subscription, as the status stream would. */
  emit(payment: PaymentView): void;
  /** Replaces some answers, e.g. to make a retry succeed. */
  update(script: Partial<ClientScript>): void;
}

/**
 * A companion client that answers from a script: for browser tests and Storybook stories, which
 * run with no server.
 *
 * @example
 * const client = createScriptedClient({ checkout, lookup: () => lookupAnswer, preview: { workflow: 'provider_auth' } });
 * element.client = client;
 */
export function createScriptedClient(script: ClientScript): ScriptedClient {
  let current: ClientScript = { ...script };
  const calls: ScriptedCall[] = [];
  const listeners = new Set<(payment: PaymentView) => void>();

  async function answer<Req, Res>(
    method: ScriptedCall['method'],
    scripted: Answer<Req, Res> | undefined,
    request: Req,
  ): Promise<Res> {
    calls.push(request === undefined ? { method } : { method, request });
    // Answer on a later task, as a network would, so in-between states render.
    await Promise.resolve();
    if (scripted === undefined) throw new Error(`The script has no answer for ${method}: add one to createScriptedClient's script.`);
    if (scripted instanceof Error) throw scripted;
    if (typeof scripted === 'function') return (scripted as (r: Req) => Res | Promise<Res>)(request);
    return scripted;
  }

  return {
    calls,
    emit(payment) {
      for (const listener of listeners) listener(payment);
    },
    update(changes) {
      current = { ...current, ...changes };
    },
    getCheckout: () => answer('getCheckout', current.checkout, undefined),
    lookup: (request) => answer('lookup', current.lookup, request),
    preview: (request) => answer('preview', current.preview, request),
    pay: (request) => answer('pay', current.pay, request),
    getStatus: () => answer('getStatus', current.status ?? null, undefined),
    approvalQr: () => answer('approvalQr', current.approvalQr, undefined),
    subscribe(onPayment, signal) {
      calls.push({ method: 'subscribe' });
      if (signal.aborted) return;
      listeners.add(onPayment);
      signal.addEventListener('abort', () => listeners.delete(onPayment), { once: true });
    },
  };
}
