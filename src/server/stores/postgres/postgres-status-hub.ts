/**
 * The status hub across processes on Postgres's LISTEN/NOTIFY, with no Redis: a view published by
 * the process that verified a notification reaches the status streams held by every other process
 * on the same database and schema.
 *
 * One channel per schema (`<schema>_status`), each notification `{"orderId", "view"}`; every
 * process LISTENs on one connection of its own (outside the pool: a LISTEN belongs to a session)
 * and hands a view to the streams it holds for that order. Every view, a local one too, goes through
 * Postgres, so all streams of an order see views in one order. NOTIFY delivers at most once, to the
 * sessions listening at that moment (it is sent at commit, and a page's view is well under its
 * 8,000-byte limit): a stream also reads the current state from the store when it opens, so a view
 * missed while the listening connection was being re-opened is not lost, only late.
 */
import type { Client, ClientConfig, Notification, Pool } from 'pg';
import type { PaymentView } from '../../../contract/companion.js';
import { createLogger, type Logger } from '../../log.js';
import type { StatusHub } from '../status-hub.js';
import { openPool, unavailable, type PostgresConnectionOptions } from './postgres-connection.js';
import { checkSchemaName, defaultSchema } from './postgres-schema.js';

export interface PostgresStatusHubOptions extends PostgresConnectionOptions {
  /** The store's schema (default `momo_checkout`): processes on one schema hear each other. */
  schema?: string;
  log?: Logger;
}

export interface PostgresStatusHub extends StatusHub {
  /** Resolves once this process is listening (after a start or a reconnection). */
  ready(): Promise<void>;
  /** Closes the listening connection (and the pool, unless it was given). */
  close(): Promise<void>;
}

type Listener = (view: PaymentView) => void;

/**
 * @example
 * const hub = await createPostgresStatusHub({ url: process.env.MOMO_POSTGRES_URL! });
 * const momo = createCompanion({ ...options, store, hub });
 */
export async function createPostgresStatusHub(options: PostgresStatusHubOptions): Promise<PostgresStatusHub> {
  const log = options.log ?? createLogger();
  const schema = checkSchemaName(options.schema ?? defaultSchema);
  const channel = `${schema}_status`;
  const { pool, owned, where } = await openPool({ ...options, log });
  const { default: pg } = await import('pg');
  const listeners = new Map<string, Set<Listener>>();
  let count = 0;
  let closed = false;
  let listener: Client | undefined;
  let listening: Promise<void>;

  const deliver = (message: Notification) => {
    if (message.channel !== channel || !message.payload) return;
    let parsed: { orderId: string; view: PaymentView };
    try {
      parsed = JSON.parse(message.payload) as { orderId: string; view: PaymentView };
    } catch {
      log.warn('status notification that is not JSON ignored', { channel });
      return;
    }
    for (const own of [...(listeners.get(parsed.orderId) ?? [])]) {
      try {
        own(parsed.view);
      } catch (error) {
        log.error('status listener failed', { orderId: parsed.orderId, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };

  /** Opens the listening connection; when it is lost, opens another with a back-off capped at 2 s. */
  const listen = async (attempt = 0): Promise<void> => {
    const client = new pg.Client((pool as Pool & { options: ClientConfig }).options);
    client.on('notification', deliver);
    client.on('error', () => {}); // 'end' follows: the reconnection happens there
    client.on('end', () => {
      if (closed || listener !== client) return;
      log.warn('postgres status listener lost: reconnecting; open streams get the current state when they re-check', { postgres: where });
      listener = undefined;
      listening = reconnect(1);
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    listener = client;
    if (attempt > 0) log.info('postgres status listener restored', { postgres: where });
  };
  const reconnect = async (attempt: number): Promise<void> => {
    for (let tries = attempt; !closed; tries++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** tries, 2_000)));
      if (closed) return;
      try {
        return await listen(tries);
      } catch {
        // The server is still down: the next try waits longer.
      }
    }
  };

  try {
    listening = listen();
    await listening;
  } catch (error) {
    if (owned) await pool.end().catch(() => {});
    throw unavailable(where, error);
  }

  return {
    publish(orderId, view) {
      pool.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify({ orderId, view })]).catch((error: unknown) => {
        log.warn('postgres notify failed: open status streams see this change when they re-check', { orderId, error: error instanceof Error ? error.message : String(error) });
      });
    },
    subscribe(orderId, own) {
      let set = listeners.get(orderId);
      if (!set) listeners.set(orderId, (set = new Set()));
      const entries = set;
      // The same function subscribed twice still counts (and unsubscribes) as two.
      const entry: Listener = (view) => own(view);
      entries.add(entry);
      count += 1;
      return () => {
        if (!entries.delete(entry)) return;
        count -= 1;
        if (entries.size === 0 && listeners.get(orderId) === entries) listeners.delete(orderId);
      };
    },
    size: () => count,
    ready: () => listening,
    async close() {
      closed = true;
      listeners.clear();
      count = 0;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      if (owned) await pool.end();
    },
  };
}
