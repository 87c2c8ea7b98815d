/**
 * Issue 45: the companion answered `PAYMENT_IN_PROGRESS` and the checkout has no payment to show.
 * Another call holds the checkout's pay lock: a double submit still under way, or a companion
 * process that died in the middle of a pay, whose lock the store frees within seconds
 * (the companion's `stores/lock-lease.ts`). Neither is a refusal the payer can act on, so the
 * element keeps the payer where they are ("sending") and posts the same request again, every
 * second, until the companion answers with a payment or a real refusal. A re-post is safe: the
 * companion holds one pay-in per checkout, and the same request after an unknown outcome is the one
 * it may send again. Bounded, so that a lock that does not free (a store of the merchant's own that
 * keeps locks a minute) ends on the refusal as before, well within the per-checkout limit.
 */

/** How long the element keeps re-posting after the first "already being sent". */
export const payRepostBoundMs = 30_000;
/** The pause between two re-posts (a dead process's lock frees within a few seconds). */
export const payRepostEveryMs = 1_000;

export class PayRepost {
  private readonly until: number;

  constructor(
    private readonly everyMs = payRepostEveryMs,
    boundMs = payRepostBoundMs,
  ) {
    this.until = Date.now() + boundMs;
  }

  /** Waits before the next re-post: false when the bound is reached or the run was abandoned. */
  wait(signal: AbortSignal): Promise<boolean> {
    const left = this.until - Date.now();
    if (left <= 0 || signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve(!signal.aborted);
      }, Math.min(this.everyMs, left));
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', stop, { once: true });
    });
  }
}
