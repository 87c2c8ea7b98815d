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

/** Waits before the next re-post: false once `deadline` has passed or the run was abandoned. */
export function waitToRepost(deadline: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (Date.now() >= deadline || signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(!signal.aborted), payRepostEveryMs);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
  });
}
