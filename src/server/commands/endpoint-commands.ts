/**
 * `npx momo-checkout redeliver ORDER [--all]` and `npx momo-checkout ping`: what a merchant runs
 * after fixing its notification handler (or to check it before the first payment). Both ask the
 * running companion through its server API (MOMO_SERVER_URL or --url, MOMO_SERVER_SECRET, as every
 * command does: server-api-call.ts), so the same process that signs and logs every delivery sends
 * these too.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';
import { callServerApi, serverApiTarget } from './server-api-call.js';

type Env = Record<string, string | undefined>;
type Out = (line: string) => void;

const urlOption = { url: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

export async function redeliverCommand(args: string[], env: Env, out: Out): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...urlOption, all: { type: 'boolean', default: false } } });
  const [orderId, ...extra] = positionals;
  if (!orderId || extra.length > 0) throw new UsageError('Give one order id: momo-checkout redeliver ORDER_ID [--all].');
  const answer = await callServerApi(serverApiTarget(env, values.url), `/payments/${encodeURIComponent(orderId)}/redeliver${values.all ? '?all=1' : ''}`);
  if (!answer.ok) return refused(answer, out);
  const deliveries = (answer.body as { deliveries: RedeliveryLine[] }).deliveries;
  if (values.json) out(JSON.stringify(answer.body, null, 2));
  else {
    out(deliveries.length === 0 ? `Order ${orderId} has had no notification yet: nothing to send.` : `Sent ${deliveries.length} notification(s) of order ${orderId} again:`);
    for (const line of deliveries) out(`  ${line.webhookId}  ${line.refundId ? `refund ${line.refundId} ` : ''}${line.reportedState}  ${describe(line)}`);
  }
  return deliveries.every((line) => line.delivered) ? 0 : 1;
}

export async function pingCommand(args: string[], env: Env, out: Out): Promise<number> {
  const { values } = parseArgs({ args, options: urlOption });
  const answer = await callServerApi(serverApiTarget(env, values.url), '/notifications/test');
  if (!answer.ok) return refused(answer, out);
  const result = answer.body as { ok: boolean; status?: number; error?: string; durationMs: number; url: string };
  if (values.json) out(JSON.stringify(result, null, 2));
  else if (result.ok) out(`OK    test.ping to ${result.url}: HTTP ${result.status} in ${result.durationMs} ms.`);
  else out(`FAIL  test.ping to ${result.url}: ${result.error} (after ${result.durationMs} ms). Check the URL, that your handler verifies with MOMO_MERCHANT_WEBHOOK_SECRET, and its log.`);
  return result.ok ? 0 : 1;
}

interface RedeliveryLine {
  webhookId: string;
  reportedState: string;
  refundId?: string;
  delivered: boolean;
  status?: number;
  error?: string;
  nextAttemptAt?: string;
}

function describe(line: RedeliveryLine): string {
  if (line.delivered) return `delivered (HTTP ${line.status})`;
  return `NOT delivered: ${line.error ?? 'not tried yet'}${line.nextAttemptAt ? `; next try ${line.nextAttemptAt}` : ''}`;
}

function refused(answer: { message: string }, out: Out): number {
  out(`FAIL  ${answer.message}`);
  return 1;
}
