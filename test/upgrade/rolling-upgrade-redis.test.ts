/**
 * A rolling upgrade on Redis (issue 52; the test itself is rolling-upgrade.ts): both releases'
 * processes on one redis-server, under the default key prefix. Redis keeps no schema version:
 * what holds here is that each release reads the records, sets and keys the other writes.
 */
import { after, before } from 'node:test';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { describeRollingUpgrade } from './rolling-upgrade.js';

let redis: RedisServer | undefined;
before(async () => {
  redis = await startRedisServer();
});
after(() => redis?.stop());

describeRollingUpgrade({
  name: 'Redis',
  env: () => ({ MOMO_REDIS_URL: redis!.url }),
});
