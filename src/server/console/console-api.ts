/**
 * The console's JSON routes under `console/api/` (shapes in src/contract/console.ts), behind the
 * session and CSRF checks of console-routes.ts. Reads go through the store's interface; actions reuse
 * what the server API does: the refund flow, the redelivery through the delivery queue, the signed
 * test notification. Domain refusals become answers here, and nowhere below.
 */
import type { Hono } from 'hono';
import type {
  ConsoleEndpointHealth,
  ConsoleOverview,
  ConsolePaymentFilter,
  ConsolePingResult,
  ConsoleRedelivery,
  ConsoleSession,
} from '../../contract/console.js';
import { consolePaymentStates } from '../../contract/console.js';
import type { PaymentState } from '../../contract/companion.js';
import type { Redeliver } from '../deliveries/redeliver.js';
import type { PingResult } from '../deliveries/merchant-notifications.js';
import { hasUnusableCharacters, unusableIdReason } from '../model/id-text.js';
import type { RefundView } from '../model/refund.js';
import { listPaymentSummaries } from '../payments/payments-list.js';
import { RefundRefusal } from '../refunds/refund-refusal.js';
import type { RefundRequest } from '../refunds/refund-rules.js';
import type { CheckoutStore } from '../stores/store.js';
import { lastEndpointDeliveries } from './endpoint-health.js';
import { packagedElementFileProblems } from '../setup/element-files-check.js';
import { readOperatorRates, readPaymentsPerHour } from './overview-reads.js';
import { findOrder, findPayments, findUnpaidCheckout, paymentDetail } from './payment-queries.js';
import type { ConsoleSessions, SignedSession } from './console-session.js';
import { exportAnswer, ExportWindowError } from '../http-answers/export-answer.js';
import { refundRefusalAnswer } from '../http-answers/refund-answers.js';
import { consoleRefusal } from './console-refusal.js';
import type { Logger } from '../log.js';
import { registerConsoleLinkApi, type ConsoleLinkDeps } from './console-link-api.js';

export interface ConsoleApiDeps {
  store: CheckoutStore;
  now: () => number;
  staleAfterMinutes: number;
  refunds: boolean;
  refund(orderId: string, request: RefundRequest): Promise<RefundView>;
  /** Absent when no merchant endpoint is configured (MOMO_MERCHANT_WEBHOOK_URL). */
  redeliver?: Redeliver | undefined;
  pingMerchant?: (() => Promise<PingResult>) | undefined;
  merchantWebhookUrl?: string | undefined;
  sessions: ConsoleSessions;
  /** Where the package's script-tag files are (default: the installed package's `dist/browser/`). */
  elementFilesDir?: string | undefined;
  /** The payment links' actions, the server API's own (links/link-actions.ts), and their QR codes; the companion always gives them. */
  links?: ConsoleLinkDeps | undefined;
  log: Logger;
}

export function registerConsoleApi(app: Hono<{ Variables: { session: SignedSession }; Bindings: { clientAddress: string | undefined } }>, deps: ConsoleApiDeps): void {
  app.get('/api/session', async (c) => {
    const session = c.get('session');
    const body: ConsoleSession = {
      csrfToken: await deps.sessions.csrfToken(session),
      expiresAt: new Date(session.expiresAt).toISOString(),
      merchantEndpoint: deps.redeliver !== undefined,
      refunds: deps.refunds,
    };
    return c.json(body);
  });

  // A NUL or a lone surrogate in an order id is a 400 on every store, never the engine's error (model/id-text.ts).
  const unusableOrderId = consoleRefusal('BAD_REQUEST', `The order id ${unusableIdReason('order id')}.`);
  app.use('/api/payments/:orderId/*', async function usableOrderId(c, next) {
    if (hasUnusableCharacters(c.req.param('orderId') ?? '')) return c.json(...unusableOrderId);
    await next();
  });

  app.get('/api/payments', async (c) => {
    const searched = new URL(c.req.url).searchParams.get('orderId');
    if (searched && hasUnusableCharacters(searched)) return c.json(...unusableOrderId);
    const filter = paymentFilter(new URL(c.req.url).searchParams);
    if (filter === null) return c.json(...consoleRefusal('BAD_REQUEST', `state must be one of ${[...consolePaymentStates, 'open'].join(', ')}; withinHours a number of hours.`));
    const payments = await findPayments(deps.store, filter, deps.now());
    const unpaidCheckout = payments.length === 0 ? await findUnpaidCheckout(deps.store, filter) : undefined;
    return c.json(unpaidCheckout ? { payments, unpaidCheckout } : { payments });
  });

  // The accountant's export, the server API's own answer (http-answers/export-answer.ts) behind the
  // console's session: a plain GET, so the page's download link needs no script to fetch it
  // (`format=xlsx` for the workbook, a link cannot set Accept).
  app.get('/api/export', async (c) => {
    const format = c.req.query('format') ?? 'csv';
    if (format !== 'csv' && format !== 'xlsx') return c.json(...consoleRefusal('BAD_REQUEST', `format must be csv or xlsx; got ${JSON.stringify(format)}.`));
    try {
      return await exportAnswer(deps.store, { from: c.req.query('from'), to: c.req.query('to') }, deps.now(), deps.log, format);
    } catch (error) {
      if (error instanceof ExportWindowError) return c.json(...consoleRefusal('BAD_REQUEST', error.message));
      throw error;
    }
  });

  app.get('/api/payments/:orderId', async (c) => {
    const record = await findOrder(deps.store, c.req.param('orderId'));
    if (!record?.payment) return c.json(...consoleRefusal('NOT_FOUND', 'No payment for this order id (a payment is kept a week after its last change).'));
    return c.json(paymentDetail(record, deps.now()));
  });

  app.post('/api/payments/:orderId/redeliver', async (c) => {
    if (!deps.redeliver) return c.json(...consoleRefusal('NO_MERCHANT_ENDPOINT', 'This companion sends no notifications to your backend: set MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET.'));
    const outcomes = await deps.redeliver({ orderId: c.req.param('orderId') });
    if (outcomes === null) return c.json(...consoleRefusal('NOT_FOUND', 'No checkout for this order id: nothing to send again.'));
    const body: ConsoleRedelivery = {
      deliveries: outcomes.map((outcome) => ({
        webhookId: outcome.webhookId,
        reportedState: outcome.reportedState,
        delivered: outcome.delivered,
        status: outcome.status ?? null,
        error: outcome.error ?? null,
      })),
    };
    return c.json(body);
  });

  app.post('/api/payments/:orderId/refunds', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { refundId?: unknown; amount?: unknown } | null;
    if (typeof body?.refundId !== 'string' || typeof body.amount !== 'string') {
      return c.json(...consoleRefusal('BAD_REQUEST', 'Send { "refundId": "...", "amount": "..." } as JSON.'));
    }
    try {
      const refund = await deps.refund(c.req.param('orderId'), { refundId: body.refundId, amount: body.amount, reason: 'console' });
      return c.json({ refund });
    } catch (error) {
      if (error instanceof RefundRefusal) return c.json(...refundRefusalAnswer(error));
      throw error;
    }
  });

  // Read once: the package's files do not change under a running process, and a scrape of the
  // overview should not hash 700 KB each time.
  let packageProblems: Promise<string[]> | undefined;
  app.get('/api/overview', async (c) => {
    const now = deps.now();
    packageProblems ??= packagedElementFileProblems(deps.elementFilesDir);
    const [hours, operators, stale, problems] = await Promise.all([
      readPaymentsPerHour(deps.store, now),
      readOperatorRates(deps.store, now),
      listPaymentSummaries(deps.store, { state: 'stale', olderThanMinutes: deps.staleAfterMinutes }, now),
      packageProblems,
    ]);
    const body: ConsoleOverview = {
      hours,
      operators,
      stale: stale.map(({ orderId, serviceOrderId, transactionId, amount, currencyCode, ageMinutes, action }) => ({ orderId, serviceOrderId, transactionId, amount, currencyCode, ageMinutes, action })),
      staleAfterMinutes: deps.staleAfterMinutes,
      packageProblems: problems,
    };
    return c.json(body);
  });

  app.get('/api/endpoint', async (c) => {
    const body: ConsoleEndpointHealth = { url: deps.merchantWebhookUrl ?? null, deliveries: await lastEndpointDeliveries(deps.store) };
    return c.json(body);
  });

  app.post('/api/endpoint/test', async (c) => {
    if (!deps.pingMerchant) return c.json(...consoleRefusal('NO_MERCHANT_ENDPOINT', 'This companion sends no notifications to your backend: set MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET.'));
    const result = await deps.pingMerchant();
    const body: ConsolePingResult = { ok: result.ok, status: result.status ?? null, durationMs: result.durationMs, error: result.ok ? null : result.error };
    return c.json(body);
  });

  if (deps.links) registerConsoleLinkApi(app, deps.links, deps.store);
}

/** The list's filter from the query string, or null when a value is not one we know. */
function paymentFilter(params: URLSearchParams): ConsolePaymentFilter | null {
  const filter: ConsolePaymentFilter = {};
  const state = params.get('state');
  if (state) {
    if (state !== 'open' && !consolePaymentStates.includes(state as PaymentState)) return null;
    filter.state = state as PaymentState | 'open';
  }
  const within = params.get('withinHours');
  if (within) {
    const hours = Number(within);
    if (!Number.isFinite(hours) || hours <= 0) return null;
    filter.withinHours = hours;
  }
  const orderId = params.get('orderId')?.trim();
  if (orderId) filter.orderId = orderId;
  return filter;
}
