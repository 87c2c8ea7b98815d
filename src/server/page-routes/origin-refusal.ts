/**
 * A page refused for its origin says so where the merchant looks: the companion's log names the
 * origin, the route and the variable to set, and the preflight's answer carries the same reason
 * (the browser hides it from the page, not from its network panel). Without this a missing
 * `MOMO_ALLOWED_ORIGINS` told the payer the payment service could not be reached, and logged nothing.
 *
 * Logged once a minute per origin at most: a refused page retries, and anyone can send any Origin.
 */
import type { Logger } from '../log.js';

const quietMs = 60_000;
/** Origins remembered for the quiet period; beyond it the oldest is forgotten (memory stays bounded). */
const rememberedOrigins = 200;

export interface OriginRefusal {
  /** Logs the refusal (unless this origin was logged within the minute) and returns the reason. */
  (origin: string | undefined, route: string, method: string): string;
}

export function createOriginRefusal(log: Logger, now: () => number): OriginRefusal {
  const lastLogged = new Map<string, number>();
  return (origin, route, method) => {
    const shown = origin === undefined ? '(none)' : origin.slice(0, 200);
    const reason =
      origin === undefined
        ? 'The request carried no Origin header: the checkout routes answer pages (browsers send Origin on every POST).'
        : `Origin ${shown} is not an allowed origin of this companion: add it to MOMO_ALLOWED_ORIGINS (allowedOrigins), the origin of the page that shows <momo-checkout>, e.g. MOMO_ALLOWED_ORIGINS=${shown}.`;
    const at = now();
    const previous = lastLogged.get(shown);
    if (previous === undefined || at - previous >= quietMs) {
      lastLogged.delete(shown);
      lastLogged.set(shown, at);
      if (lastLogged.size > rememberedOrigins) lastLogged.delete(lastLogged.keys().next().value!);
      log.warn('page request refused: origin not allowed', { origin: shown, route, method, fix: origin === undefined ? 'call the checkout routes from the page' : 'add the origin to MOMO_ALLOWED_ORIGINS' });
    }
    return reason;
  };
}
