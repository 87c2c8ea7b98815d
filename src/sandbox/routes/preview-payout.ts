/** GET /v1/pay-in/preview (§4.2), POST /v1/pay-out (§4.3) and POST /v1/webhook-secrets (§4.7). */
import type { Hono } from 'hono';
import { fromMinorUnits, toMinorUnits } from '../../contract/money.js';
import type { SandboxCore } from '../core.js';
import { conflict, fail, ok } from '../envelope.js';
import { computeFees, minorToNumber } from '../catalogue/fees.js';
import { resolveWorkflow } from '../catalogue/resolve.js';
import { outcomeOf } from '../catalogue/test-numbers.js';
import { readOrderRequest, checkPayment, checkWebhookUrl } from './validate.js';

export function registerPreview(app: Hono, core: SandboxCore): void {
  app.get('/v1/pay-in/preview', (c) => {
    const phoneNumber = c.req.query('phoneNumber');
    const currencyCode = c.req.query('currencyCode');
    const amountText = c.req.query('amount');
    // §8: phoneNumber and currencyCode length at least 1; amount > 0.
    if (!phoneNumber) return fail(400, 'VALIDATION_ERROR', 'phoneNumber is required (strict E.164, + encoded as %2B)');
    if (!currencyCode) return fail(400, 'VALIDATION_ERROR', 'currencyCode is required (e.g. XOF)');
    if (!amountText) return fail(400, 'VALIDATION_ERROR', 'amount is required and must be greater than 0');
    const checked = checkPayment({ phoneNumber, currencyCode, rawAmount: amountText, operatorCode: c.req.query('operatorCode') });
    if (!checked.ok) return checked.response;
    const payment = checked.value;
    // §4.2: a never-seen number may be assigned a provider pair by this call alone; count them.
    core.recordPreview(payment.phoneNumber);
    const fees = computeFees(payment.operator, payment.amount, payment.decimalPlaces);
    const places = payment.decimalPlaces;
    return ok({
      feeProvider: minorToNumber(fees.feeProviderMinor, places),
      feePlatform: minorToNumber(fees.feePlatformMinor, places),
      feeTotal: minorToNumber(fees.feeTotalMinor, places),
      amountCredited: minorToNumber(fees.amountCreditedMinor, places),
      workflowType: resolveWorkflow(payment.operator, payment.amount),
    });
  });
}

export function registerPayOut(app: Hono, core: SandboxCore): void {
  app.post('/v1/pay-out', async (c) => {
    const request = await readOrderRequest(c.req.raw);
    if (!request.ok) return request.response;
    const { body, rawAmount, orderId } = request.value;
    // A pay-out goes to the operator of the number's prefix; the overlay wallet is pay-in only here.
    const checked = checkPayment({ phoneNumber: body.phoneNumber, currencyCode: body.currencyCode, rawAmount, operatorCode: undefined });
    if (!checked.ok) return checked.response;
    const payment = checked.value;
    const webhookUrl = checkWebhookUrl(body.webhookUrl);
    if (!webhookUrl.ok) return webhookUrl.response;
    if (core.get(orderId)) return conflict(`a transaction with orderId ${orderId} already exists; never change the orderId, wait for its webhook`);
    const amountMinor = toMinorUnits(payment.amount, payment.decimalPlaces);
    const sufficient = core.balance(payment.currencyCode) >= amountMinor;
    const record = core.create({
      kind: 'payout',
      orderId,
      amount: payment.amount,
      rawAmount: payment.rawAmount,
      currencyCode: payment.currencyCode,
      phoneNumber: payment.phoneNumber,
      operator: payment.operator,
      workflow: payment.operator.workflow,
      outcome: outcomeOf(payment.phoneNumber),
      webhookUrl: webhookUrl.value,
      creditMinor: 0n,
    });
    if (!sufficient) {
      // §2.5 / §7: a synchronous pay-out failure names its cause, in the answer and the webhook.
      record.status = 'failed';
      record.failureCategory = 'INSUFFICIENT_FUNDS';
      record.failureReason = `the ${payment.currencyCode} balance is lower than ${payment.amount}`;
      core.log(`payout ${orderId} failed: insufficient funds`);
      core.schedule(0, () => core.notify(record));
    } else {
      core.adjustBalance(payment.currencyCode, -amountMinor);
      if (record.outcome === 'no-answer') {
        core.log(`payout ${orderId}: the recipient's operator never answers; it stays pending until control.settle`);
      } else {
        core.schedule(core.pushDelayMs, async () => {
          if (record.status !== 'pending' || core.get(record.orderId) !== record) return;
          await core.settle(record, record.outcome === 'approve' ? 'completed' : 'failed');
        });
      }
    }
    const data: Record<string, unknown> = {
      orderId: record.orderId,
      transactionId: record.transactionId,
      status: record.status,
      newBalance: Number(fromMinorUnits(core.balance(payment.currencyCode), payment.decimalPlaces)),
      message: sufficient ? 'Pay-out accepted. The outcome arrives by webhook.' : 'Pay-out failed: insufficient funds.',
    };
    if (record.failureCategory !== undefined) {
      data.failureCategory = record.failureCategory;
      data.failureReason = record.failureReason;
    }
    return ok(data);
  });
}

export function registerWebhookSecrets(app: Hono, core: SandboxCore): void {
  // §4.7: returned once; it signs from now on (the newest active secret, §5.7). Earlier ones stay active.
  app.post('/v1/webhook-secrets', (c) => ok({ secret: core.createWebhookSecret(), createdAt: new Date(core.now()).toISOString() }, 200));
}
