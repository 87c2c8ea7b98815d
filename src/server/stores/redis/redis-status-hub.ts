/**
 * The status hub across processes: a view published by the process that received the webhook
 * reaches the status streams held by every other process, through Redis pub/sub (one channel per
 * order id, `<prefix>status:<orderId>`).
 *
 * Kept cheap: a process SUBSCRIBEs to an order's channel only while it holds a stream for that
 * order, once however many streams it holds, and UNSUBSCRIBEs when the last one closes. Every
 * view, a local one too, goes through Redis, so all streams of an order see views in one order.
 * Pub/sub delivers at most once and only to who is subscribed at that moment: the streams read
 * the current state from the store when they open, and again when the subscriber connection is back
 * after a loss (`onRestored`: node-redis says `ready` once its re-SUBSCRIBEs are answered), so a
 * view published while Redis restarted is late, never lost.
 */
import { createBackgroundWork } from '../../background-work.js';
import type { PaymentView } from '../../../contract/companion.js';
import { createLogger, type Logger } from '../../log.js';
import { closeRedis, connectDuplicate, connectRedis, describeRedisUrl, type AnyRedisClient } from './redis-client.js';
import { createRestoreListeners, type StatusHub } from '../status-hub.js';

export interface RedisStatusHubOptions {
  /** `redis://[:password@]host:port[/db]`. Ignored when `client` is given. */
  url?: string;
  /** Prefix of the channels (default `momo:`). */
  keyPrefix?: string;
  /** A connected node-redis client to publish with (the subscriber is its duplicate); `close()` leaves it open. */
  client?: AnyRedisClient;
  log?: Logger;
}

export interface RedisStatusHub extends StatusHub {
  /** Resolves once the SUBSCRIBE and UNSUBSCRIBE commands issued so far are done on the server. */
  ready(): Promise<void>;
  /** Closes the subscriber connection (and the publisher, unless it was given). */
  close(): Promise<void>;
}

type Listener = (view: PaymentView) => void;

/**
 * @example
 * const hub = await createRedisStatusHub({ url: process.env.MOMO_REDIS_URL! });
 * const momo = createCompanion({ ...options, store, hub });
 */
export async function createRedisStatusHub(options: RedisStatusHubOptions): Promise<RedisStatusHub> {
  const log = options.log ?? createLogger();
  const prefix = options.keyPrefix ?? 'momo:';
  const ownsClient = options.client === undefined;
  if (ownsClient && !options.url) throw new TypeError('createRedisStatusHub needs `url` (for example process.env.MOMO_REDIS_URL) or a connected `client`.');
  const where = options.url ? describeRedisUrl(options.url) : 'the given client';
  const publisher = options.client ?? (await connectRedis(options.url!, log));
  let subscriber: AnyRedisClient;
  try {
    subscriber = await connectDuplicate(publisher, where, log);
  } catch (error) {
    if (ownsClient) await closeRedis(publisher);
    throw error;
  }

  const channel = (orderId: string) => `${prefix}status:${orderId}`;
  const listeners = new Map<string, Set<Listener>>();
  // One Redis listener per subscribed order: node-redis unsubscribes by listener identity.
  const channelListeners = new Map<string, (message: string) => void>();
  const inFlight = createBackgroundWork();
  const restored = createRestoreListeners(log);
  let count = 0;
  // Set when the subscriber connection drops; its next `ready` (re-subscribed) is a restore.
  let lost = false;
  subscriber.on('reconnecting', () => (lost = true));
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    restored.fire();
  });

  const track = (command: Promise<unknown>, what: string, orderId: string) =>
    void inFlight.track(
      command.catch((error: unknown) => {
        log.warn(`redis ${what} failed: status updates for this order may not reach this process`, { orderId, error: error instanceof Error ? error.message : String(error) });
      }),
    );

  const deliver = (orderId: string) => (message: string) => {
    let view: PaymentView;
    try {
      view = JSON.parse(message) as PaymentView;
    } catch {
      log.warn('status message that is not JSON ignored', { orderId });
      return;
    }
    for (const listener of [...(listeners.get(orderId) ?? [])]) {
      try {
        listener(view);
      } catch (error) {
        log.error('status listener failed', { orderId, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };

  return {
    publish(orderId, view) {
      publisher.publish(channel(orderId), JSON.stringify(view)).catch((error: unknown) => {
        log.warn('redis publish failed: open status streams see this change when they reconnect', {
          orderId,
          error: error instanceof Error ? error.message : String(error),
        });
      });
    },
    subscribe(orderId, listener) {
      let set = listeners.get(orderId);
      if (!set) {
        listeners.set(orderId, (set = new Set()));
        const onMessage = deliver(orderId);
        channelListeners.set(orderId, onMessage);
        track(subscriber.subscribe(channel(orderId), onMessage), 'SUBSCRIBE', orderId);
      }
      const own = set;
      // The same function subscribed twice still counts (and unsubscribes) as two.
      const entry: Listener = (view) => listener(view);
      own.add(entry);
      count += 1;
      return () => {
        if (!own.delete(entry)) return;
        count -= 1;
        if (own.size > 0 || listeners.get(orderId) !== own) return;
        listeners.delete(orderId);
        const onMessage = channelListeners.get(orderId);
        channelListeners.delete(orderId);
        if (subscriber.isOpen) track(subscriber.unsubscribe(channel(orderId), onMessage), 'UNSUBSCRIBE', orderId);
      };
    },
    size: () => count,
    onRestored: (own) => restored.add(own),
    async ready() {
      await inFlight.settled();
    },
    async close() {
      listeners.clear();
      channelListeners.clear();
      restored.clear();
      count = 0;
      await closeRedis(subscriber);
      if (ownsClient) await closeRedis(publisher);
    },
  };
}
