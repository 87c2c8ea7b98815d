/**
 * Part `page-routes/` (docs/architecture.md): the routes the element calls (checkout, lookup,
 * preview, pay, status, the status stream, return) and the notification route, their limits, client
 * address and refusal answers. May import notifications/, payments/, status/, stores/, model/ and
 * the foundation; never the composition root.
 *
 * The companion's routes, on Hono (a tiny router around `fetch(Request) => Response`):
 * the page's JSON routes under `/checkout` (token, CORS, Origin), the return route after an
 * authorisation page, and the service's webhook.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import { companionRoutes, returnOrderQueryParam, returnQueryParam } from '../../contract/companion.js';
import { normalizePhoneFull } from '../../contract/phone-full.js';
import type { Logger } from '../log.js';
import type { RequestContext } from './client-address.js';
import type { Discovery } from '../payments/discovery.js';
import type { EventStreams } from './event-stream.js';
import { PayerRefusal, TooManyRequests } from '../model/payer-refusal.js';
import { BodyRefusedError, refusalBody, refusalStatus } from './refusal-answer.js';
import type { Limiter, NumberGuard } from '../stores/limit-backend.js';
import { createOriginRefusal } from './origin-refusal.js';
import { parseReturnUrl } from '../model/urls.js';
import { payCheckout, type PayFlowDeps } from '../payments/pay-flow.js';
import type { CheckoutRecord } from '../model/records.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { sha256Base64url } from '../tokens.js';
import { checkoutView, paymentView } from '../model/payment-view.js';
import { approvalQrView } from './approval-qr.js';
import { webhookBodyLimit, type NotificationAnswer } from '../http-answers/notification-answers.js';

export interface AppDeps {
  mountPath: string;
  allowedOrigins: readonly string[];
  store: CheckoutStore;
  discovery: Discovery;
  streams: EventStreams;
  payFlow: PayFlowDeps;
  log: Logger;
  now: () => number;
  /** Verifies a notification, answers, and applies it after the answer. */
  acceptWebhook: (raw: Uint8Array) => Promise<NotificationAnswer>;
  markReturned: (checkout: CheckoutRecord) => Promise<void>;
  /** Limits of the routes that reach the service (lookup, preview, pay), per process or shared (stores/limit-backend.ts). */
  limits: { perCheckout: Limiter; perAddress: Limiter; numbers: NumberGuard };
  /** The payer's address (see client-address.ts), or undefined when it is not known. */
  clientAddress: (request: Request, context: RequestContext | undefined) => string | undefined;
}

// Bindings: what the adapter passes beside the request (`app.fetch(request, context)`).
type Env = { Bindings: RequestContext | undefined; Variables: { checkout: CheckoutRecord } };

const maxBrowserBody = 8 * 1024;

const lookupSchema = z.object({ phoneNumber: z.string().min(1).max(40), country: z.string().length(2).optional() });
const previewSchema = z.object({ phoneNumber: z.string().min(1).max(40), useWallet: z.boolean().optional().default(false) });
// Any amount, currency or order id the page sends is ignored: only the merchant's server sets them.
const paySchema = z.object({
  phoneNumber: z.string().min(1).max(40),
  useWallet: z.boolean().optional().default(false),
  otp: z.string().max(64).optional(),
});

export function createApp(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>().basePath(deps.mountPath || '/');

  app.onError((error, c) => {
    if (error instanceof TooManyRequests && error.retryAfterSeconds !== undefined) c.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof BodyRefusedError) c.header('connection', 'close');
    if (error instanceof PayerRefusal) return c.json(refusalBody(error), refusalStatus(error) as 400);
    deps.log.error('companion route failed', { path: new URL(c.req.url).pathname, error });
    // Never "nothing was charged": this may come after a pay-in was posted. A retry is safe either
    // way (the same order id is re-posted, never a second payment).
    const internal = new PayerRefusal('INTERNAL', 'Something went wrong on the shop’s server. Try again in a moment; you will not be charged twice.');
    return c.json(refusalBody(internal), 500);
  });
  app.notFound((c) => c.json({ error: { code: 'BAD_REQUEST', message: 'No such route.' } }, 404));

  // nosniff and no-referrer on every answer; the rest of secureHeaders' defaults are for documents
  // of the merchant's own site (HSTS, cross-origin policies), which a mounted companion must not set.
  app.use(
    '*',
    secureHeaders({
      xContentTypeOptions: true,
      referrerPolicy: true,
      xFrameOptions: 'DENY',
      crossOriginResourcePolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      strictTransportSecurity: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  // The return page is plain text for a payer: it loads nothing, runs nothing, and is never framed.
  app.use(
    `${companionRoutes.returnPrefix}*`,
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] },
      xFrameOptions: 'DENY',
      crossOriginResourcePolicy: false,
      strictTransportSecurity: false,
    }),
  );

  // CORS for the page's routes, limited to the allowed origins.
  const cors = corsFor(deps);
  app.use(`${companionRoutes.checkout}/*`, cors);
  app.use(companionRoutes.checkout, cors);
  // Refused while streaming in (Content-Length or counted bytes), before anything is buffered.
  const browserLimit = bodyLimit({
    maxSize: maxBrowserBody,
    onError: () => {
      throw new BodyRefusedError('The request is too large.');
    },
  });
  app.use(`${companionRoutes.checkout}/*`, browserLimit);
  // The webhook route is the hot path (issue 3: thousands per second): a declared length is
  // checked without wrapping the body stream; only a body of unknown length is counted as it comes.
  const { maxBytes, tooLarge: tooLargeAnswer } = webhookBodyLimit;
  const tooLarge = (c: Context<Env>) => c.body(tooLargeAnswer.body, tooLargeAnswer.status, { 'content-type': 'application/json', connection: 'close' });
  const webhookLimit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  app.use(companionRoutes.webhook, async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared === undefined) return webhookLimit(c, next);
    if (Number(declared) > maxBytes) return tooLarge(c);
    await next();
    return undefined;
  });

  const authenticate = (options: { allowExpired: boolean }) => async (c: Context<Env>, next: () => Promise<void>) => {
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
  const limitAddress = async (c: Context<Env>, next: () => Promise<void>) => {
    const address = deps.clientAddress(c.req.raw, c.env);
    const wait = address === undefined ? 0 : await deps.limits.perAddress.take(address);
    if (wait > 0) {
      deps.log.warn('rate limited by client address', { path: new URL(c.req.url).pathname });
      throw new TooManyRequests('RATE_LIMITED', `Too many requests from this address: try again in ${wait} s.`, wait);
    }
    await next();
  };
  const limitCheckout = async (c: Context<Env>, next: () => Promise<void>) => {
    const wait = await deps.limits.perCheckout.take(c.get('checkout').orderId);
    if (wait > 0) {
      deps.log.warn('rate limited by checkout', { orderId: c.get('checkout').orderId });
      throw new TooManyRequests('RATE_LIMITED', `Too many requests for this checkout: try again in ${wait} s.`, wait);
    }
    await next();
  };
  // §4.2: a preview may assign a provider to a number durably; a checkout is not a way to probe many.
  const admitNumber = async (checkout: CheckoutRecord, typed: string, country: string | undefined) => {
    const phone = normalizePhoneFull(typed, country);
    if (!phone.ok) return; // refused with its reason by the lookup, without any upstream call
    if (!(await deps.limits.numbers.admit(checkout.orderId, phone.e164, checkout.expiresAt))) {
      deps.log.warn('too many distinct numbers for one checkout', { orderId: checkout.orderId });
      throw new TooManyRequests('TOO_MANY_NUMBERS', 'This checkout already tried its share of phone numbers: use one of them, or start a new checkout.');
    }
  };
  const reachesService = (options: { allowExpired: boolean }) => [limitAddress, authenticate(options), limitCheckout] as const;

  const readJson = async <T>(c: Context<Env>, schema: z.ZodType<T>): Promise<T> => {
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

  app.get(companionRoutes.checkout, authenticate({ allowExpired: true }), async (c) => {
    const checkout = c.get('checkout');
    // An empty list would tell the payer the order cannot be paid (issue 13): a failed discovery is "try again".
    const countries = await withServiceErrors(deps, () => deps.discovery.countries(checkout.currencyCode));
    return c.json(checkoutView(checkout, countries), 200, noStore);
  });

  app.post(companionRoutes.lookup, ...reachesService({ allowExpired: false }), async (c) => {
    const body = await readJson(c, lookupSchema);
    const checkout = c.get('checkout');
    await admitNumber(checkout, body.phoneNumber, body.country);
    const { decimalPlaces, ...lookup } = await withServiceErrors(deps, () => deps.discovery.lookup(checkout, body.phoneNumber, body.country));
    if (decimalPlaces !== null && checkout.decimalPlaces !== decimalPlaces) {
      await rememberDecimals(deps.store, checkout, decimalPlaces);
    }
    // Issue 10: one round trip from a number to "Pay": the default choice's preview comes along.
    // Still one preview per number and choice (§4.2, it may assign a provider): discovery caches it.
    // A refusal is left to the page's own preview call, which reports it.
    const useWallet = lookup.operator === null && lookup.wallet !== null;
    const workflow = await deps.discovery.preview(checkout, lookup.phoneNumber, useWallet).catch(() => null);
    return c.json(workflow === null ? lookup : { ...lookup, preview: { useWallet, workflow } }, 200, noStore);
  });

  app.post(companionRoutes.preview, ...reachesService({ allowExpired: false }), async (c) => {
    const body = await readJson(c, previewSchema);
    const checkout = c.get('checkout');
    await admitNumber(checkout, body.phoneNumber, undefined);
    const workflow = await withServiceErrors(deps, async () => {
      const lookup = await deps.discovery.lookup(checkout, body.phoneNumber, undefined);
      if (body.useWallet && !lookup.wallet) throw new PayerRefusal('BAD_REQUEST', 'The wallet is not offered for this number.');
      return deps.discovery.preview(checkout, lookup.phoneNumber, body.useWallet);
    });
    return c.json({ workflow }, 200, noStore);
  });

  app.post(companionRoutes.pay, ...reachesService({ allowExpired: false }), async (c) => {
    const body = await readJson(c, paySchema);
    await admitNumber(c.get('checkout'), body.phoneNumber, undefined);
    // Not "nothing was charged": that is not known once a pay-in may have been posted.
    const view = await withServiceErrors(deps, () => payCheckout(deps.payFlow, c.get('checkout'), body), payUnavailable);
    return c.json(view, 200, noStore);
  });

  app.get(companionRoutes.status, authenticate({ allowExpired: true }), async (c) => {
    const checkout = (await deps.store.getByOrderId(c.get('checkout').orderId)) ?? c.get('checkout');
    return c.json({ payment: paymentView(checkout) }, 200, noStore);
  });

  // Issue 23: only the payment's own approval page is encoded, never an address the page sends:
  // the route cannot be used to draw QR codes of anything else.
  app.get(companionRoutes.approvalQr, authenticate({ allowExpired: true }), async (c) => {
    const checkout = (await deps.store.getByOrderId(c.get('checkout').orderId)) ?? c.get('checkout');
    const url = paymentView(checkout)?.authorizationUrl;
    if (!url) throw new PayerRefusal('BAD_REQUEST', 'This payment has no approval page to show (yet): wait for the status stream to bring one.');
    return c.json(approvalQrView(url), 200, noStore);
  });

  app.get(companionRoutes.events, authenticate({ allowExpired: true }), async (c) => {
    const orderId = c.get('checkout').orderId;
    const lastEventId = Number.parseInt(c.req.header('last-event-id') ?? '', 10);
    const response = await deps.streams.open(
      orderId,
      async () => {
        const checkout = await deps.store.getByOrderId(orderId);
        return checkout ? paymentView(checkout) : null;
      },
      Number.isFinite(lastEventId) ? lastEventId : 0,
      c.req.raw.signal,
    );
    for (const [name, value] of Object.entries(corsHeaders(deps, c.req.header('origin')))) response.headers.set(name, value);
    return response;
  });

  app.get(`${companionRoutes.returnPrefix}:returnId`, async (c) => {
    // A payer who may just have approved a payment: whatever fails here, never a JSON error and
    // never "nothing was charged" (the webhook decides, §2.3).
    const confirming = 'Your payment is being confirmed. You can go back to the shop to see your order.';
    try {
      const checkout = await deps.store.getByReturnId(c.req.param('returnId'));
      const outcome = c.req.query('outcome') === 'success' ? 'success' : 'failure';
      if (!checkout) return c.html(returnPage('This payment link is no longer valid. Go back to the shop to see your order.'), 404);
      // §2.3: a browser return is never proof of payment; the element shows "confirming" until the webhook decides.
      await deps.markReturned(checkout);
      // Checked at creation; parsed again for records written before that check existed.
      const returnUrl = parseReturnUrl(checkout.returnUrl);
      if (!returnUrl) return c.html(returnPage(confirming), 200);
      const target = new URL(returnUrl);
      target.searchParams.set(returnQueryParam, outcome);
      // With one fixed return page for every order, this is how the page knows which order came back.
      target.searchParams.set(returnOrderQueryParam, checkout.orderId);
      return c.redirect(target.toString(), 303);
    } catch (error) {
      deps.log.error('return route failed', { error });
      return c.html(returnPage(confirming), 200);
    }
  });

  app.post(companionRoutes.webhook, async (c) => {
    const answer = await deps.acceptWebhook(new Uint8Array(await c.req.arrayBuffer()));
    return c.body(answer.body, answer.status, { 'content-type': 'application/json' });
  });

  return app;
}

const noStore = { 'cache-control': 'no-store' };

function corsHeaders(deps: AppDeps, origin: string | undefined): Record<string, string> {
  if (!origin || !isAllowedOrigin(deps, origin)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-headers': 'authorization, content-type, last-event-id',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

/**
 * The configured origins only. Never the request's own origin: that comes from its Host header,
 * which whoever sends the request writes (`Host: evil.example` with `Origin: http://evil.example`).
 */
function isAllowedOrigin(deps: AppDeps, origin: string): boolean {
  return deps.allowedOrigins.includes(origin);
}

function corsFor(deps: AppDeps) {
  const refuseOrigin = createOriginRefusal(deps.log, deps.now);
  return async function cors(c: Context<Env>, next: () => Promise<void>) {
    const origin = c.req.header('origin');
    const headers = corsHeaders(deps, origin);
    const allowed = origin !== undefined && isAllowedOrigin(deps, origin);
    const route = new URL(c.req.url).pathname;
    if (c.req.method === 'OPTIONS') {
      if (allowed) return c.body(null, 204, headers);
      const method = c.req.header('access-control-request-method') ?? 'OPTIONS';
      return c.text(refuseOrigin(origin, route, method), 403, headers);
    }
    // Every state-changing call must come from an allowed page (browsers always send Origin on POST).
    if (c.req.method !== 'GET' && !allowed) {
      refuseOrigin(origin, route, c.req.method);
      throw new PayerRefusal('ORIGIN_NOT_ALLOWED', 'This page is not allowed to use this checkout.');
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    return undefined;
  };
}

const payUnavailable = 'The payment service cannot be reached right now. Try again in a moment; you will not be charged twice.';

/** `message`: the default is for lookup and preview, which charge nothing. */
async function withServiceErrors<T>(
  deps: AppDeps,
  run: () => Promise<T>,
  message = 'The payment service cannot be reached right now. Nothing was charged; try again in a moment.',
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PayerRefusal) throw error;
    deps.log.error('service call failed', { error });
    throw new PayerRefusal('SERVICE_UNAVAILABLE', message);
  }
}

async function rememberDecimals(store: CheckoutStore, checkout: CheckoutRecord, decimalPlaces: number): Promise<void> {
  await updateCheckoutRecord(store, checkout.orderId, (current) => (current.decimalPlaces === decimalPlaces ? null : { ...current, decimalPlaces }));
}

function returnPage(message: string): string {
  const escaped = message.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title><p>${escaped}</p></html>`;
}
