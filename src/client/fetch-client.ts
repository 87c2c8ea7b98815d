import { companionRoutes } from '../contract/companion.js';
import type { PaymentView } from '../contract/companion.js';
import { createCompanionRequest } from './companion-request.js';
import type { CompanionConnection } from './companion-request.js';
import { AnswerShapeError, approvalQr, checkoutView, lookupResponse, paymentOrNull, previewResponse } from './guards.js';
import { createStatusFollower } from './status-follower.js';
import type { StatusFollowOptions } from './status-follower.js';
import type { CompanionClient } from './types.js';

export interface FetchClientOptions extends StatusFollowOptions {
  /** The companion's mount point, e.g. `https://shop.example/momo`. */
  endpoint: string;
  /** The checkout token the merchant's server created; sent as `Authorization: Bearer`. */
  token: string;
  /** Defaults to the global fetch (bound, so it works as a plain function). */
  fetch?: typeof fetch;
}

const post = (body: unknown, signal?: AbortSignal): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  ...(signal ? { signal } : {}),
});
const get = (signal?: AbortSignal): RequestInit => (signal ? { signal } : {});

/** `pay` always answers with the payment it started or found. */
function paidPayment(answer: unknown): PaymentView {
  const payment = paymentOrNull(answer);
  if (payment === null) throw new AnswerShapeError('The companion answered pay without a payment.');
  return payment;
}

/**
 * The production client: JSON over fetch to the companion, with the checkout token in the
 * `Authorization` header (never in a URL, where it would end up in logs). It wires the request
 * (companion-request.ts) to the companion's routes, and the status follower (status-follower.ts)
 * to `subscribe`.
 *
 * @example
 * const client = createFetchClient({ endpoint: 'https://shop.example/momo', token });
 * const checkout = await client.getCheckout();
 */
export function createFetchClient(options: FetchClientOptions): CompanionClient {
  const base = options.endpoint.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const connection: CompanionConnection = { base, fetch: doFetch, authorization: `Bearer ${options.token}` };
  const followStatus = createStatusFollower(connection, options);
  const request = createCompanionRequest(connection);

  const client: CompanionClient = {
    getCheckout: (signal) => request(companionRoutes.checkout, checkoutView, get(signal)),
    lookup: (body, signal) => request(companionRoutes.lookup, lookupResponse, post(body, signal)),
    preview: (body, signal) => request(companionRoutes.preview, previewResponse, post(body, signal)),
    pay: (body, signal) => request(companionRoutes.pay, paidPayment, post(body, signal)),
    getStatus: (signal) => request(companionRoutes.status, paymentOrNull, get(signal)),
    approvalQr: (signal) => request(companionRoutes.approvalQr, approvalQr, get(signal)),
    subscribe: (onPayment, signal) => followStatus(() => client.getStatus(signal), onPayment, signal),
  };
  return client;
}
