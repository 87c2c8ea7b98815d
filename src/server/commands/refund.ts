/**
 * `npx momo-checkout refund ORDER AMOUNT --id REFUND_ID [--reason TEXT] [--json]`: an operator at
 * a terminal refunds a completed payment through the running companion's server API
 * (`MOMO_SERVER_URL`, `MOMO_SERVER_SECRET`), so the refund goes through the same process, rules,
 * store and merchant notifications as one the shop's backend makes. Repeating the same command is
 * safe: the refund id is the idempotency key.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './payments.js';

export async function refundCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, fetchImpl: typeof fetch = fetch): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { id: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [orderId, amount, ...rest] = positionals;
  if (!orderId || !amount || rest.length > 0) throw new UsageError('refund takes an order id and an amount: momo-checkout refund ORDER AMOUNT --id REFUND_ID.');
  if (!values.id) throw new UsageError('refund needs --id REFUND_ID: your own id for this refund (repeating the command with it makes no second pay-out).');
  const serverUrl = env.MOMO_SERVER_URL?.trim().replace(/\/$/, '');
  const secret = env.MOMO_SERVER_SECRET?.trim();
  if (!serverUrl || !secret) {
    throw new UsageError('refund calls the running companion: set MOMO_SERVER_URL (its public URL followed by /server, e.g. http://127.0.0.1:3000/momo/server) and MOMO_SERVER_SECRET.');
  }
  const body = { refundId: values.id, amount, ...(values.reason !== undefined ? { reason: values.reason } : {}) };
  let response: Response;
  try {
    response = await fetchImpl(`${serverUrl}/payments/${encodeURIComponent(orderId)}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    out(`Refund ${values.id}: the companion at ${serverUrl} could not be reached (${error instanceof Error ? error.message : String(error)}). Nothing is known to be sent: run the same command again.`);
    return 1;
  }
  const answer = (await response.json().catch(() => null)) as Record<string, any> | null;
  if (values.json) {
    out(JSON.stringify(answer, null, 2));
    return response.ok ? 0 : 1;
  }
  if (!response.ok) {
    out(`Refund ${values.id} refused (HTTP ${response.status} ${answer?.error?.code ?? ''}): ${answer?.error?.message ?? 'no explanation in the answer'}`);
    return 1;
  }
  out(`Refund ${answer!.refundId} of ${answer!.amount} ${answer!.currencyCode} to ${answer!.phoneNumberMasked}: ${answer!.state} (pay-out ${answer!.payoutOrderId}${answer!.transactionId ? `, transaction ${answer!.transactionId}` : ''}).`);
  if (answer!.state === 'failed') out(`Failed: ${answer!.failureCategory ?? ''} ${answer!.failureReason ?? ''}`.trim());
  if (answer!.state === 'unknown' || answer!.state === 'sending') out('The answer was lost: run the same command again (it posts the same pay-out, never a second one), or give the pay-out id to the service\'s support.');
  return answer!.state === 'failed' ? 1 : 0;
}
