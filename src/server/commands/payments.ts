/**
 * `npx momo-checkout payments [--stale] [--state S] [--older-than MINUTES] [--json]`: the payments
 * in the companion's store (MOMO_DATA_DIR, MOMO_POSTGRES_URL or MOMO_REDIS_URL, as the companion reads them), with
 * what to do for each stuck one: the service re-emits a lost notification only through its support.
 * With MOMO_SERVER_URL set (or `--url`), it asks the running companion's server API instead, as
 * `refund`, `ping` and `redeliver` do (server-api-call.ts): from a machine that does not hold the store.
 * `--csv` or `--xlsx` `[--from DAY] [--to DAY] [--output FILE]` is the accountant's export instead (payments-csv.ts).
 */
import { parseArgs } from 'node:util';
import type { PaymentState } from '../../contract/companion.js';
import { defaultStaleMinutes, listPaymentSummaries, type PaymentSummary } from '../payments/payments-list.js';
import { openStoreFromEnv } from '../stores/store-from-env.js';
import { callServerApi, serverApiTarget } from './server-api-call.js';
import { UsageError } from './usage-error.js';
import { paymentsCsvCommand } from './payments-csv.js';

export async function paymentsCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      stale: { type: 'boolean', default: false },
      state: { type: 'string' },
      'older-than': { type: 'string' },
      json: { type: 'boolean', default: false },
      limit: { type: 'string', default: '100' },
      url: { type: 'string' },
      csv: { type: 'boolean', default: false },
      xlsx: { type: 'boolean', default: false },
      from: { type: 'string' },
      to: { type: 'string' },
      output: { type: 'string' },
    },
  });
  if (values.csv && values.xlsx) throw new UsageError('--csv or --xlsx: the export is one file; run the command twice for both.');
  if (values.csv || values.xlsx) return paymentsCsvCommand({ from: values.from, to: values.to, output: values.output, url: values.url, xlsx: values.xlsx }, env, out);
  const olderThan = values['older-than'] === undefined ? undefined : Number(values['older-than']);
  if (olderThan !== undefined && !(olderThan >= 0)) throw new UsageError('--older-than takes a number of minutes, e.g. --older-than 30.');
  const state: PaymentState | 'stale' | undefined = values.stale ? 'stale' : (values.state as PaymentState | undefined);
  const query = { ...(state ? { state } : {}), ...(olderThan !== undefined ? { olderThanMinutes: olderThan } : {}), limit: Number(values.limit) };
  const print = (list: PaymentSummary[], describe: string) => {
    if (values.json) {
      out(JSON.stringify(list, null, 2));
      return;
    }
    const staleMeaning = ` that need attention (open with no news for ${olderThan ?? defaultStaleMinutes} minutes or more, or whose genuine notification was refused)`;
    out(`${list.length} payment(s) in ${describe}${values.stale ? staleMeaning : ''}.`);
    for (const line of table(list)) out(line);
    if (values.stale) for (const summary of list) out(`\n${summary.orderId}: ${summary.action}`);
  };
  if (values.url?.trim() || env.MOMO_SERVER_URL?.trim()) {
    const target = serverApiTarget(env, values.url);
    const answer = await callServerApi(target, `/payments?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`, { method: 'GET' });
    if (!answer.ok) {
      out(`FAIL  ${answer.message}`);
      return 1;
    }
    print((answer.body as { payments: PaymentSummary[] }).payments, `the companion at ${target.base}`);
    return 0;
  }
  const { store, hub, describe } = await openStoreFromEnv(env);
  try {
    const list = await listPaymentSummaries(store, query, Date.now());
    print(list, describe);
    return 0;
  } finally {
    await store.close?.();
    // A shared store's status hub holds a connection of its own (Postgres LISTEN, Redis SUBSCRIBE).
    await hub?.close();
  }
}

// Kept here too: the CLI and older callers import it from this file.
export { UsageError } from './usage-error.js';

function table(list: PaymentSummary[]): string[] {
  if (list.length === 0) return [];
  const rows = [
    ['order', 'state', 'amount', 'phone', 'age (min)', 'transaction'],
    ...list.map((item) => [item.orderId, item.state, `${item.amount} ${item.currencyCode}`, item.phoneNumberMasked, String(item.ageMinutes), item.transactionId ?? '(answer lost)']),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}
