/**
 * What a failure means to the checkout, as the `Problem` the machine, the payer's text and the
 * page's `momo-error` carry. Its own module because the checkout controller and the lookups it
 * caches (number-lookups.ts) read errors the same way.
 */
import { CompanionRequestError, NetworkError } from '../../client/errors.js';
import type { Problem } from '../../machine/events.js';

/**
 * The problem an error stands for. `loading`: no answer has come from the companion yet, so a
 * request that finds nothing there while the browser is online points at the endpoint (a wrong
 * host or path, CORS), not at the payer's network.
 */
export function problemOf(error: unknown, loading = false): Problem {
  if (error instanceof CompanionRequestError) {
    const problem: Problem = { code: error.code, message: error.message, httpStatus: error.status };
    return error.details ? { ...problem, details: error.details } : problem;
  }
  const message = error instanceof Error ? error.message : String(error);
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  if (error instanceof NetworkError && loading && !offline) return { code: 'ENDPOINT_UNREACHABLE', message };
  if (error instanceof NetworkError && error.unexpectedAnswer) return { code: 'UNEXPECTED_ANSWER', message };
  return { code: 'NETWORK', message };
}

/** The element was given no `endpoint` or no `token`: what the payer is shown and the console says. */
export function setupProblem(endpoint: string, token: string): Problem {
  const missing = [endpoint ? '' : 'endpoint', token ? '' : 'token'].filter(Boolean);
  return {
    code: token ? 'ENDPOINT_MISSING' : 'TOKEN_MISSING',
    message:
      `<momo-checkout> has no ${missing.join(' and no ')} attribute: set endpoint to your companion's mount point ` +
      `(e.g. "/momo") and token to the checkout token your server created with createCheckout() for this order.`,
  };
}
