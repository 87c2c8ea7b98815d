/**
 * Part `server-api/` (docs/architecture.md): the server API a backend in any language calls
 * (routes, schemas, server secret). May import notifications/, payments/, stores/, model/ and the
 * foundation; never the composition root.
 *
 * The server API (merchant backend → companion), under `<mount path>/server`: create a checkout,
 * read a payment with its deliveries, list payments, relay a raw notification. It is what lets a
 * PHP, Python or Ruby backend use the companion with a few HTTP calls (`npx momo-checkout serve`);
 * library mode opens it too when `serverSecret` is set. Same core as the library: every handler
 * calls what `createCompanion` gives a Node merchant.
 *
 * Access: `Authorization: Bearer <serverSecret>` only, never a checkout token; and never from a
 * browser (a request with an `Origin` header is refused): the page has its own routes.
 */
import { OpenAPIHono, type Hook } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../log.js';
import { CheckoutConflictError, CheckoutError, type CheckoutOrder, type CreatedCheckout } from '../payments/checkouts.js';
import { answerToRelay, webhookBodyLimit } from '../http-answers/notification-answers.js';
import { summarise, type PaymentListQuery, type PaymentSummary } from '../payments/payments-list.js';
import { reportedBy, type CheckoutRecord } from '../model/records.js';
import { createServerSecretCheck } from './server-secret.js';
import { serverApiPrefix } from './server-api-schemas.js';
import { createCheckoutRoute, getPaymentRoute, listPaymentsRoute, serverApiDocument } from './server-api-routes.js';
import { StoreDataError, type CheckoutStore } from '../stores/store.js';
import { paymentView } from '../model/payment-view.js';
import type { RelayOutcome } from '../notifications/notification-types.js';
import { storeRetryAfterSeconds, StoreUnavailableError } from '../stores/store-guard.js';
import { registerRedeliveryRoutes, type RedeliveryDeps } from './redelivery-routes.js';
import { ServerApiError } from './server-api-error.js';
import { refundView, type RefundView } from '../model/refund.js';
import type { RefundRequest } from '../refunds/refund-rules.js';
import { registerRefundRoute } from './refund-route.js';
import { registerPaymentsExport } from './payments-export-route.js';
import { withDeprecatedAttemptNames, withDeprecatedPendingNames } from './deprecated-fields.js';
import type { LinkActions } from '../links/link-actions.js';
import { registerLinkRoutes } from './link-routes.js';

export interface ServerApiDeps {
  /** The companion's mount path (`/momo`); the API lives under `<mountPath>/server`. */
  mountPath: string;
  /** `<publicUrl origin><mountPath>`, for the OpenAPI document's server URL. */
  publicBase: string;
  secret: string;
  /** The companion's store behind a deadline (store-guard.ts): its failures are answered 503. */
  store: CheckoutStore;
  createCheckout(order: CheckoutOrder): Promise<CreatedCheckout>;
  relayNotification(raw: Uint8Array): Promise<RelayOutcome>;
  listPayments(query: PaymentListQuery): Promise<PaymentSummary[]>;
  refund(orderId: string, request: RefundRequest): Promise<RefundView>;
  log: Logger;
  now: () => number;
  /** Sending a payment's notifications again and the test notification (redelivery-routes.ts). */
  merchantEndpoint?: RedeliveryDeps;
  /** The payment links' actions (links/link-actions.ts). */
  links: LinkActions;
}

export interface ServerApi {
  /** True for a path under `<mountPath>/server`. */
  handles(pathname: string): boolean;
  fetch(request: Request): Promise<Response>;
}

export function createServerApi(deps: ServerApiDeps): ServerApi {
  const prefix = `${deps.mountPath}${serverApiPrefix}`;
  const isSecret = createServerSecretCheck(deps.secret);
  const document = serverApiDocument(`${deps.publicBase}${serverApiPrefix}`);
  const app = new OpenAPIHono({ defaultHook: refuseInvalid }).basePath(prefix);

  app.onError((error, c) => {
    const known = asServerApiError(error);
    if (error instanceof StoreUnavailableError) deps.log.error('server API: store unavailable, answered 503', { path: new URL(c.req.url).pathname, error });
    if (error instanceof StoreDataError) deps.log.error('server API: the store refused a value of this request, answered 500', { path: new URL(c.req.url).pathname, error });
    if (known?.refusesBody) c.header('connection', 'close');
    if (known?.code === 'STORE_UNAVAILABLE') c.header('retry-after', String(storeRetryAfterSeconds));
    if (known) return c.json({ error: { code: known.code, message: known.message } }, known.status);
    deps.log.error('server API route failed', { path: new URL(c.req.url).pathname, error });
    return c.json(
      { error: { code: 'INTERNAL', message: 'The companion could not complete this request (its log says why). Retrying is safe: creating a checkout is idempotent on orderId.' } },
      500,
    );
  });
  app.notFound(() => {
    throw new ServerApiError('NOT_FOUND', `No such server API route. The routes are listed in ${prefix}/openapi.json.`);
  });

  // Public on purpose (it holds no secret, and is docs/openapi.json with this server's URL), and
  // registered first so that it answers before the checks below.
  app.get('/openapi.json', (c) => c.json(document, 200, { 'cache-control': 'no-store' }));

  app.use('*', async function refuseBrowsers(c: Context, next: Next) {
    // Browsers send Origin on every cross-origin request and every POST; a backend's HTTP client
    // sends none. The page has its own routes and its own token: this secret must never be there.
    if (c.req.header('origin') !== undefined) {
      throw new ServerApiError(
        'BROWSER_NOT_ALLOWED',
        "This API is for the merchant's backend only: call it from your server (the request carried a browser Origin header). A page uses the checkout token on the page routes instead.",
      );
    }
    await next();
  });
  app.use('*', async function authenticate(c: Context, next: Next) {
    const header = c.req.header('authorization') ?? '';
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!presented) {
      c.header('www-authenticate', 'Bearer');
      throw new ServerApiError('UNAUTHORIZED', 'Send the server secret as "Authorization: Bearer <MOMO_SERVER_SECRET>".');
    }
    if (!(await isSecret(presented))) {
      c.header('www-authenticate', 'Bearer error="invalid_token"');
      throw new ServerApiError('UNAUTHORIZED', 'This is not the server secret: use the value of MOMO_SERVER_SECRET (a checkout token opens only the page routes).');
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: webhookBodyLimit.maxBytes,
      onError: () => {
        throw new ServerApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${webhookBodyLimit.maxBytes / 1024} KB.`, true);
      },
    }),
  );

  app.openapi(createCheckoutRoute, async (c) => {
    const order = c.req.valid('json');
    try {
      return c.json(await deps.createCheckout(order), 200);
    } catch (error) {
      if (error instanceof CheckoutConflictError) throw new ServerApiError('CONFLICT', withoutPrefix(error.message));
      if (error instanceof CheckoutError) throw new ServerApiError('BAD_REQUEST', withoutPrefix(error.message));
      throw error;
    }
  });

  // Before the JSON list: the same path asked with `Accept: text/csv` is the accountant's export.
  registerPaymentsExport(app, deps);

  app.openapi(listPaymentsRoute, async (c) => {
    const query = c.req.valid('query');
    return c.json({ payments: await deps.listPayments(query) }, 200);
  });

  app.openapi(getPaymentRoute, async (c) => {
    const { orderId } = c.req.valid('param');
    const record = await deps.store.getByOrderId(orderId);
    if (!record) {
      throw new ServerApiError(
        'NOT_FOUND',
        `No checkout for order ${JSON.stringify(orderId)}: create it with POST ${prefix}/checkouts. (An unpaid checkout is forgotten an hour after its token expires; a payment is kept a week after its last change.)`,
      );
    }
    return c.json(paymentDetails(record, deps.now()), 200);
  });

  registerRefundRoute(app, deps.refund);

  // Not `app.openapi`: a JSON validator would parse the body, and Hono would then hand the handler
  // a re-serialised text, which the signature check rightly refuses. The route is documented in
  // server-api-schemas.ts (relayNotificationRoute) all the same.
  app.post('/notifications', async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    let outcome: RelayOutcome;
    try {
      outcome = await deps.relayNotification(raw);
    } catch (error) {
      // Kept in the inbox but not applied (the store failed meanwhile), or not kept at all.
      deps.log.error('relayed notification could not be stored or applied', { error });
      outcome = { kind: 'unavailable' };
    }
    const answer = answerToRelay(outcome);
    if (!answer.ok) throw new ServerApiError(answer.code, answer.message);
    return c.json(answer.body, 200);
  });

  registerRedeliveryRoutes(app, deps.merchantEndpoint ?? {});
  registerLinkRoutes(app, deps.links);

  return {
    handles: (pathname) => pathname === prefix || pathname.startsWith(`${prefix}/`),
    fetch: async (request) => app.fetch(request),
  };
}

function paymentDetails(record: CheckoutRecord, now: number) {
  const iso = (at: number) => new Date(at).toISOString();
  return {
    orderId: record.orderId,
    amount: record.amount,
    currencyCode: record.currencyCode,
    expiresAt: iso(record.expiresAt),
    payment: paymentView(record),
    summary: record.payment ? summarise(record, now) : null,
    deliveries: {
      pending: (record.deliveries ?? []).map((delivery) =>
        withDeprecatedPendingNames({
          webhookId: delivery.id,
          sink: delivery.sink,
          ...reportedBy(delivery),
          attempts: delivery.attempts,
          createdAt: iso(delivery.createdAt),
          nextAttemptAt: iso(delivery.nextAttemptAt),
        }),
      ),
      log: (record.deliveryLog ?? []).map(({ deliveryId, ...attempt }) => withDeprecatedAttemptNames({ webhookId: deliveryId, ...attempt, at: iso(attempt.at) })),
    },
    refunds: (record.refunds ?? []).map((refund) => refundView(refund, record.currencyCode)),
  };
}

/** Validation failures, one message naming the field and what it must be. */
const refuseInvalid: Hook<unknown, any, any, unknown> = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = result.target === 'json' ? 'in the JSON body' : result.target === 'query' ? 'in the query string' : 'in the path';
  const refusesBody = result.target === 'json';
  if (!issue) throw new ServerApiError('BAD_REQUEST', `The request is invalid ${where}.`, refusesBody);
  // The validator hands the hook what it read (not in the published type).
  const input = (result as { data?: unknown }).data;
  if (result.target === 'json' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new ServerApiError('BAD_REQUEST', 'The JSON body must be an object, e.g. {"orderId":"order-42","amount":"5000","currencyCode":"XOF"}.', true);
  }
  const path = issue.path.map(String).join('.');
  if (valueAt(input, issue.path) === undefined) throw new ServerApiError('BAD_REQUEST', `Field "${path}" ${where} is missing.`, refusesBody);
  throw new ServerApiError('BAD_REQUEST', `Field "${path}" ${where}: ${issue.message}.`, refusesBody);
};

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function asServerApiError(error: unknown): ServerApiError | undefined {
  if (error instanceof ServerApiError) return error;
  if (error instanceof StoreDataError) {
    // Not an outage: the same request fails the same way (issue 55). The merchant's own texts are
    // checked before the store sees them, so this is the companion's to fix: no "retry" here.
    return new ServerApiError('INTERNAL', `The companion's store refused a value of this request (${error.message}). Repeating it unchanged fails the same way: the companion's log has the details for its maintainers.`);
  }
  if (error instanceof StoreUnavailableError) {
    return new ServerApiError('STORE_UNAVAILABLE', `The companion's store cannot be read or written right now (${error.message}). Retry in a few seconds, unchanged (every call is safe to repeat); /readyz says when it is back.`);
  }
  if (error instanceof HTTPException) {
    if (error.status === 415) return new ServerApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON, with "Content-Type: application/json".', true);
    if (error.status === 400) return new ServerApiError('BAD_REQUEST', 'The body is not valid JSON: send a JSON object with "Content-Type: application/json".', true);
    if (error.status === 413) return new ServerApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${webhookBodyLimit.maxBytes / 1024} KB.`, true);
  }
  return undefined;
}

function withoutPrefix(message: string): string {
  return message.replace(/^createCheckout: /, '');
}
