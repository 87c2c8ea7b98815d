/**
 * The control surface under /_sandbox/ (JSON, Bearer API key like the service routes): what a
 * merchant running `npm run sandbox` uses to drive outcomes against their own integration.
 */
import type { Hono } from 'hono';
import { fail, ok } from '../envelope.js';
import { faultKinds } from '../faults.js';
import type { FaultKind, ReemitHow, SandboxControl } from '../types.js';

const reemitKinds: readonly ReemitHow[] = ['duplicate', 'stale', 'forged', 'out-of-order'];

async function jsonBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await request.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function registerControl(app: Hono, control: SandboxControl): void {
  app.get('/_sandbox/transactions', () => ok({ transactions: control.transactions() }));
  app.get('/_sandbox/deliveries', () => ok({ deliveries: control.deliveries() }));
  app.get('/_sandbox/numbers', () => ok({ numbers: control.testNumbers() }));
  app.get('/_sandbox/balances', () => ok({ balances: control.balances() }));
  app.get('/_sandbox/previews', (c) => ok({ count: control.previewCount(c.req.query('phoneNumber')) }));

  app.post('/_sandbox/settle', async (c) => {
    const body = await jsonBody(c.req.raw);
    const orderId = body?.orderId;
    const status = body?.status;
    if (typeof orderId !== 'string' || (status !== 'completed' && status !== 'failed')) {
      return fail(400, 'VALIDATION_ERROR', 'send { "orderId": "...", "status": "completed" | "failed" }');
    }
    if (!control.transaction(orderId)) return fail(404, 'NOT_FOUND', `no transaction with orderId ${orderId}`);
    try {
      await control.settle(orderId, status);
    } catch (error) {
      return fail(400, 'VALIDATION_ERROR', error instanceof Error ? error.message : String(error));
    }
    return ok({ transaction: control.transaction(orderId) });
  });

  app.post('/_sandbox/reemit', async (c) => {
    const body = await jsonBody(c.req.raw);
    const orderId = body?.orderId;
    const how = body?.how;
    if (typeof orderId !== 'string' || !reemitKinds.includes(how as ReemitHow)) {
      return fail(400, 'VALIDATION_ERROR', `send { "orderId": "...", "how": ${reemitKinds.map((kind) => `"${kind}"`).join(' | ')} }`);
    }
    if (!control.transaction(orderId)) return fail(404, 'NOT_FOUND', `no transaction with orderId ${orderId}`);
    try {
      return ok({ delivery: await control.reemit(orderId, how as ReemitHow) });
    } catch (error) {
      return fail(400, 'VALIDATION_ERROR', error instanceof Error ? error.message : String(error));
    }
  });

  app.post('/_sandbox/faults', async (c) => {
    const body = await jsonBody(c.req.raw);
    const kind = body?.kind;
    if (!faultKinds.includes(kind as FaultKind)) {
      return fail(400, 'VALIDATION_ERROR', `send { "kind": ${faultKinds.map((k) => `"${k}"`).join(' | ')}, "path"?: "/v1/pay-in", "times"?: 1 }`);
    }
    const path = body?.path;
    const times = body?.times;
    if ((path !== undefined && typeof path !== 'string') || (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 1))) {
      return fail(400, 'VALIDATION_ERROR', 'path must be a string and times a positive integer');
    }
    control.injectFault({ kind: kind as FaultKind, ...(path !== undefined ? { path } : {}), ...(times !== undefined ? { times } : {}) });
    return ok({ armed: { kind, path: path ?? null, times: times ?? 1 } });
  });

  // A balance too low for the next pay-out: it then fails at once with INSUFFICIENT_FUNDS.
  app.post('/_sandbox/balances', async (c) => {
    const body = await jsonBody(c.req.raw);
    const { currencyCode, amount } = (body ?? {}) as { currencyCode?: unknown; amount?: unknown };
    if (typeof currencyCode !== 'string' || typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) {
      return fail(400, 'VALIDATION_ERROR', 'send { "currencyCode": "XOF", "amount": "0" }: the amount as a decimal string in the major unit');
    }
    try {
      control.setBalance(currencyCode, amount);
    } catch (error) {
      return fail(400, 'VALIDATION_ERROR', error instanceof Error ? error.message : String(error));
    }
    return ok({ balances: control.balances() });
  });

  app.post('/_sandbox/reset', () => {
    control.reset();
    return ok({ reset: true });
  });
}
