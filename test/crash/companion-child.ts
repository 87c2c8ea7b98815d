/**
 * A companion in its own process, for crash tests: the parent kills it with SIGKILL and starts it
 * again on the same port and store. Configured by environment variables:
 *
 * - MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS: the sandbox (run by the parent);
 * - PORT: the port to listen on (the same after a restart: the service posts to one URL);
 * - PUBLIC_URL: where the service and pages reach it, when a front stands before several processes;
 * - MOMO_DATA_DIR, MOMO_REDIS_URL or MOMO_POSTGRES_URL: the durable store (store-from-env.ts);
 * - CHILD_UPDATES_FILE: each onPaymentUpdate call appended as a JSON line (what the merchant saw);
 * - CHILD_THROW_FILE: a file holding a number N: onPaymentUpdate throws while N > 0, decrementing it;
 * - CHILD_KILL_WHILE_APPLYING=1: after keeping a notification and answering 200, die before applying it;
 * - MOMO_ELEMENT_ASSETS_DIR: the element's built files a payment link's page serves (none built: the page answers 503).
 *
 * Prints `ready <port>` on stdout once it listens.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createCompanion, toNodeHandler, type CheckoutStore } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';
import { openStoreFromEnv } from '../../src/server/stores/store-from-env.js';

const env = process.env;
const port = Number(env.PORT);
const opened = await openStoreFromEnv(env);
let store: CheckoutStore = opened.store;

if (env.CHILD_KILL_WHILE_APPLYING === '1') {
  // The transition's write never happens: the process dies once the 200 has gone out.
  store = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name !== 'compareAndSet' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (orderId: string, revision: number, next: Parameters<CheckoutStore['compareAndSet']>[2]) => {
        if (next.payment?.lastServiceStatus) {
          setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);
          return new Promise<boolean>(() => {});
        }
        return value.call(target, orderId, revision, next);
      };
    },
  });
}

const companion = createCompanion({
  baseUrl: env.MOMO_BASE_URL!,
  apiKey: env.MOMO_API_KEY!,
  webhookSecrets: env.MOMO_WEBHOOK_SECRETS!.split(','),
  // Behind a front (several processes): the front's URL, which the service posts to.
  publicUrl: env.PUBLIC_URL ?? `http://127.0.0.1:${port}/momo`,
  allowedOrigins: ['http://shop.test'],
  allowInsecureLocalUrls: true,
  setupChecksAtStart: false,
  log: silentLogger,
  store,
  ...(opened.hub ? { hub: opened.hub } : {}),
  deliveryRetryDelaysMs: [50],
  // A killed process's delivery lease lasts three timeouts: short here, so a restart delivers soon.
  deliveryTimeoutMs: 1_000,
  maintenanceIntervalMs: 200,
  ...(env.MOMO_ELEMENT_ASSETS_DIR ? { elementAssetsDir: env.MOMO_ELEMENT_ASSETS_DIR } : {}),
  onPaymentUpdate: (update) => {
    const throwFile = env.CHILD_THROW_FILE;
    if (throwFile && existsSync(throwFile)) {
      const left = Number(readFileSync(throwFile, 'utf8'));
      if (left > 0) {
        writeFileSync(throwFile, String(left - 1));
        appendFileSync(env.CHILD_UPDATES_FILE!, `${JSON.stringify({ ok: false, key: update.idempotencyKey, state: update.payment.state, orderId: update.orderId })}\n`);
        throw new Error('fulfilment database down');
      }
    }
    appendFileSync(env.CHILD_UPDATES_FILE!, `${JSON.stringify({ ok: true, key: update.idempotencyKey, state: update.payment.state, orderId: update.orderId })}\n`);
  },
});

const server = createServer(toNodeHandler(companion));
server.listen(port, '127.0.0.1', () => process.stdout.write(`ready ${port}\n`));
process.on('SIGTERM', () => {
  void companion.close().then(() => process.exit(0));
});
