/**
 * Which store the companion keeps its state in, from the environment (`serve`, `payments`, the
 * demo's real-service mode) or from `createCompanion`'s options:
 *
 * - `MOMO_POSTGRES_URL`: PostgreSQL, shared by every process (status streams over LISTEN/NOTIFY too;
 *   the other `MOMO_POSTGRES_*` variables in postgres/postgres-from-env.ts);
 * - `MOMO_REDIS_URL`: Redis, shared by every process (status streams over Redis pub/sub too);
 * - `MOMO_STORE=memory`: one process's memory, for tests and demos only: a restart loses payments;
 * - otherwise the embedded file store (SQLite) in `MOMO_DATA_DIR` (default `./.momo-checkout`).
 */
import type { Logger } from '../log.js';
import { createFileStore } from './sqlite/sqlite-store.js';
import { createMemoryStore } from './memory/memory-store.js';
import { CompanionConfigError } from '../config-error.js';
import { createRedisStatusHub } from './redis/redis-status-hub.js';
import { createRedisStore } from './redis/redis-store.js';
import { postgresOptionsFromEnv } from './postgres/postgres-from-env.js';
import { describePostgresUrl } from './postgres/postgres-connection.js';
import { defaultSchema } from './postgres/postgres-schema.js';
import { createPostgresStatusHub } from './postgres/postgres-status-hub.js';
import { createPostgresStore } from './postgres/postgres-store.js';
import type { StatusHub } from './status-hub.js';
import type { CheckoutStore } from './store.js';

export type StoreKind = 'memory' | 'file' | 'redis' | 'postgres' | 'custom';

export interface OpenedStore {
  store: CheckoutStore;
  /** Set with Redis and Postgres: status streams must hear transitions applied by other processes. */
  hub?: StatusHub & { close(): Promise<void> };
  kind?: StoreKind;
  /** For banners and logs, without credentials: `the file ./.momo-checkout/momo-checkout.sqlite`. */
  describe: string;
}

/** The engines a store can be opened on from the environment. */
export type StoreEngine = Exclude<StoreKind, 'custom'>;

/**
 * The one rule of which engine the environment chooses (the list at the top of this file), asked by
 * {@link openStoreFromEnv} and by the doctor's store check (commands/store-check.ts), so the two
 * never disagree. Throws a CompanionConfigError saying what to set when the choice is unclear.
 */
export function storeEngineFromEnv(env: Record<string, string | undefined>): StoreEngine {
  const redisUrl = env.MOMO_REDIS_URL?.trim();
  const postgresUrl = env.MOMO_POSTGRES_URL?.trim();
  const kind = env.MOMO_STORE?.trim().toLowerCase();
  if (kind && !['memory', 'file', 'redis', 'postgres'].includes(kind)) {
    throw new CompanionConfigError(`MOMO_STORE=${kind} is not a store: leave it unset (a file, Postgres when MOMO_POSTGRES_URL is set, Redis when MOMO_REDIS_URL is), or set memory for tests.`);
  }
  if (postgresUrl && redisUrl && !kind) {
    throw new CompanionConfigError('Both MOMO_POSTGRES_URL and MOMO_REDIS_URL are set: keep the one store payments live in, or say which with MOMO_STORE=postgres or MOMO_STORE=redis.');
  }
  if (kind === 'memory') return 'memory';
  if (kind === 'postgres' || (postgresUrl && kind !== 'redis' && kind !== 'file')) return 'postgres';
  if (redisUrl || kind === 'redis') return 'redis';
  return 'file';
}

export async function openStoreFromEnv(env: Record<string, string | undefined>, options: { now?: () => number; log?: Logger } = {}): Promise<OpenedStore> {
  const engine = storeEngineFromEnv(env);
  const redisUrl = env.MOMO_REDIS_URL?.trim();
  if (engine === 'memory') return { store: createMemoryStore(options.now ? { now: options.now } : {}), kind: 'memory', describe: 'memory (lost at every restart)' };
  if (engine === 'postgres') {
    const common = postgresOptionsFromEnv(env);
    const store = await createPostgresStore({ ...common, ...(options.now ? { now: options.now } : {}), ...(options.log ? { log: options.log } : {}) });
    try {
      const hub = await createPostgresStatusHub({ ...common, ...(options.log ? { log: options.log } : {}) });
      return { store, hub, kind: 'postgres', describe: `PostgreSQL at ${describePostgresUrl(common.url)} (schema ${common.schema ?? defaultSchema})` };
    } catch (error) {
      await store.close?.();
      throw error;
    }
  }
  if (engine === 'redis') {
    if (!redisUrl) throw new CompanionConfigError('MOMO_STORE=redis needs MOMO_REDIS_URL, e.g. redis://127.0.0.1:6379.');
    const common = { url: redisUrl, ...(env.MOMO_REDIS_PREFIX ? { keyPrefix: env.MOMO_REDIS_PREFIX } : {}) };
    const store = await createRedisStore({ ...common, ...(options.now ? { now: options.now } : {}), ...(options.log ? { log: options.log } : {}) });
    const hub = await createRedisStatusHub(common);
    return { store, hub, kind: 'redis', describe: `Redis at ${new URL(redisUrl).host}` };
  }
  const dataDir = env.MOMO_DATA_DIR?.trim() || './.momo-checkout';
  const store = createFileStore({ dataDir, ...(options.now ? { now: options.now } : {}) });
  return { store, kind: 'file', describe: `the file ${dataDir}/momo-checkout.sqlite` };
}

/** Platforms whose disk does not outlive an instance: a file store there loses payments. */
const ephemeralDiskVariables = ['VERCEL', 'AWS_LAMBDA_FUNCTION_NAME', 'NETLIFY', 'K_SERVICE', 'FUNCTION_TARGET'];

/**
 * Why this store would lose payments here, or null. Logged as a warning at start, and a failed
 * check in the doctor.
 */
export function storeRisk(kind: StoreKind, env: Record<string, string | undefined>): string | null {
  const production = env.NODE_ENV === 'production';
  if (kind === 'memory' && production) {
    // Named as it was chosen: MOMO_STORE=memory, or a memory store passed in code (createMemoryStore).
    const remove = env.MOMO_STORE?.trim().toLowerCase() === 'memory' ? 'Remove MOMO_STORE=memory (file store)' : 'Leave the store option unset (file store) instead of createMemoryStore()';
    return `NODE_ENV=production with a memory store: a restart or a deploy loses every payment in progress. ${remove}, or set MOMO_POSTGRES_URL (or MOMO_REDIS_URL).`;
  }
  const platform = ephemeralDiskVariables.find((name) => env[name]);
  if (kind === 'file' && platform) {
    return `a file store on a platform whose disk does not last (${platform} is set): payments are lost between instances. Set MOMO_POSTGRES_URL (or MOMO_REDIS_URL).`;
  }
  if (kind === 'memory' && platform) {
    return `a memory store on a serverless platform (${platform} is set): payments are lost between instances. Set MOMO_POSTGRES_URL (or MOMO_REDIS_URL).`;
  }
  return null;
}
