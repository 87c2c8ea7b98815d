/**
 * Part `stores/postgres/`: the PostgreSQL store, its schema and migrations, its limits and its
 * status hub. May import stores/, status/, model/ and the foundation.
 *
 * Opening connections to PostgreSQL: a pool with a size, a statement timeout and TLS as managed
 * Postgres asks for it, and the error every Postgres part throws when the server cannot be used.
 *
 * Driver: node-postgres (`pg`, pinned), pure JavaScript. Not `pg-native` (libpq through a module
 * compiled at install: nothing here may rely on one), and not `postgres` (porsager): `pg` is what
 * the shops' hosts document (Heroku, Render, Supabase, Neon, RDS), its pool and LISTEN support are
 * the ones the store and the hub need, and it was fast enough by measurement (bench/stores.ts).
 * Loaded only when a Postgres store is asked for, so a companion on the file store never loads it.
 *
 * TLS: `sslmode` and `sslrootcert` are read from the URL here and given to `pg` as its `ssl`
 * option, with libpq's meanings (`require`: encrypted, the server's certificate not checked unless
 * a CA is given; `verify-ca`: signed by the CA; `verify-full`: that and the host name), because
 * `pg` 8 treats `require` as `verify-full`, which fails on hosts whose certificate is private.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import type { Logger } from '../../log.js';
import { StoreDataError } from '../store.js';

/** PostgreSQL could not be reached, refused us, or holds a schema this companion cannot use. */
export class PostgresStoreUnavailableError extends Error {
  override name = 'PostgresStoreUnavailableError';
}

export type SslMode = 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';

export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:5432/database[?sslmode=verify-full&sslrootcert=/path/ca.pem]`. Ignored when `pool` is given. */
  url?: string;
  /** A `pg` pool of your own (the shop's): used as is, and left open by `close()`. */
  pool?: Pool;
  /** TLS, overriding the URL's `sslmode`. Default: the URL's, else none (as libpq's `disable`, for a local server). */
  sslMode?: SslMode;
  /** The CA certificate file (PEM) that signed the server's certificate (the URL's `sslrootcert`, `MOMO_POSTGRES_CA_FILE`). */
  caFile?: string;
  /** Most connections this process opens (default 10). Each process of the companion has its own pool. */
  maxConnections?: number;
  /** A statement running longer is cancelled by the server (default 5,000 ms): a stuck lock never holds a request for ever. */
  statementTimeoutMs?: number;
  /** Opening a connection gives up after this long (default 5,000 ms). */
  connectTimeoutMs?: number;
  log?: Logger;
}

/** The URL without its password, for messages and logs. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an unparsable PostgreSQL URL)';
  }
}

/** `pg`'s `ssl` option for a libpq `sslmode` and CA file. */
export function tlsFor(mode: SslMode, caFile: string | undefined): false | ConnectionOptions {
  const ca = caFile ? readCa(caFile) : undefined;
  switch (mode) {
    case 'disable':
      return false;
    case 'prefer':
    case 'require':
      // libpq: encrypted; the certificate is checked only when a root certificate is given.
      return ca ? { ca, checkServerIdentity: () => undefined } : { rejectUnauthorized: false };
    case 'verify-ca':
      return { ...(ca ? { ca } : {}), checkServerIdentity: () => undefined };
    case 'verify-full':
      return ca ? { ca } : {};
  }
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PostgresStoreUnavailableError(`Cannot read the PostgreSQL CA file ${file} (${error instanceof Error ? error.message : String(error)}): set MOMO_POSTGRES_CA_FILE (or sslrootcert) to the PEM file your provider gives.`);
  }
}

/** The pool's size when `maxConnections` is not given (MOMO_POSTGRES_POOL_SIZE's default too). */
export const defaultMaxConnections = 10;

const sslModes: readonly SslMode[] = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** The pool's configuration: the URL without its TLS parameters, and those as `pg`'s `ssl`. */
export function poolConfig(options: PostgresConnectionOptions & { url: string }): PoolConfig {
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw new PostgresStoreUnavailableError('MOMO_POSTGRES_URL is not a URL: write it as postgres://user:password@host:5432/database (add ?sslmode=verify-full for a managed server).');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new PostgresStoreUnavailableError(`MOMO_POSTGRES_URL starts with ${parsed.protocol}//: write it as postgres://user:password@host:5432/database.`);
  }
  const urlMode = parsed.searchParams.get('sslmode') ?? undefined;
  const mode = options.sslMode ?? urlMode ?? 'disable';
  if (!sslModes.includes(mode as SslMode)) {
    throw new PostgresStoreUnavailableError(`sslmode=${mode} is not one PostgreSQL knows: use disable, require, verify-ca or verify-full.`);
  }
  const caFile = options.caFile ?? parsed.searchParams.get('sslrootcert') ?? undefined;
  for (const name of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat']) parsed.searchParams.delete(name);
  return {
    connectionString: parsed.toString(),
    ssl: tlsFor(mode as SslMode, caFile),
    max: options.maxConnections ?? defaultMaxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 5_000,
    application_name: 'momo-checkout',
    // A pool of its own must not keep the process alive once the companion is done with it.
    allowExitOnIdle: true,
  };
}

/**
 * A pool for `options` (the given one, or a new one), and whether `close()` should end it; with
 * `inboxPool`, the one connection (of the same budget: the store's pool is one smaller) that only
 * the inbox's group commit uses, so that apply and delivery work holding every other connection
 * cannot keep a notification from being kept (postgres-inbox-writer.ts). A pool the shop passed in,
 * or a budget of one, is used for both.
 */
export async function openPool(options: PostgresConnectionOptions): Promise<{ pool: Pool; inboxPool: Pool; owned: boolean; where: string; end(): Promise<void> }> {
  if (options.pool) return { pool: options.pool, inboxPool: options.pool, owned: false, where: 'the given pool', end: async () => {} };
  if (!options.url) throw new TypeError('A Postgres store needs `url` (for example process.env.MOMO_POSTGRES_URL) or a `pool`.');
  const config = poolConfig({ ...options, url: options.url });
  const { default: pg } = await import('pg');
  const where = describePostgresUrl(options.url);
  const budget = config.max ?? defaultMaxConnections;
  const pool = ownPool(new pg.Pool({ ...config, max: budget > 1 ? budget - 1 : 1 }), where, options.log);
  const inboxPool = budget > 1 ? ownPool(new pg.Pool({ ...config, max: 1 }), where, options.log) : pool;
  const end = async () => {
    await Promise.all([pool.end(), ...(inboxPool !== pool ? [inboxPool.end()] : [])]);
  };
  return { pool, inboxPool, owned: true, where, end };
}

function ownPool(pool: Pool, where: string, log: Logger | undefined): Pool {
  pool.on('connect', prepareStatements);
  let reported = false;
  // An idle connection the server closed (a restart, a failover) emits `error` on the pool: without
  // a listener that would crash the process. The pool opens a new connection at the next query.
  pool.on('error', (error) => {
    if (reported) return;
    reported = true;
    log?.error('postgres connection lost: new connections are opened as requests come; writes fail until the server is back', { postgres: where, error: error.message });
    setTimeout(() => (reported = false), 10_000).unref();
  });
  return pool;
}

/**
 * Makes each parametrized statement of our own pool's connections a named prepared statement, so
 * that PostgreSQL parses and plans it once per connection instead of at every call: the store's
 * statements are a fixed set (the schema name is fixed per pool), run thousands of times. `pg` does
 * this only when given a name per call; wrapping `query` here, in one place, names them by their
 * text rather than at each of the store's call sites. Not done to a pool the shop passed in.
 */
function prepareStatements(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === 'string' && Array.isArray(values)) return query({ name: statementName(config), text: config, values }, callback);
    return query(config, values, callback);
  };
}

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `momo_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

/** The error for a connection or query that failed, with what to check. */
export function unavailable(where: string, error: unknown): PostgresStoreUnavailableError {
  if (error instanceof PostgresStoreUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PostgresStoreUnavailableError(
    `Cannot use PostgreSQL at ${where}: ${message}. Check MOMO_POSTGRES_URL (postgres://user:password@host:5432/database), that the server is running and reachable, and its TLS settings (sslmode).`,
    { cause: error },
  );
}

/**
 * A data exception (SQLSTATE class 22: a text the server cannot decode or hold, a number out of a
 * column's range) as the store's {@link StoreDataError}, which no one takes for an outage; any other
 * error as it was.
 */
export function dataErrorOf(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('22')) return error;
  return new StoreDataError(`PostgreSQL refused a value of this write (SQLSTATE ${code}: ${(error as Error).message}); repeating it unchanged fails the same way`, { cause: error });
}

/** SQLSTATEs for a transaction the server aborted so that another could go on: safe to run again. */
const retryable = new Set(['40001', '40P01']);

/**
 * Runs `work` in one transaction on one connection (READ COMMITTED; the callers take the row or
 * advisory locks they need), commits it, and runs it again when the server chose it as a deadlock's
 * or a serialization failure's victim.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    // A connection lost while lent out emits `error` on the client, which the pool only listens to
    // while the client is idle: unheard, it would crash the process. Its query fails as well.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      const code = (error as { code?: string }).code;
      if (code && retryable.has(code) && attempt < 5) continue;
      throw error;
    } finally {
      // A connection whose rollback failed is broken: the pool drops it instead of lending it again.
      client.removeListener('error', onError);
      client.release(broken);
    }
  }
}

/**
 * Runs one autocommitted statement (a write function's call: postgres-write-functions.ts), and again
 * when the server aborted it as a deadlock's or a serialization failure's victim.
 */
export async function retryingAbortedWrite<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code && retryable.has(code) && attempt < 5) continue;
      throw error;
    }
  }
}
