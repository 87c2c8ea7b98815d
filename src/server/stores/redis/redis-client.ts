/**
 * What the Redis store and the Redis status hub share: opening a node-redis client that fails fast
 * at start-up but reconnects for ever once it has worked, logging its errors (node-redis crashes the
 * process on an `error` event nobody listens to), and running Lua scripts on any client, including
 * one the merchant created.
 *
 * node-redis (`redis`, Redis's own client) is loaded when a Redis store is asked for, so a companion
 * on the file store never loads it.
 */
import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log.js';

// Any client node-redis makes (whatever modules, scripts or RESP version it was created with).
export type AnyRedisClient = RedisClientType<any, any, any, any, any>;

/** Redis could not be reached, or answered with an error the store cannot handle. */
export class RedisStoreUnavailableError extends Error {
  override name = 'RedisStoreUnavailableError';
}

/** The URL without its password, for messages and logs. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable Redis URL)';
  }
}

/** Logs one line per outage (not one per reconnection attempt) and keeps node-redis from crashing on `error`. */
function watchConnection(client: AnyRedisClient, where: string, log: Logger): { everReady: () => boolean } {
  let ready = client.isReady;
  let reported = false;
  client.on('ready', () => {
    ready = true;
    if (reported) log.info('redis connection restored', { redis: where });
    reported = false;
  });
  client.on('error', (error: Error) => {
    if (reported || !ready) return;
    reported = true;
    log.error('redis connection lost: reconnecting; state changes and status updates wait until it is back', { redis: where, error: error.message });
  });
  return { everReady: () => ready };
}

function connectError(where: string, error: unknown): RedisStoreUnavailableError {
  return new RedisStoreUnavailableError(
    `Cannot connect to Redis at ${where}: ${error instanceof Error ? error.message : String(error)}. ` +
      'Check MOMO_REDIS_URL (redis://[:password@]host:port[/db], rediss:// for TLS) and that the server is running and reachable from this host.',
    { cause: error },
  );
}

/**
 * A connected client for `url`. Before it has ever connected it gives up after a few tries, so a
 * wrong `MOMO_REDIS_URL` stops start-up with a clear error instead of hanging; after that it
 * reconnects with a back-off capped at 2 s (commands wait for it, `ping` reports it).
 */
export async function connectRedis(url: string, log: Logger): Promise<AnyRedisClient> {
  const { createClient } = await import('redis');
  const where = describeRedisUrl(url);
  let connection: { everReady: () => boolean } | undefined;
  const client = createClient({
    url,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries, cause) => {
        if (!connection?.everReady() && retries >= 4) return cause;
        return Math.min(100 * 2 ** retries, 2_000);
      },
    },
  }) as unknown as AnyRedisClient;
  connection = watchConnection(client, where, log);
  try {
    await client.connect();
  } catch (error) {
    throw connectError(where, error);
  }
  return client;
}

/** A second connection with `client`'s options (a subscriber cannot send other commands). */
export async function connectDuplicate(client: AnyRedisClient, where: string, log: Logger): Promise<AnyRedisClient> {
  const duplicate = client.duplicate() as AnyRedisClient;
  watchConnection(duplicate, where, log);
  try {
    await duplicate.connect();
  } catch (error) {
    throw connectError(where, error);
  }
  return duplicate;
}

/** Closes a client, or drops it at once when it is not connected (close() would wait for ever). */
export async function closeRedis(client: AnyRedisClient): Promise<void> {
  if (client.isReady) await client.close();
  else if (client.isOpen) client.destroy();
}

/** Throws a {@link RedisStoreUnavailableError} unless the client answers PING within `timeoutMs`. */
export async function pingRedis(client: AnyRedisClient, where: string, timeoutMs = 2_000): Promise<void> {
  const fail = (why: string, cause?: unknown) =>
    new RedisStoreUnavailableError(`Redis at ${where} is not reachable (${why}): check that the server is running and reachable from this host.`, { cause });
  if (!client.isReady) throw fail('not connected');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail(`no answer to PING within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([client.ping(), timeout]);
  } catch (error) {
    throw error instanceof RedisStoreUnavailableError ? error : fail(error instanceof Error ? error.message : String(error), error);
  } finally {
    clearTimeout(timer);
  }
}

export interface LuaScript {
  source: string;
  sha1: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * EVALSHA, and EVAL when the server does not know the script yet (a restart, SCRIPT FLUSH).
 * Hand-written rather than node-redis's `defineScript` because that one only works on clients
 * created with the scripts registered, and the merchant may hand us their own client.
 * Every key goes in ARGV (built inside the scripts), so a client-side `keyPrefix` never applies.
 */
export async function runScript(client: AnyRedisClient, script: LuaScript, args: Array<string | number>): Promise<unknown> {
  const options = { keys: [] as string[], arguments: args.map(String) };
  try {
    return await client.evalSha(script.sha1, options);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.source, options);
  }
}
