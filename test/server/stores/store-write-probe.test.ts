/**
 * `probeWrite`: a store that can be read but not written (a lock held elsewhere, a Redis refusing
 * writes, a full disk) says so, and says so no more once writes go through again. `/readyz` calls it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { createRedisStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { lockableFileStore } from '../../support/locked-file-store.js';
import { startRedisServer } from '../../support/redis-server.js';

describe('store write probe', () => {
  it('file store: refused while another process holds the write lock (after the 5 s busy wait), accepted once it is released', async () => {
    const { store, lock, unlock, close } = lockableFileStore();
    try {
      await store.probeWrite!();
      lock();
      await store.ping(); // reads still work: only a write tells
      await assert.rejects(store.probeWrite!(), /locked|busy/i);
      unlock();
      await store.probeWrite!();
    } finally {
      await close();
    }
  });

  it('Redis store: refused while Redis refuses writes (NOREPLICAS), accepted once it takes them again', async () => {
    const redis = await startRedisServer();
    const store = await createRedisStore({ url: redis.url, log: silentLogger });
    const config = (value: string) => spawnSync('redis-cli', ['-p', String(redis.port), 'config', 'set', 'min-replicas-to-write', value], { encoding: 'utf8' }).stdout.trim();
    try {
      await store.probeWrite!();
      assert.equal(config('1'), 'OK');
      await store.ping();
      await assert.rejects(store.probeWrite!(), /NOREPLICAS/);
      assert.equal(config('0'), 'OK');
      await store.probeWrite!();
    } finally {
      await store.close?.();
      await redis.stop();
    }
  });
});
