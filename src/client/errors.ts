import type { CompanionError, CompanionErrorCode } from '../contract/companion.js';

/**
 * The companion's error codes, plus `RATE_LIMITED`: a `429` (from the companion's own limits or a
 * proxy in front of it), whatever its body says.
 */
export type ClientErrorCode = CompanionErrorCode | 'RATE_LIMITED';

/** The companion answered with one of its error codes (src/contract/companion.ts). */
export class CompanionRequestError extends Error {
  override readonly name = 'CompanionRequestError';
  constructor(
    readonly code: ClientErrorCode,
    readonly status: number,
    message: string,
    readonly details?: CompanionError['error']['details'],
  ) {
    super(message);
  }
}

/**
 * No usable answer: the network is down, the companion is unreachable, or it answered something
 * that is not the contract (a proxy's HTML page, a cut body). The payer is told to retry.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    /** True when an answer came but did not match the contract (a deployment mismatch, not the payer's network). */
    readonly unexpectedAnswer = false,
  ) {
    super(message);
  }
}
