/**
 * Round trips to PostgreSQL per checkout creation and per service notification (issue 43's
 * profile): the companion on a Postgres store whose pool counts every statement it sends (each is
 * one round trip: `pg` sends the next only once the previous has answered), and how many of them
 * committed a transaction. One at a time it is deterministic, unlike a time: run it on two commits
 * to compare them. In a burst (BURST notifications posted together, applied while more arrive) the
 * store's batches (postgres-batched-calls.ts) share round trips, so that figure depends a little on
 * timing: it says what a notification costs when a backlog is applied.
 * No payment service is called (orders are seeded as pending, as bench/companion.ts does); the
 * status hub's NOTIFYs go on its own connection and are not counted here.
 *
 * Run: `npx tsx bench/postgres-round-trips.ts`.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { signWebhook } from '../src/contract/webhook-signature/index.js';
import { createCompanion, toNodeHandler } from '../src/server/index.js';
import { silentLogger } from '../src/server/log.js';
import { createPostgresStore } from '../src/server/stores/postgres/postgres-store.js';
import { createDatabase, startPostgresServer } from '../test/support/postgres-server.js';
import { SECRET, benchCompanionOptions, seedPendingOrder } from './companion-server.js';

const ORDERS = 200;
const BURST = 2_000;

const server = await startPostgresServer();
try {
  const counted = { statements: 0, commits: 0 };
  const pool = new pg.Pool({ connectionString: server.urlOf(createDatabase(server)), max: 10 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      counted.statements += 1;
      if (typeof args[0] === 'string' && /^\s*COMMIT/i.test(args[0])) counted.commits += 1;
      return query(...args);
    };
  });
  const store = await createPostgresStore({ pool, log: silentLogger });
  let applied = 0;
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as { port: number }).port;
  const companion = createCompanion({
    ...benchCompanionOptions(port),
    store,
    log: silentLogger,
    onPaymentUpdate: () => void (applied += 1),
  });
  http.on('request', toNodeHandler(companion));
  const since = (before: typeof counted) => ({ statements: counted.statements - before.statements, commits: counted.commits - before.commits });

  // Idle first: the delivery worker's first poll and the start-up reads are not per order.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  let mark = { ...counted };
  for (let i = 0; i < ORDERS; i++) await companion.createCheckout({ orderId: `rt-create-${i}`, amount: '5000', currencyCode: 'XOF' });
  const creation = since(mark);

  for (let i = 0; i < ORDERS; i++) await seedPendingOrder(companion, store, `rt-${i}`);
  const bodies = await Promise.all(Array.from({ length: ORDERS }, (_, i) => signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId: `rt-${i}`, status: 'completed' }, SECRET, { nonce: `rt-${i}` })));
  mark = { ...counted };
  // One at a time, each applied and delivered before the next: what one notification costs.
  for (const body of bodies) {
    const before = applied;
    const answer = await fetch(`http://127.0.0.1:${port}/momo/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`);
    while (applied === before) await new Promise((resolve) => setTimeout(resolve, 1));
    // The delivery's lock release and the done mark come just after the callback.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const notification = since(mark);

  // A burst: every notification posted at once (50 at a time, as bench/companion.ts does), and
  // counted until each is applied, delivered and marked done.
  for (let from = 0; from < BURST; from += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, i) => seedPendingOrder(companion, store, `rt-burst-${from + i}`)));
  }
  const burstBodies = await Promise.all(Array.from({ length: BURST }, (_, i) => signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId: `rt-burst-${i}`, status: 'completed' }, SECRET, { nonce: `rt-burst-${i}` })));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  mark = { ...counted };
  const appliedBefore = applied;
  let next = 0;
  await Promise.all(Array.from({ length: 50 }, async () => {
    while (next < burstBodies.length) {
      const body = burstBodies[next++]!;
      const answer = await fetch(`http://127.0.0.1:${port}/momo/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`);
    }
  }));
  while (applied - appliedBefore < BURST) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const burst = since(mark);
  console.log(`checkout creation: ${(creation.statements / ORDERS).toFixed(1)} round trips, ${(creation.commits / ORDERS).toFixed(1)} explicit COMMITs per creation`);
  console.log(`service notification (kept, applied, delivered to onPaymentUpdate, left the inbox): ${(notification.statements / ORDERS).toFixed(1)} round trips, ${(notification.commits / ORDERS).toFixed(1)} explicit COMMITs per notification`);
  console.log(`service notifications in a burst of ${BURST} (the same, 50 posted at a time): ${(burst.statements / BURST).toFixed(2)} round trips per notification`);
  await companion.close();
  http.close();
  await store.close?.();
  await pool.end();
} finally {
  await server.stop();
}
