/**
 * Following a payment's status until the caller's signal aborts: the companion's event stream
 * (`text/event-stream`, read with fetch so the token stays in a header), reconnected with backoff
 * and resumed from its `Last-Event-ID`; after failures in a row, polling the status instead (§1.4),
 * with a try of the stream now and then; and a status check when the page becomes visible again or
 * the browser comes back online. Each payment view reaches the caller once, in version order.
 */
import { companionRoutes } from '../contract/companion.js';
import type { PaymentView } from '../contract/companion.js';
import type { CompanionConnection } from './companion-request.js';
import { paymentView } from './guards.js';
import { createSseParser } from './sse-parser.js';

/** How the follower waits and retries (createFetchClient's options of the same names). */
export interface StatusFollowOptions {
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

function windowOnline(check: () => void, signal: AbortSignal): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('online', check, { signal });
}

/**
 * The follower of one client: its options read once, as the client is created. A closure rather
 * than functions passing a settings object along: in the script-tag file an object's keys stay as
 * written, and the file is within bytes of its 25 KB budget.
 */
export function createStatusFollower(connection: CompanionConnection, options: StatusFollowOptions) {
  const { base, fetch: doFetch, authorization } = connection;
  const sleep = options.sleep ?? defaultSleep;
  const reconnectDelays = options.reconnectDelaysMs ?? [1000, 2000, 5000, 10000];
  const failuresBeforePolling = options.failuresBeforePolling ?? 3;
  const pollIntervalMs = options.pollIntervalMs ?? 3000;
  const pollsBetweenStreamAttempts = options.pollsBetweenStreamAttempts ?? 10;
  const onPageVisible = options.onPageVisible === undefined ? documentVisibility : options.onPageVisible;
  const onOnline = options.onOnline === undefined ? windowOnline : options.onOnline;

  /** Calls `onPayment` with each newer payment view until `signal` aborts. Never throws. */
  return function followStatus(
    getStatus: () => Promise<PaymentView | null>,
    onPayment: (payment: PaymentView) => void,
    signal: AbortSignal,
  ): void {
    let lastVersion = -1;
    let lastEventId = '';
    const deliver = (payment: PaymentView | null): void => {
      if (signal.aborted || payment === null || payment.version <= lastVersion) return;
      lastVersion = payment.version;
      onPayment(payment);
    };
    const check = (): Promise<void> =>
      getStatus().then(deliver, () => {
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

    /** One stream connection, resumed from the last event id; resolves when it ends. 'fatal' when retrying cannot help. */
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
  };
}
