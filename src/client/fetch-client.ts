import { companionRoutes } from '../contract/companion.js';
import type { PaymentView } from '../contract/companion.js';
import { CompanionRequestError, NetworkError } from './errors.js';
import type { ClientErrorCode } from './errors.js';
import {
  AnswerShapeError,
  approvalQr,
  checkoutView,
  companionError,
  lookupResponse,
  paymentOrNull,
  paymentView,
  previewResponse,
} from './guards.js';
import { createSseParser } from './sse-parser.js';
import type { CompanionClient } from './types.js';

export interface FetchClientOptions {
  /** The companion's mount point, e.g. `https://shop.example/momo`. */
  endpoint: string;
  /** The checkout token the merchant's server created; sent as `Authorization: Bearer`. */
  token: string;
  /** Defaults to the global fetch (bound, so it works as a plain function). */
  fetch?: typeof fetch;
  /** Delay before each stream reconnect; the last one repeats. */
  reconnectDelaysMs?: readonly number[];
  /** Stream failures in a row after which the client polls `status` instead. */
  failuresBeforePolling?: number;
  pollIntervalMs?: number;
  /** Polls between two attempts to get the stream back. */
  pollsBetweenStreamAttempts?: number;
  /** Waits `ms` or until `signal` aborts; injectable so tests do not wait. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Calls `check` when the page becomes visible again (the payer comes back from a USSD session).
   * Defaults to `document`'s visibilitychange when there is a document; null turns it off.
   */
  onPageVisible?: ((check: () => void, signal: AbortSignal) => void) | null;
  /**
   * Calls `check` when the browser comes back online: the status is re-read and a stream that was
   * waiting to reconnect tries at once. Defaults to `window`'s `online` event; null turns it off.
   */
  onOnline?: ((check: () => void, signal: AbortSignal) => void) | null;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

function documentVisibility(check: () => void, signal: AbortSignal): void {
  // Looked up when subscribing, never at import: importing the element must work on a server (SSR).
  if (typeof document === 'undefined') return;
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'visible') check();
    },
    { signal },
  );
}

/**
 * What a status says by itself when the body is not the companion's envelope: a proxy's or a load
 * balancer's page in front of the companion (a 429 from a rate limiter, a 502/503/504 while the
 * companion restarts). These are worth a retry, unlike a page that is not a companion at all.
 */
function statusCode(status: number): ClientErrorCode | null {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'SERVICE_UNAVAILABLE';
  return null;
}

function windowOnline(check: () => void, signal: AbortSignal): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('online', check, { signal });
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The production client: JSON over fetch to the companion, with the checkout token in the
 * `Authorization` header (never in a URL, where it would end up in logs).
 *
 * @example
 * const client = createFetchClient({ endpoint: 'https://shop.example/momo', token });
 * const checkout = await client.getCheckout();
 */
export function createFetchClient(options: FetchClientOptions): CompanionClient {
  const base = options.endpoint.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const reconnectDelays = options.reconnectDelaysMs ?? [1000, 2000, 5000, 10000];
  const failuresBeforePolling = options.failuresBeforePolling ?? 3;
  const pollIntervalMs = options.pollIntervalMs ?? 3000;
  const pollsBetweenStreamAttempts = options.pollsBetweenStreamAttempts ?? 10;
  const onPageVisible = options.onPageVisible === undefined ? documentVisibility : options.onPageVisible;
  const onOnline = options.onOnline === undefined ? windowOnline : options.onOnline;
  const authorization = `Bearer ${options.token}`;

  async function request<T>(path: string, read: (body: unknown) => T, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(base + path, {
        ...init,
        headers: {
          accept: 'application/json',
          authorization,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new NetworkError(
        `Could not reach the companion at ${base}${path}: check the element's endpoint attribute, that the companion's allowedOrigins lists this page's origin (CORS), and the network.`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (isAbort(error)) throw error;
      const known = statusCode(response.status);
      if (known) throw new CompanionRequestError(known, response.status, `${base}${path} answered HTTP ${response.status}: ${known}.`);
      throw new NetworkError(
        `${base}${path} answered HTTP ${response.status} with a body that is not JSON: is the endpoint attribute the companion's mount point?`,
        true,
      );
    }
    if (!response.ok) {
      const envelope = companionError(body);
      if (envelope) throw new CompanionRequestError(envelope.code, response.status, envelope.message, envelope.details);
      const known = statusCode(response.status);
      if (known) throw new CompanionRequestError(known, response.status, `${base}${path} answered HTTP ${response.status}: ${known}.`);
      throw new NetworkError(`${base}${path} answered HTTP ${response.status} without an error code: is the companion the same version as the element?`, true);
    }
    try {
      return read(body);
    } catch (error) {
      if (error instanceof AnswerShapeError) throw new NetworkError(error.message, true);
      throw error;
    }
  }

  const post = (body: unknown, signal?: AbortSignal): RequestInit => ({
    method: 'POST',
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const get = (signal?: AbortSignal): RequestInit => (signal ? { signal } : {});

  const client: CompanionClient = {
    getCheckout: (signal) => request(companionRoutes.checkout, checkoutView, get(signal)),
    lookup: (body, signal) => request(companionRoutes.lookup, lookupResponse, post(body, signal)),
    preview: (body, signal) => request(companionRoutes.preview, previewResponse, post(body, signal)),
    pay: (body, signal) =>
      request(
        companionRoutes.pay,
        (answer) => {
          const payment = paymentOrNull(answer);
          if (payment === null) throw new AnswerShapeError('The companion answered pay without a payment.');
          return payment;
        },
        post(body, signal),
      ),
    getStatus: (signal) => request(companionRoutes.status, paymentOrNull, get(signal)),
    approvalQr: (signal) => request(companionRoutes.approvalQr, approvalQr, get(signal)),
    subscribe(onPayment, signal) {
      let lastVersion = -1;
      let lastEventId = '';
      const deliver = (payment: PaymentView | null): void => {
        if (signal.aborted || payment === null || payment.version <= lastVersion) return;
        lastVersion = payment.version;
        onPayment(payment);
      };
      const check = (): Promise<void> =>
        client.getStatus(signal).then(deliver, () => {
          /* the stream or the next poll will tell */
        });
      onPageVisible?.(() => void check(), signal);
      // A wait between reconnects ends early when the browser says the network is back.
      let wakeUp = (): void => {};
      const nap = (ms: number): Promise<void> =>
        new Promise((resolve) => {
          wakeUp = resolve;
          void sleep(ms, signal).then(resolve);
        });
      onOnline?.(() => {
        wakeUp();
        void check();
      }, signal);

      /** One stream connection; resolves when it ends. 'fatal' when retrying cannot help. */
      async function stream(): Promise<'ended' | 'failed' | 'fatal'> {
        let response: Response;
        try {
          response = await doFetch(base + companionRoutes.events, {
            headers: {
              accept: 'text/event-stream',
              authorization,
              ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
            },
            cache: 'no-store',
            signal,
          });
        } catch {
          return 'failed';
        }
        if (response.status === 401 || response.status === 403) return 'fatal';
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || !response.body || !type.includes('text/event-stream')) {
          await response.body?.cancel().catch(() => undefined);
          return 'failed';
        }
        const parser = createSseParser((event) => {
          if (event.event !== 'payment') return;
          try {
            deliver(paymentView(JSON.parse(event.data)));
          } catch {
            // A malformed event is skipped; the next one, or a status check, carries the state.
          }
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.push(value);
            lastEventId = parser.lastEventId || lastEventId;
          }
        } catch {
          // Cut mid-stream (network change, proxy timeout): it worked, reconnect soon.
        }
        return 'ended';
      }

      void (async () => {
        let failures = 0;
        while (!signal.aborted) {
          const outcome = await stream();
          if (signal.aborted) return;
          if (outcome === 'fatal') return;
          // A stream that was open and then ended is healthy: reconnect without counting a failure.
          failures = outcome === 'ended' ? 0 : failures + 1;
          if (failures >= failuresBeforePolling) {
            // §1.4: status by polling when the stream fails, with a try of the stream now and then.
            for (let poll = 0; poll < pollsBetweenStreamAttempts && !signal.aborted; poll++) {
              await check();
              await nap(pollIntervalMs);
            }
            failures = failuresBeforePolling - 1;
            continue;
          }
          const delay = reconnectDelays[Math.min(failures, reconnectDelays.length - 1)] ?? 1000;
          await nap(delay);
        }
      })();
    },
  };
  return client;
}
