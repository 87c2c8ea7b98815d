/**
 * Two companion processes on one shared store (Redis, PostgreSQL) refund the same paid orders at the
 * same moment, with amounts that together exceed what was paid: for each order exactly one refund is
 * written and paid out, the other is refused, because the rule is checked inside the store's one
 * atomic compare-and-set (a Lua script, an SQL transaction), not by a read in each process.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { createPostgresStore, createRedisStore, type CheckoutStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { sampleRecord, withPayment } from '../../../src/server/stores/store-contract.js';
import { startRedisServer } from '../../support/redis-server.js';
import { createDatabase, startPostgresServer } from '../../support/postgres-server.js';

/** Each shared store: its server, and how a process opens it (`url`, and a key prefix or a schema). */
const stores: Record<string, () => Promise<{ url: string; space: string; open: () => Promise<CheckoutStore>; stop: () => Promise<void> }>> = {
  Redis: async () => {
    const server = await startRedisServer();
    const space = `race-${process.pid}:`;
    return { url: server.url, space, open: () => createRedisStore({ url: server.url, keyPrefix: space, log: silentLogger }), stop: () => server.stop() };
  },
  PostgreSQL: async () => {
    const server = await startPostgresServer();
    const url = server.urlOf(createDatabase(server));
    return { url, space: 'momo_race', open: () => createPostgresStore({ url, schema: 'momo_race', log: silentLogger }), stop: () => server.stop() };
  },
};

const child = fileURLToPath(new URL('./fixtures/refund-process.ts', import.meta.url));

function startProcess(args: string[]): { process: ChildProcessWithoutNullStreams; ready: Promise<void>; result: Promise<Array<{ orderId: string; ok: boolean; code?: string }>> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready\n')) resolve();
    });
    proc.once('exit', () => reject(new Error(`the refund process exited before it was ready:\n${errors}`)));
  });
  const result = new Promise<Array<{ orderId: string; ok: boolean; code?: string }>>((resolve, reject) => {
    proc.once('exit', () => {
      const line = output.split('\n').find((text) => text.startsWith('['));
      if (line) resolve(JSON.parse(line));
      else reject(new Error(`no outcome from the refund process:\n${output}\n${errors}`));
    });
  });
  return { process: proc, ready, result };
}

for (const [name, start] of Object.entries(stores)) describe(`refunds racing on two processes over ${name}`, () => {
  let backend: Awaited<ReturnType<typeof start>>;
  let sandbox: RunningSandbox;
  before(async () => {
    backend = await start();
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
  });
  after(async () => {
    await sandbox?.close();
    await backend?.stop();
  });

  it('writes and pays out one of two refunds that together exceed the paid amount, and refuses the other', async () => {
    const store = await backend.open();
    const orderIds: string[] = [];
    for (let index = 0; index < 5; index++) {
      const record = sampleRecord({ decimalPlaces: 0 });
      await store.createIfAbsent(record);
      assert.equal(await store.compareAndSet(record.orderId, 0, withPayment(record, record.orderId, 1, 'completed')), true);
      orderIds.push(record.orderId);
    }
    const common = [backend.url, backend.space, sandbox.url, sandbox.apiKey, sandbox.webhookSecret, 'http://127.0.0.1:9/momo'];
    // 3000 + 4000 > 5000 paid: together they exceed it, each alone does not.
    const processes = [startProcess([...common, 'rf-a', '3000', ...orderIds]), startProcess([...common, 'rf-b', '4000', ...orderIds])];
    await Promise.all(processes.map((item) => item.ready));
    for (const item of processes) item.process.stdin.write('go\n');
    const [a, b] = await Promise.all(processes.map((item) => item.result));

    for (const orderId of orderIds) {
      const outcomes = [a!.find((item) => item.orderId === orderId)!, b!.find((item) => item.orderId === orderId)!];
      assert.equal(outcomes.filter((item) => item.ok).length, 1, `${orderId}: one refund goes through (${JSON.stringify(outcomes)})`);
      assert.deepEqual(outcomes.filter((item) => !item.ok).map((item) => item.code), ['EXCEEDS_PAID_AMOUNT']);
      const stored = await store.getByOrderId(orderId);
      assert.equal(stored?.refunds?.length, 1, 'one refund written');
      const payouts = sandbox.control.transactions().filter((transaction) => transaction.kind === 'payout' && transaction.orderId === stored!.refunds![0]!.payoutOrderId);
      assert.equal(payouts.length, 1, 'one pay-out made');
    }
    assert.equal(sandbox.control.transactions().filter((transaction) => transaction.kind === 'payout').length, orderIds.length);
    await store.close?.();
  });
});
