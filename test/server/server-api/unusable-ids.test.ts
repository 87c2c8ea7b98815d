/**
 * An order id or a return id holding a NUL or another control character (issue 40, finding 9) is a
 * 400 with a sentence on every store, never the engine's error: PostgreSQL refuses NUL in text, which
 * answered `503 STORE_UNAVAILABLE` (an encoding error taken for an outage), and the return route,
 * open to anyone, wrote an error line per request.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore, createRedisStore, type CheckoutStore } from '../../../src/server/index.js';
import { createLogger, silentLogger } from '../../../src/server/log.js';
import { hasUnusableCharacters } from '../../../src/server/model/id-text.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { newOrderId, startHarness } from '../harness.js';

const serverSecret = 'unusable-ids-server-secret-0123456789abcdef';
const badIds = ['abc%00def', '%00', 'abc%01def', 'abc%7Fdef', 'abc%C2%85def'];

let postgres: PostgresServer;
let redis: RedisServer;
let dataDir: string;
let postgresUrl: string;

before(async () => {
  [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  postgresUrl = postgres.urlOf(createDatabase(postgres));
  dataDir = mkdtempSync(join(tmpdir(), 'momo-unusable-ids-'));
});

after(async () => {
  await Promise.all([postgres?.stop(), redis?.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const stores: Record<string, () => Promise<CheckoutStore>> = {
  memory: async () => createMemoryStore(),
  file: async () => createFileStore({ dataDir }),
  redis: () => createRedisStore({ url: redis.url, log: silentLogger }),
  postgres: async () => createPostgresStore({ url: postgresUrl, schema: 'unusable_ids', log: silentLogger }),
};

for (const [kind, open] of Object.entries(stores)) {
  describe(`ids holding a NUL or a control character, ${kind} store`, () => {
    it('are a 400 with a sentence in the server API, the console and the return route, and write no error line', async () => {
      const lines: string[] = [];
      const h = await startHarness({
        serverSecret,
        refunds: true,
        merchantWebhookUrl: 'http://127.0.0.1:9/never',
        merchantWebhookSecret: 'whsec_dW51c2FibGUtaWRzLW1lcmNoYW50LXNlY3JldA==',
        setupChecksAtStart: false,
        store: await open(),
        log: createLogger({ level: 'error', sink: (line) => lines.push(line) }),
      });
      const api = (path: string, body?: unknown) =>
        fetch(`${h.base}/server${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      try {
        const orderId = newOrderId();
        assert.equal((await api('/checkouts', { orderId, amount: '5000', currencyCode: 'XOF' })).status, 200);
        assert.equal((await api(`/payments/${orderId}`)).status, 200, 'the store answers');

        for (const id of badIds) {
          for (const [path, body] of [[`/payments/${id}`], [`/payments/${id}/refunds`, { refundId: 'r-1', amount: '100' }], [`/payments/${id}/redeliver`, {}]] as const) {
            const response = await api(path, body);
            const answer = (await response.json()) as { error: { code: string; message: string } };
            assert.equal(response.status, 400, `${path}: ${JSON.stringify(answer)}`);
            assert.equal(answer.error.code, 'BAD_REQUEST');
            assert.match(answer.error.message, /orderId.*control character \(such as NUL\).*send it as it was created/);
          }

          const returned = await fetch(`${h.base}/return/${id}?outcome=success`, { redirect: 'manual' });
          assert.equal(returned.status, 400, `/return/${id}`);
          assert.match(await returned.text(), /This payment link is broken/);
        }

        const cookie = await signIn(h.base);
        for (const path of ['/console/api/payments/abc%00def', '/console/api/payments?orderId=abc%00def']) {
          const response = await fetch(`${h.base}${path}`, { headers: { cookie } });
          const answer = (await response.json()) as { error: { code: string; message: string } };
          assert.equal(response.status, 400, `${path}: ${JSON.stringify(answer)}`);
          assert.match(answer.error.message, /The order id holds a control character/);
        }

        assert.equal((await api(`/payments/${orderId}`)).status, 200, 'the store still answers');
        assert.deepEqual(lines, [], 'no error line');
      } finally {
        await h.close();
      }
    });
  });
}

describe('what an id cannot hold', () => {
  it('control characters and lone surrogates, not a printable character nor a pair of surrogates', () => {
    for (const bad of ['a\u0000b', '\t', 'a\u001fb', 'a\u007f', 'a\u0085', 'a\ud800b', 'a\udfff']) assert.equal(hasUnusableCharacters(bad), true, JSON.stringify(bad));
    for (const good of ['order-42', 'order:1.2_3', 'café', 'a\u{1F600}b', 'a b']) assert.equal(hasUnusableCharacters(good), false, JSON.stringify(good));
  });
});

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: new URL(base).origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret: serverSecret }).toString(),
  });
  assert.equal(response.status, 303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}
