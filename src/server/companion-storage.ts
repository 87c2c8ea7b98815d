/**
 * Where the companion keeps its state, chosen from its options: the store (by default the file
 * store: the service sends each notification once, so state that dies with the process loses
 * payments), the status hub that carries a transition to every stream, and the limit counters
 * (the store's own when several processes share it). A risky choice is said in the log at start.
 */
import type { Logger } from './log.js';
import type { CompanionOptions } from './options.js';
import { createMemoryLimits } from './stores/memory/memory-limits.js';
import { createMemoryStatusHub } from './stores/memory/memory-status-hub.js';
import { createFileStore } from './stores/sqlite/sqlite-store.js';
import { storeRisk } from './stores/store-from-env.js';
import type { StatusHub } from './stores/status-hub.js';

/** Only the options that choose where state lives: the store (or the file store's folder), the hub, the environment. */
export type StorageOptions = Pick<CompanionOptions, 'store' | 'dataDir' | 'env'> & { hub?: StatusHub };

export function companionStorage(options: StorageOptions, log: Logger, now: () => number) {
  // The default keeps state in a file: the service sends each notification once, so state that
  // dies with the process loses payments. The memory store is for tests and demos, by name.
  const store = options.store ?? createFileStore({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), now });
  const risk = storeRisk(store.kind === 'memory' || store.kind === 'file' || store.kind === 'redis' || store.kind === 'postgres' ? store.kind : 'custom', options.env ?? process.env);
  if (risk) log.warn(`momo-checkout store: ${risk}`);
  if (store.kind === 'redis' && !options.hub) {
    log.warn('momo-checkout store: Redis store without a Redis status hub: a page whose stream another process holds hears of its payment only at the next re-read of its stream (every 5 s). Pass hub: await createRedisStatusHub({ url }).');
  }
  if (store.kind === 'postgres' && !options.hub) {
    log.warn('momo-checkout store: Postgres store without a Postgres status hub: a page whose stream another process holds hears of its payment only at the next re-read of its stream (every 5 s). Pass hub: await createPostgresStatusHub({ url }).');
  }
  const hub = options.hub ?? createMemoryStatusHub();
  // A shared store counts the limits for every process on it; otherwise each process counts its own.
  const counted = store.limits ?? createMemoryLimits(now);
  return { store, hub, counted };
}
