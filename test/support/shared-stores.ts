/**
 * The stores several companion processes share, each started for real on a free port: the crash,
 * race and fault suites run once per store from this list, instead of being copied per store; and
 * the file store, which the processes of one host share through a folder.
 * `env` is what a companion (store-from-env.ts) needs to open it; each call to `freshEnv` gives a
 * space of its own on the same server (a key prefix, a database), so suites do not see each other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer, createDatabase, type PostgresServer, type PostgresServerOptions } from './postgres-server.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

export interface SharedStoreServer {
  /** For test names: `Redis`, `PostgreSQL`. */
  name: string;
  /** The environment of a companion on a space of its own on this server. */
  freshEnv(): Record<string, string>;
  stop(): Promise<void>;
}

let spaces = 0;

export async function startSharedRedis(): Promise<SharedStoreServer & { server: RedisServer }> {
  const server = await startRedisServer();
  return {
    name: 'Redis',
    server,
    freshEnv: () => ({ MOMO_REDIS_URL: server.url, MOMO_REDIS_PREFIX: `space-${process.pid}-${++spaces}:` }),
    stop: () => server.stop(),
  };
}

export async function startSharedPostgres(options: PostgresServerOptions = {}): Promise<SharedStoreServer & { server: PostgresServer }> {
  const server = await startPostgresServer(options);
  return {
    name: 'PostgreSQL',
    server,
    freshEnv: () => ({ MOMO_POSTGRES_URL: server.urlOf(createDatabase(server)) }),
    stop: () => server.stop(),
  };
}

/**
 * The file store (SQLite) as several processes of one host share it: one data folder, each
 * `freshEnv` a folder of its own.
 */
export async function startSharedFileStore(): Promise<SharedStoreServer> {
  const folders: string[] = [];
  return {
    name: 'file store',
    freshEnv: () => {
      folders.push(mkdtempSync(join(tmpdir(), 'momo-shared-file-')));
      return { MOMO_DATA_DIR: folders[folders.length - 1]! };
    },
    stop: async () => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })),
  };
}

/** Every shared store, by name, for the suites that run on each. */
export const sharedStores = { Redis: startSharedRedis, PostgreSQL: startSharedPostgres } as const;
