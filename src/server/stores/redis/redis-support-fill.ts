/**
 * Fills the Redis store's support views (redis-support-scripts.ts) from the records a 0.4.0
 * companion wrote, once per key prefix, when a store starts: every record in the payment indexes is
 * read and its views written, unless it changed meanwhile (then its own write kept them). Idempotent,
 * so two processes starting together may both run it.
 */
import type { CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';
import { runScript, type AnyRedisClient } from './redis-client.js';
import { paymentStates } from './redis-scripts.js';
import { fillSupportViewsScript } from './redis-support-scripts.js';

const filledMark = 'v1';
const page = 500;

/** Returns how many records were filled (0 when the views were already there). */
export async function fillSupportViews(client: AnyRedisClient, prefix: string, now: () => number): Promise<number> {
  if ((await client.get(`${prefix}support-views`)) === filledMark) return 0;
  let filled = 0;
  for (const state of paymentStates) {
    for (let start = 0; ; start += page) {
      const orderIds: string[] = (await client.zRange(`${prefix}payments:${state}`, start, start + page - 1)).map(String);
      if (orderIds.length === 0) break;
      const rows = await Promise.all(orderIds.map((orderId) => client.hmGet(`${prefix}checkout:${orderId}`, ['record', 'revision'])));
      await Promise.all(
        rows.map(async ([json, revision], index) => {
          if (!json || !revision) return;
          const record = JSON.parse(String(json)) as CheckoutRecord;
          if (!record.payment) return;
          const args = [prefix, now(), orderIds[index]!, String(revision), operatorName(record.payment), supportSince(record) ?? '', record.payment.state, record.payment.updatedAt];
          filled += (await runScript(client, fillSupportViewsScript, args)) as number;
        }),
      );
    }
  }
  await client.set(`${prefix}support-views`, filledMark);
  return filled;
}
