/**
 * The number's lookup and fee preview, each asked of the companion at most once per key and kept
 * for the checkout's life (until the element is configured again).
 *
 * Why a cache and not a request per step: a preview is not free to repeat. §4.2: on a multi-PSP
 * channel the preview alone may durably assign a provider pair to a never-seen number, so it is
 * asked once per (number, choice) the payer settles on, never per keystroke (the number step only
 * moves the checkout on for a complete number). A lookup is one corridor query per (number,
 * country) whatever the payer does meanwhile (issue 4, size and speed). A failed request (network,
 * companion down) is dropped from the cache, so "try again" asks again; an answer, even a refusal,
 * is kept.
 *
 * Not a registered controller: nothing here follows the element's connection. Requests run without
 * the checkout run's AbortSignal, because a cached answer outlives a superseded run; the checkout
 * controller drops a result its run no longer wants.
 */
import type { CompanionClient } from '../../client/types.js';
import type { CheckoutEvent, Problem } from '../../machine/events.js';
import { problemOf } from './problems.js';

/**
 * Refusals the payer answers by changing the number: back to the number step, not an error page.
 * TOO_MANY_NUMBERS too: a number already tried for this order is still accepted.
 */
const numberRefusals: readonly string[] = ['INVALID_PHONE', 'NO_OPERATOR', 'TOO_MANY_NUMBERS'];

export class NumberLookups {
  private readonly lookups = new Map<string, Promise<CheckoutEvent>>();
  private readonly previews = new Map<string, Promise<CheckoutEvent>>();

  /** @param client the checkout's client at the time of the request (none while setup is missing). */
  constructor(private readonly client: () => CompanionClient | undefined) {}

  /** A new checkout (another token, client or embedded view): nothing known carries over. */
  clear(): void {
    this.lookups.clear();
    this.previews.clear();
  }

  /** The event the number's lookup stands for: `LOOKUP_OK`, `LOOKUP_REFUSED` or `FAILED_REQUEST`. */
  lookup(phoneNumber: string, country: string | undefined): Promise<CheckoutEvent> {
    // Issue 4, size and speed: one corridor lookup per number, whatever the payer does meanwhile.
    return this.once(this.lookups, `${phoneNumber}|${country ?? ''}`, () =>
      this.request(
        (client) => client.lookup(country ? { phoneNumber, country } : { phoneNumber }),
        (lookup): CheckoutEvent => {
          // Issue 10: the companion previewed the default choice with the lookup: no second round trip.
          const { preview } = lookup;
          if (preview) this.previews.set(`${phoneNumber}|${preview.useWallet}`, Promise.resolve({ type: 'PREVIEW_OK', workflow: preview.workflow }));
          return { type: 'LOOKUP_OK', lookup };
        },
        (problem): CheckoutEvent =>
          numberRefusals.includes(problem.code)
            ? { type: 'LOOKUP_REFUSED', problem }
            : { type: 'FAILED_REQUEST', problem },
      ),
    );
  }

  /** The event the preview of (number, choice) stands for: `PREVIEW_OK`, a refusal or `FAILED_REQUEST`. */
  preview(phoneNumber: string, useWallet: boolean): Promise<CheckoutEvent> {
    // At most one preview per (number, choice): it decides the OTP step, not every keystroke.
    return this.once(this.previews, `${phoneNumber}|${useWallet}`, () =>
      this.request(
        (client) => client.preview({ phoneNumber, useWallet }),
        (preview): CheckoutEvent => ({ type: 'PREVIEW_OK', workflow: preview.workflow }),
        (problem): CheckoutEvent =>
          numberRefusals.includes(problem.code)
            ? { type: 'LOOKUP_REFUSED', problem }
            : problem.code === 'AMOUNT_OUT_OF_RANGE'
              ? { type: 'REJECTED', problem }
              : { type: 'FAILED_REQUEST', problem },
      ),
    );
  }

  /** The cached answer for `key`, or a new request kept under it; a failed one is forgotten, to be asked again. */
  private once(cache: Map<string, Promise<CheckoutEvent>>, key: string, ask: () => Promise<CheckoutEvent>): Promise<CheckoutEvent> {
    let pending = cache.get(key);
    if (!pending) {
      pending = ask();
      cache.set(key, pending);
      void pending.then((event) => event.type === 'FAILED_REQUEST' && cache.delete(key));
    }
    return pending;
  }

  /** Runs a request without the run's signal (cached answers outlive a superseded run). */
  private async request<T>(
    call: (client: CompanionClient) => Promise<T>,
    ok: (answer: T) => CheckoutEvent,
    refused: (problem: Problem) => CheckoutEvent,
  ): Promise<CheckoutEvent> {
    const client = this.client();
    if (!client) return refused({ code: 'TOKEN_MISSING' });
    try {
      return ok(await call(client));
    } catch (error) {
      return refused(problemOf(error));
    }
  }
}
