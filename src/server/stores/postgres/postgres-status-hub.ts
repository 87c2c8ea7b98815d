/**
 * The status hub across processes on Postgres's LISTEN/NOTIFY, with no Redis: a view published by
 * the process that verified a notification reaches the status streams held by every other process
 * on the same database and schema.
 *
 * One channel per schema (`<schema>_status`), each notification `{"orderId", "view"}`. Every
 * process holds ONE connection of its own for the hub, outside the store's pool (a LISTEN belongs
 * to a session), and sends its NOTIFYs on that same connection: a process's budget is the store's
 * pool plus this one connection (`MOMO_POSTGRES_POOL_SIZE` + 1, docs/durability.md). A pool of the
 * hub's own for NOTIFY (0.4.0) doubled that budget, and under a role limited to pool + 1 every
 * NOTIFY failed (issue 40 §4). Every view, a local one too, goes through Postgres, so all streams
 * of an order see views in one order.
 *
 * NOTIFY delivers at most once, to the sessions listening at that moment (it is sent at commit, and
 * a page's view is well under its 8,000-byte limit). A view published while the connection is
 * being re-opened is not heard: once it listens again the hub says so (`onRestored`), and the
 * streams read their payment from the store (page-routes/event-stream.ts), so it is late by the
 * reconnection's back-off (2 s at most once the server is back), never lost.
 */
import type { Client, ClientConfig, Notification, Pool } from 'pg';
import type { PaymentView } from '../../../contract/companion.js';
import { createLogger, type Logger } from '../../log.js';
import { createRestoreListeners, type StatusHub } from '../status-hub.js';
import { describePostgresUrl, poolConfig, unavailable, type PostgresConnectionOptions } from './postgres-connection.js';
import { checkSchemaName, defaultSchema } from './postgres-schema.js';
import { createBatchedWrites } from './postgres-batches.js';
import { jsonArray } from './postgres-records.js';

export interface PostgresStatusHubOptions extends PostgresConnectionOptions {
  /** The store's schema (default `momo_checkout`): processes on one schema hear each other. */
  schema?: string;
  log?: Logger;
}

export interface PostgresStatusHub extends StatusHub {
  /** Resolves once this process is listening (after a start or a reconnection). */
  ready(): Promise<void>;
  /** Closes the hub's connection (a given pool is left as it was: the hub never uses it). */
  close(): Promise<void>;
}

type Listener = (view: PaymentView) => void;

/**
 * NOTIFYs waiting on the hub's one connection beyond which a publish is dropped (the streams re-read
 * the store): a frozen server must not make them pile up in memory.
 */
const maxQueuedNotifies = 1_000;

/** Views per NOTIFY statement (each well under NOTIFY's 8,000 bytes; a statement stays small). */
const notifiesPerStatement = 200;

/**
 * @example
 * const hub = await createPostgresStatusHub({ url: process.env.MOMO_POSTGRES_URL! });
 * const momo = createCompanion({ ...options, store, hub });
 */
export async function createPostgresStatusHub(options: PostgresStatusHubOptions): Promise<PostgresStatusHub> {
  const log = options.log ?? createLogger();
  const schema = checkSchemaName(options.schema ?? defaultSchema);
  const channel = `${schema}_status`;
  // The hub's one connection, with the settings of the store's pool (a given pool's own).
  const config: ClientConfig = options.pool
    ? (options.pool as Pool & { options: ClientConfig }).options
    : poolConfig({ ...options, url: requireUrl(options.url) });
  const where = options.url && !options.pool ? describePostgresUrl(options.url) : 'the given pool';
  const { default: pg } = await import('pg');
  const listeners = new Map<string, Set<Listener>>();
  const restored = createRestoreListeners(log);
  let count = 0;
  let dropReported = false;
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
    const client = new pg.Client(config);
    client.on('notification', deliver);
    client.on('error', () => {}); // 'end' follows: the reconnection happens there
    client.on('end', () => {
      if (closed || listener !== client) return;
      log.warn('postgres status listener lost: reconnecting; open streams read their payment again once it is back', { postgres: where });
      listener = undefined;
      listening = reconnect(1);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    // Closed while this connection was being opened: nothing listens any more.
    if (closed) return void (await client.end().catch(() => {}));
    listener = client;
    dropReported = false;
    if (attempt === 0) return;
    log.info('postgres status listener restored: open streams read their payment again', { postgres: where });
    restored.fire();
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
    throw unavailable(where, error);
  }

  /**
   * The views published while a NOTIFY statement is under way go in the next one, together: one
   * round trip for many (`pg_notify` over the document's elements, in its order, so each order's views keep theirs),
   * where one each made them queue behind each other on this one connection under a burst.
   */
  const notifies = createBatchedWrites<{ orderId: string; payload: string }, void>(async (batch) => {
    const client = listener;
    if (!client) dropped(batch[0]!.orderId, 'the hub is reconnecting');
    else {
      await client
        // The payloads (json texts) as one json document: each element's text is the payload as written.
        .query('SELECT pg_notify($1, payload::text) FROM json_array_elements($2::json) AS payload', [channel, jsonArray(batch.map((item) => item.payload))])
        .catch((error: unknown) => dropped(batch[0]!.orderId, error instanceof Error ? error.message : String(error)));
    }
    return [];
  }, notifiesPerStatement);

  /** Said once per outage, not per view: the streams get the view from the store anyway. */
  const dropped = (orderId: string, why: string) => {
    if (dropReported) return;
    dropReported = true;
    log.warn(`postgres notify not sent (${why}): open status streams read this change from the store`, { orderId, postgres: where });
  };

  return {
    publish(orderId, view) {
      if (!listener) return dropped(orderId, 'the hub is reconnecting');
      if (notifies.waiting() >= maxQueuedNotifies) return dropped(orderId, `${maxQueuedNotifies} notifies already wait for the server`);
      // Never rejects: a failed NOTIFY is reported by `dropped` (the streams re-read the store).
      void notifies.add({ orderId, payload: JSON.stringify({ orderId, view }) });
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
    onRestored: (own) => restored.add(own),
    ready: () => listening,
    async close() {
      closed = true;
      listeners.clear();
      restored.clear();
      count = 0;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new TypeError('A Postgres status hub needs `url` (for example process.env.MOMO_POSTGRES_URL) or a `pool`.');
  return url;
}
