/**
 * Part `page-routes/` (docs/architecture.md): the routes the element calls (checkout, lookup,
 * preview, pay, status, the status stream, return) and the notification route, their limits, client
 * address and refusal answers. May import http-answers/, notifications/, payments/, stores/, model/
 * and the foundation; never the composition root.
 *
 * The companion's routes, on Hono (a tiny router around `fetch(Request) => Response`):
 * the page's JSON routes under `/checkout` (token, CORS, Origin), the return route after an
 * authorisation page, and the service's webhook.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import { companionRoutes } from '../../contract/companion.js';
import { PayerRefusal, TooManyRequests, TryAgainShortly } from '../model/payer-refusal.js';
import { payCheckout } from '../payments/pay-flow.js';
import { storeRetryAfterSeconds, StoreUnavailableError } from '../stores/store-guard.js';
import { checkoutView, paymentView } from '../model/payment-view.js';
import { approvalQrView } from './approval-qr.js';
import { maxBrowserBody, noStore, type AppDeps, type Env } from './app-deps.js';
import { corsFor, corsHeaders } from './cors.js';
import { BodyRefusedError, refusalBody, refusalStatus } from './refusal-answer.js';
import { registerReturnRoute } from './return-route.js';
import { admitNumber, authenticate, payUnavailable, reachesService, readJson, rememberDecimals, storeUnavailable, withServiceErrors } from './route-guards.js';
import { registerWebhookRoute } from './webhook-route.js';
import { registerLinkPages } from './link-page-routes.js';
import { readElementFiles } from './link-page-assets.js';
import { registerAppPage } from './app-page/app-page-routes.js';

export type { AppDeps } from './app-deps.js';

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
    if ((error instanceof TooManyRequests || error instanceof TryAgainShortly) && error.retryAfterSeconds !== undefined) c.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof BodyRefusedError) c.header('connection', 'close');
    if (error instanceof PayerRefusal) return c.json(refusalBody(error), refusalStatus(error) as 400);
    // The store's deadline (stores/store-guard.ts) logged the outage once: no line per request.
    if (error instanceof StoreUnavailableError) {
      c.header('retry-after', String(storeRetryAfterSeconds));
      return c.json(refusalBody(storeUnavailable), 503);
    }
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
      // A header a route set itself stands: a payment link's page asks for `same-origin`, without
      // which its form and the element's calls would carry `Origin: null` (link-page-routes.ts).
      overwrite: false,
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
  registerWebhookRoute(app, deps);
  if (deps.linkPages) {
    // One read of the element's built files for the link pages and the app page.
    const elementFiles = readElementFiles(deps.linkPages.elementAssetsDir);
    registerLinkPages(app, deps.linkPages, elementFiles);
    registerAppPage(app, deps.linkPages, elementFiles);
  }
  app.get(companionRoutes.checkout, authenticate(deps, { allowExpired: true }), async (c) => {
    const checkout = c.get('checkout');
    // An empty list would tell the payer the order cannot be paid (issue 13): a failed discovery is "try again".
    const countries = await withServiceErrors(deps, () => deps.discovery.countries(checkout.currencyCode));
    return c.json(checkoutView(checkout, countries), 200, noStore);
  });

  app.post(companionRoutes.lookup, ...reachesService(deps, { allowExpired: false }), async (c) => {
    const body = await readJson(c, lookupSchema);
    const checkout = c.get('checkout');
    await admitNumber(deps, checkout, body.phoneNumber, body.country);
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

  app.post(companionRoutes.preview, ...reachesService(deps, { allowExpired: false }), async (c) => {
    const body = await readJson(c, previewSchema);
    const checkout = c.get('checkout');
    await admitNumber(deps, checkout, body.phoneNumber, undefined);
    const workflow = await withServiceErrors(deps, async () => {
      const lookup = await deps.discovery.lookup(checkout, body.phoneNumber, undefined);
      if (body.useWallet && !lookup.wallet) throw new PayerRefusal('BAD_REQUEST', 'The wallet is not offered for this number.');
      return deps.discovery.preview(checkout, lookup.phoneNumber, body.useWallet);
    });
    return c.json({ workflow }, 200, noStore);
  });

  app.post(companionRoutes.pay, ...reachesService(deps, { allowExpired: false }), async (c) => {
    const body = await readJson(c, paySchema);
    await admitNumber(deps, c.get('checkout'), body.phoneNumber, undefined);
    // Not "nothing was charged": that is not known once a pay-in may have been posted.
    const view = await withServiceErrors(deps, () => payCheckout(deps.payFlow, c.get('checkout'), body), payUnavailable);
    return c.json(view, 200, noStore);
  });

  app.get(companionRoutes.status, authenticate(deps, { allowExpired: true }), async (c) => {
    const checkout = (await deps.store.getByOrderId(c.get('checkout').orderId)) ?? c.get('checkout');
    return c.json({ payment: paymentView(checkout) }, 200, noStore);
  });

  // Issue 23: only the payment's own approval page is encoded, never an address the page sends:
  // the route cannot be used to draw QR codes of anything else.
  app.get(companionRoutes.approvalQr, authenticate(deps, { allowExpired: true }), async (c) => {
    const checkout = (await deps.store.getByOrderId(c.get('checkout').orderId)) ?? c.get('checkout');
    const url = paymentView(checkout)?.authorizationUrl;
    if (!url) throw new PayerRefusal('BAD_REQUEST', 'This payment has no approval page to show (yet): wait for the status stream to bring one.');
    return c.json(approvalQrView(url), 200, noStore);
  });

  app.get(companionRoutes.events, authenticate(deps, { allowExpired: true }), async (c) => {
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

  registerReturnRoute(app, deps);
  return app;
}

