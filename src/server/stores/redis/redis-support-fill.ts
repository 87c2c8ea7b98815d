/**
 * Fills the Redis store's support views (redis-support-scripts.ts) from the records a 0.4.0
 * companion wrote, once per key prefix, when a store starts: every record in the payment indexes is
 * read and its views written, unless it changed meanwhile (then its own write kept them). Idempotent,
 * so two processes starting together may both run it.
 */
import type { CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';
import { runScript, type AnyRedisClient } from './redis-client.js';
import { fillOncePerPrefix } from './redis-fill-once.js';
import { fillSupportViewsScript } from './redis-support-scripts.js';

/** Returns how many records were filled (0 when the views were already there). */
export function fillSupportViews(client: AnyRedisClient, prefix: string, now: () => number): Promise<number> {
  return fillOncePerPrefix(client, prefix, 'support-views', async (orderIds) => {
    const rows = await Promise.all(orderIds.map((orderId) => client.hmGet(`${prefix}checkout:${orderId}`, ['record', 'revision'])));
    const filled = await Promise.all(
      rows.map(async ([json, revision], index) => {
        if (!json || !revision) return 0;
        const record = JSON.parse(String(json)) as CheckoutRecord;
        if (!record.payment) return 0;
        const args = [prefix, now(), orderIds[index]!, String(revision), operatorName(record.payment), supportSince(record) ?? '', record.payment.state, record.payment.updatedAt];
        return (await runScript(client, fillSupportViewsScript, args)) as number;
      }),
    );
    return filled.reduce((sum, count) => sum + count, 0);
  });
}
