/**
 * POST /v1/pay-in (§4.1, §2.3, §7): validate, resolve the corridor from the number and the
 * amount, answer 422 BEFORE any write when an element is missing, then accept (`pending`) and play
 * the payer's part: a push answered after pushDelayMs, an OTP already checked, or a redirect page.
 */
import type { Hono } from 'hono';
import { constantTimeEqual } from '../../contract/constant-time.js';
import { SANDBOX_OTP } from '../catalogue/catalogue.js';
import type { SandboxCore, TransactionRecord } from '../core.js';
import type { PayerBase } from '../paths.js';
import { conflict, fail, missingElement, ok } from '../envelope.js';
import { computeFees } from '../catalogue/fees.js';
import { isWithinBounds, resolveWorkflow } from '../catalogue/resolve.js';
import { outcomeOf } from '../catalogue/test-numbers.js';
import { readOrderRequest, checkPayment, checkWebhookUrl, isHttpUrl } from './validate.js';

export function registerPayIn(app: Hono, core: SandboxCore, payerBase: PayerBase): void {
  app.post('/v1/pay-in', async (c) => {
    const request = await readOrderRequest(c.req.raw);
    if (!request.ok) return request.response;
    const { body, rawAmount, orderId } = request.value;
    const checked = checkPayment({
      phoneNumber: body.phoneNumber,
      currencyCode: body.currencyCode,
      rawAmount,
      operatorCode: body.operatorCode,
    });
    if (!checked.ok) return checked.response;
    const payment = checked.value;
    const webhookUrl = checkWebhookUrl(body.webhookUrl);
    if (!webhookUrl.ok) return webhookUrl.response;
    if (body.otp !== undefined && typeof body.otp !== 'string') {
      return fail(400, 'VALIDATION_ERROR', 'otp must be a string, passed exactly as the payer typed it');
    }
    const redirectUrls = body.redirectUrls;
    if (redirectUrls !== undefined && (redirectUrls === null || typeof redirectUrls !== 'object')) {
      return fail(400, 'VALIDATION_ERROR', 'redirectUrls must be an object { success, failure }');
    }
    const urls = (redirectUrls ?? {}) as { success?: unknown; failure?: unknown };
    // §8: only http:// and https:// are accepted for redirectUrls.
    for (const key of ['success', 'failure'] as const) {
      if (urls[key] !== undefined && !isHttpUrl(urls[key])) {
        return fail(400, 'VALIDATION_ERROR', `redirectUrls.${key} must be an http:// or https:// URL`);
      }
    }
    if (!isWithinBounds(payment.corridor, payment.amount)) {
      const max = payment.corridor.maxAmountMajor ?? 'no ceiling';
      return fail(
        400,
        'AMOUNT_OUT_OF_RANGE',
        `amount ${payment.amount} ${payment.currencyCode} is outside ${payment.operator.name}'s bounds (min ${payment.corridor.minAmountMajor}, max ${max})`,
      );
    }
    const workflow = resolveWorkflow(payment.operator, payment.amount);
    // §7: a 422 happens before any write and any PSP call.
    if (workflow === 'pre_authorized' && (typeof body.otp !== 'string' || body.otp.length === 0)) {
      return missingElement('OTP_REQUIRED', `${payment.operator.name} needs a payment code the payer generates on their phone; re-post the same orderId with otp`);
    }
    if (workflow === 'redirect_url' && (typeof urls.success !== 'string' || typeof urls.failure !== 'string')) {
      return missingElement('REDIRECT_URLS_REQUIRED', 'this payment is approved on a web page; re-post the same orderId with redirectUrls.success and redirectUrls.failure');
    }
    if (core.get(orderId)) return conflict(`a transaction with orderId ${orderId} already exists; never change the orderId, wait for its webhook`);
    // Sandbox behaviour: a refused code creates nothing, so the payer can retry with the same orderId.
    // The payer's code is a secret like the others: compared by the project's one constant-time compare.
    if (workflow === 'pre_authorized' && !constantTimeEqual(String(body.otp), SANDBOX_OTP)) {
      core.log(`pay-in ${orderId}: the operator refused the payment code`);
      return fail(400, 'VALIDATION_ERROR', 'the operator refused this code: ask the payer to generate a new one and re-post the same orderId');
    }
    const fees = computeFees(payment.operator, payment.amount, payment.decimalPlaces);
    const record = core.create({
      kind: 'payin',
      orderId,
      amount: payment.amount,
      rawAmount: payment.rawAmount,
      currencyCode: payment.currencyCode,
      phoneNumber: payment.phoneNumber,
      operator: payment.operator,
      workflow,
      outcome: outcomeOf(payment.phoneNumber),
      webhookUrl: webhookUrl.value,
      redirectUrls: workflow === 'redirect_url' ? { success: urls.success as string, failure: urls.failure as string } : undefined,
      creditMinor: fees.amountCreditedMinor,
    });
    playThePayer(core, record, payerBase(c.req.url));
    return ok({
      orderId: record.orderId,
      transactionId: record.transactionId,
      status: 'pending',
      message: messageFor(workflow),
    });
  });
}

function messageFor(workflow: string): string {
  if (workflow === 'provider_auth') return 'Payment request sent: the payer approves it on their phone. The outcome arrives by webhook.';
  if (workflow === 'redirect_url') return 'Payment request accepted: the authorisation URL arrives by webhook.';
  return 'Payment request accepted with the payer\'s code. The outcome arrives by webhook.';
}

/** What the payer (and the PSP) do after the 200: always after the answer is sent (§6.4 "respond first"). */
function playThePayer(core: SandboxCore, record: TransactionRecord, base: string): void {
  if (record.workflow === 'redirect_url') {
    record.authorizationUrl = `${base}/authorize/${record.transactionId}`;
    // assumptions.md: a first `pending` webhook carries nextAction.authorizationUrl (§6.2).
    core.schedule(0, () => core.notify(record, { authorizationUrl: record.authorizationUrl! }));
    return;
  }
  if (record.outcome === 'no-answer') {
    core.log(`pay-in ${record.orderId}: the payer never answers; it stays pending until control.settle`);
    return;
  }
  // The OTP was already checked, so a pre_authorized payment settles sooner than a push.
  const delay = record.workflow === 'provider_auth' ? core.pushDelayMs : Math.min(core.pushDelayMs, 250);
  core.schedule(delay, async () => {
    if (record.status !== 'pending' || core.get(record.orderId) !== record) return;
    await core.settle(record, record.outcome === 'approve' ? 'completed' : 'failed');
  });
}
