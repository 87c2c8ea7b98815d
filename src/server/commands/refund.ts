/**
 * `npx momo-checkout refund ORDER AMOUNT --id REFUND_ID [--reason TEXT] [--json]`: an operator at
 * a terminal refunds a completed payment through the running companion's server API
 * (`MOMO_SERVER_URL` or `--url`, `MOMO_SERVER_SECRET`: server-api-call.ts), so the refund goes through the same process, rules,
 * store and merchant notifications as one the shop's backend makes. Repeating the same command is
 * safe: the refund id is the idempotency key.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';
import { callServerApi, serverApiTarget } from './server-api-call.js';

export async function refundCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, fetchImpl: typeof fetch = fetch): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { id: { type: 'string' }, url: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [orderId, amount, ...rest] = positionals;
  if (!orderId || !amount || rest.length > 0) throw new UsageError('refund takes an order id and an amount: momo-checkout refund ORDER AMOUNT --id REFUND_ID.');
  if (!values.id) throw new UsageError('refund needs --id REFUND_ID: your own id for this refund (repeating the command with it makes no second pay-out).');
  const target = serverApiTarget(env, values.url);
  const body = { refundId: values.id, amount, ...(values.reason !== undefined ? { reason: values.reason } : {}) };
  const sent = await callServerApi(target, `/payments/${encodeURIComponent(orderId)}/refunds`, { method: 'POST', body }, fetchImpl);
  if (!sent.ok && sent.status === undefined) {
    out(`Refund ${values.id}: ${sent.message}. Nothing is known to be sent: run the same command again.`);
    return 1;
  }
  const answer = (sent.body ?? null) as Record<string, any> | null;
  if (answer === null) {
    // A proxy's refusal or another server (no JSON): said as such, not as the companion's refusal.
    out(`Refund ${values.id} not sent: ${sent.ok ? 'the answer was empty' : sent.message}`);
    return 1;
  }
  if (values.json) {
    out(JSON.stringify(answer, null, 2));
    return sent.ok ? 0 : 1;
  }
  if (!sent.ok) {
    out(`Refund ${values.id} refused (HTTP ${sent.status} ${answer.error?.code ?? ''}): ${answer.error?.message ?? 'no explanation in the answer'}`);
    return 1;
  }
  out(`Refund ${answer.refundId} of ${answer.amount} ${answer.currencyCode} to ${answer.phoneNumberMasked}: ${answer.state} (pay-out ${answer.payoutOrderId}${answer.transactionId ? `, transaction ${answer.transactionId}` : ''}).`);
  if (answer.state === 'failed') out(`Failed: ${answer.failureCategory ?? ''} ${answer.failureReason ?? ''}`.trim());
  if (answer.state === 'unknown' || answer.state === 'sending') out('The answer was lost: run the same command again (it posts the same pay-out, never a second one), or give the pay-out id to the service\'s support.');
  return answer.state === 'failed' ? 1 : 0;
}
