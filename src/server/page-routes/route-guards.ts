/**
 * What stands before the page's routes: the checkout token, the limits of the routes that reach
 * the service (per address, per checkout, distinct numbers), the JSON body, and the sentence a
 * payer reads when the service cannot be reached. Module functions over the routes' deps, so
 * `page-routes.ts` reads as the list of routes it is.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { normalizePhoneFull } from '../../contract/phone-full.js';
import { PayerRefusal, TooManyRequests } from '../model/payer-refusal.js';
import type { CheckoutRecord } from '../model/records.js';
import { StoreUnavailableError } from '../stores/store-guard.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { sha256Base64url } from '../tokens.js';
import { maxBrowserBody, type AppDeps, type Env } from './app-deps.js';
import { BodyRefusedError } from './refusal-answer.js';

/** The checkout token: the checkout it opens is set on the context; an expired one only for reading an outcome. */
export const authenticate = (deps: Pick<AppDeps, 'store' | 'now'>, options: { allowExpired: boolean }) => async (c: Context<Env>, next: () => Promise<void>) => {
  const header = c.req.header('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) throw new PayerRefusal('TOKEN_MISSING', 'The checkout token is missing: the page must pass the token its server created.');
  const checkout = await deps.store.getByTokenHash(await sha256Base64url(token));
  if (!checkout) throw new PayerRefusal('TOKEN_INVALID', 'This checkout does not exist. Reload the page to start again.');
  // A payer waiting for an outcome may keep reading it after the token's time to pay is over.
  if (checkout.expiresAt <= deps.now() && !(options.allowExpired && checkout.payment)) {
    throw new PayerRefusal('TOKEN_EXPIRED', 'This checkout has expired. Reload the page to start again.');
  }
  c.set('checkout', checkout);
  await next();
};

// Lookup, preview and pay reach the service: limited per address (before the token is even
// looked at, so guessing tokens is limited too), per checkout, and in distinct numbers.
const limitAddress = (deps: Pick<AppDeps, 'clientAddress' | 'limits' | 'log'>) => async (c: Context<Env>, next: () => Promise<void>) => {
  const address = deps.clientAddress(c.req.raw, c.env);
  const wait = address === undefined ? 0 : await deps.limits.perAddress.take(address);
  if (wait > 0) {
    deps.log.warn('rate limited by client address', { path: new URL(c.req.url).pathname });
    throw new TooManyRequests('RATE_LIMITED', `Too many requests from this address: try again in ${wait} s.`, wait);
  }
  await next();
};
const limitCheckout = (deps: Pick<AppDeps, 'limits' | 'log'>) => async (c: Context<Env>, next: () => Promise<void>) => {
  const wait = await deps.limits.perCheckout.take(c.get('checkout').orderId);
  if (wait > 0) {
    deps.log.warn('rate limited by checkout', { orderId: c.get('checkout').orderId });
    throw new TooManyRequests('RATE_LIMITED', `Too many requests for this checkout: try again in ${wait} s.`, wait);
  }
  await next();
};
// §4.2: a preview may assign a provider to a number durably; a checkout is not a way to probe many.
export const admitNumber = async (deps: Pick<AppDeps, 'limits' | 'log'>, checkout: CheckoutRecord, typed: string, country: string | undefined) => {
  const phone = normalizePhoneFull(typed, country);
  if (!phone.ok) return; // refused with its reason by the lookup, without any upstream call
  if (!(await deps.limits.numbers.admit(checkout.orderId, phone.e164, checkout.expiresAt))) {
    deps.log.warn('too many distinct numbers for one checkout', { orderId: checkout.orderId });
    throw new TooManyRequests('TOO_MANY_NUMBERS', 'This checkout already tried its share of phone numbers: use one of them, or start a new checkout.');
  }
};
export const reachesService = (deps: AppDeps, options: { allowExpired: boolean }) => [limitAddress(deps), authenticate(deps, options), limitCheckout(deps)] as const;

/** The page's JSON body, checked against its schema; a refusal names the first bad field. */
export const readJson = async <T>(c: Context<Env>, schema: z.ZodType<T>): Promise<T> => {
  const text = await c.req.text();
  if (text.length > maxBrowserBody) throw new BodyRefusedError('The request is too large.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyRefusedError('The request is not JSON.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'body';
    throw new BodyRefusedError(`The request's ${field} is missing or malformed.`);
  }
  return parsed.data;
};

export const payUnavailable = 'The payment service cannot be reached right now. Try again in a moment; you will not be charged twice.';

/**
 * The store did not answer in time (stores/store-guard.ts): the page's code for "try again" (the
 * element retries it), never "nothing was charged", since a pay-in may have been posted already.
 */
export const storeUnavailable = new PayerRefusal('SERVICE_UNAVAILABLE', 'The shop’s server cannot reach its records right now. Try again in a moment; you will not be charged twice.');

/** `message`: the default is for lookup and preview, which charge nothing. */
export async function withServiceErrors<T>(
  deps: Pick<AppDeps, 'log'>,
  run: () => Promise<T>,
  message = 'The payment service cannot be reached right now. Nothing was charged; try again in a moment.',
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // A store past its deadline is answered by the routes' error handler, without a line per request.
    if (error instanceof PayerRefusal || error instanceof StoreUnavailableError) throw error;
    deps.log.error('service call failed', { error });
    throw new PayerRefusal('SERVICE_UNAVAILABLE', message);
  }
}

export async function rememberDecimals(store: CheckoutStore, checkout: CheckoutRecord, decimalPlaces: number): Promise<void> {
  await updateCheckoutRecord(store, checkout.orderId, (current) => (current.decimalPlaces === decimalPlaces ? null : { ...current, decimalPlaces }));
}
