/**
 * When a failed delivery is tried again, and when it is given up: the backoff schedule, in one
 * place (the numbers docs/durability.md and the README promise a merchant).
 */

/** Waits before retry N (the last one repeats): 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h. */
export const defaultRetryDelaysMs: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];

/** A delivery still failing this long after its transition (or its redelivery request) is given up. */
export const defaultGiveUpAfterMs = 72 * 3600_000;

/** The wait after a delivery's `attempts`-th failed attempt: the schedule's, its last one repeating. */
export function retryDelay(delays: readonly number[], attempts: number): number {
  return delays[Math.min(attempts - 1, delays.length - 1)]!;
}
