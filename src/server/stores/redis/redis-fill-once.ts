/**
 * The one-off fill of a Redis view added after 0.4.0 (the support views, the export's created
 * index): every payment's order id the store holds (the `<p>payments:<state>` indexes), handed to
 * `fillPage` a page at a time, once per key prefix: `<p><markName>` says it is done. The fills are
 * idempotent, so two processes starting together may both run one.
 */
import type { AnyRedisClient } from './redis-client.js';
import { paymentStates } from './redis-scripts.js';

const filledMark = 'v1';
const page = 500;

/** Returns what `fillPage` counted over every page (0 when the view was already filled). */
export async function fillOncePerPrefix(client: AnyRedisClient, prefix: string, markName: string, fillPage: (orderIds: string[]) => Promise<number>): Promise<number> {
  if ((await client.get(`${prefix}${markName}`)) === filledMark) return 0;
  let filled = 0;
  for (const state of paymentStates) {
    for (let start = 0; ; start += page) {
      const orderIds: string[] = (await client.zRange(`${prefix}payments:${state}`, start, start + page - 1)).map(String);
      if (orderIds.length === 0) break;
      filled += await fillPage(orderIds);
    }
  }
  await client.set(`${prefix}${markName}`, filledMark);
  return filled;
}
