/**
 * The store `npx momo-checkout serve` runs on, chosen by `MOMO_STORE`.
 *
 * MERGE NOTE (lead): in this branch only `MOMO_STORE=memory` works; the durable stores are being
 * written on another branch (`createFileStore`, the default; `createRedisStore` +
 * `createRedisStatusHub` for several processes). Replace the body of `openStoreFromEnv` at merge;
 * its signature is what serve.ts relies on.
 */
import { createMemoryStore } from './memory-store.js';
import { CompanionConfigError } from './options.js';
import type { StatusHub } from './status-hub.js';
import type { CheckoutStore } from './store.js';

export interface OpenedStore {
  store: CheckoutStore;
  /** A status hub shared across processes (Redis), when the store needs one; else the companion's in-memory hub. */
  hub?: StatusHub;
  /** One line for the start-up log, e.g. "memory (one process; nothing survives a restart)". Never a password. */
  describe: string;
}

export async function openStoreFromEnv(env: Record<string, string | undefined> = process.env): Promise<OpenedStore> {
  const kind = env.MOMO_STORE?.trim() || 'file';
  if (kind === 'memory') {
    return { store: createMemoryStore(), describe: 'memory (one process; payments and queued notifications are lost on restart)' };
  }
  throw new CompanionConfigError(
    `MOMO_STORE=${kind}: the durable store is not available in this build. Set MOMO_STORE=memory to try the service (nothing survives a restart), or use a release with the file and Redis stores.`,
  );
}
