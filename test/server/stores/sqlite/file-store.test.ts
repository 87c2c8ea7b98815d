/**
 * The file store (SQLite): the store contract with an injected clock, then what a durable store
 * must do: its data is there after a close and reopen, and after the process is killed with
 * SIGKILL right after a write; two connections to one file (two processes) share it; expired rows
 * are swept from the disk; and a store that cannot open says what to do.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { createFileStore, FileStoreUnavailableError } from '../../../../src/server/index.js';
import type { CheckoutRecord } from '../../../../src/server/model/records.js';
import { StoreConflictError } from '../../../../src/server/stores/store.js';
import { runStoreContract, sampleRecord, withPayment as withPaymentAt } from '../../../../src/server/stores/store-contract.js';
import { sampleLink } from '../../../../src/server/stores/store-contract/links.js';
import { SCHEMA_VERSION } from '../../../../src/server/stores/sqlite/sqlite-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'momo-file-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `store-${++files}.sqlite`);
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

runStoreContract('file store', ({ now }) => createFileStore({ path: newPath(), now }));

/** Written with updatedAt 1, as these tests expect. */
const withPayment = (record: CheckoutRecord, serviceOrderId: string): CheckoutRecord => withPaymentAt(record, serviceOrderId, 1, 'pending', 1);

describe('file store: durability', () => {
  it('finds everything again after it is closed and reopened', async () => {
    const path = newPath();
    const first = createFileStore({ path });
    const record = sampleRecord();
    await first.createIfAbsent(record);
    const paid = { ...withPayment(record, `${record.orderId}-service`), deliveries: [] };
    assert.equal(await first.compareAndSet(record.orderId, 0, paid), true);
    const entry = { id: 'nonce-reopen', rawBody: '{"amount":100}', receivedAt: 3 };
    await first.addToInbox(entry, 60_000);
    assert.equal(await first.claimLock('deliver:x', 'owner-1', 60_000), true);
    await first.close?.();

    const second = createFileStore({ path });
    assert.deepEqual(await second.getByOrderId(record.orderId), paid);
    assert.deepEqual(await second.getByTokenHash(record.tokenHash), paid);
    assert.deepEqual(await second.getByServiceOrderId(`${record.orderId}-service`), paid);
    assert.deepEqual(await second.pendingInbox(10), [entry]);
    assert.equal(await second.addToInbox(entry, 60_000), false, 'still a duplicate');
    assert.equal(await second.claimLock('deliver:x', 'owner-2', 60_000), false, 'the lock is still held');
    assert.equal((await second.listPayments({ states: ['pending'] })).length, 1);
    await second.close?.();
  });

  it('keeps a committed write when the process is killed with SIGKILL right after it', async () => {
    const path = newPath();
    const orderId = 'order-killed';
    const writer = fileURLToPath(new URL('./fixtures/file-store-writer.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path, orderId], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('written')) resolve();
      });
      child.once('exit', () => reject(new Error(`the writer exited before writing:\n${output}`)));
    });
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    assert.ok(existsSync(`${path}-wal`), 'the write went to the WAL, which the killed process never checkpointed');

    const store = createFileStore({ path });
    const record = await store.getByServiceOrderId(`${orderId}-service`);
    assert.equal(record?.orderId, orderId);
    assert.equal(record?.payment?.state, 'pending');
    assert.equal(record?.revision, 1);
    assert.deepEqual((await store.pendingInbox(10)).map((entry) => entry.id), [`${orderId}-nonce`]);
    await store.close?.();
  });

  it('uses WAL journaling (kept in the file)', async () => {
    const path = newPath();
    const store = createFileStore({ path });
    await store.close?.();
    const db = new Database(path, { readonly: true });
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    db.close();
  });
});

describe('file store: two connections to one file (as two processes)', () => {
  it('see each other’s writes; a stale compare-and-set and a taken service order id are refused across them', async () => {
    const path = newPath();
    const a = createFileStore({ path });
    const b = createFileStore({ path });
    const record = sampleRecord();
    const results = await Promise.all([a.createIfAbsent(record), b.createIfAbsent({ ...record, token: 'other' }), a.createIfAbsent(record)]);
    assert.equal(results.filter((result) => result.created).length, 1);
    assert.deepEqual(await b.getByReturnId(record.returnId), record);

    assert.equal(await a.compareAndSet(record.orderId, 0, { ...record, revision: 1, version: 1 }), true);
    assert.equal(await b.compareAndSet(record.orderId, 0, { ...record, revision: 1, version: 2 }), false, 'b read nothing stale from a cache');
    assert.equal((await b.getByOrderId(record.orderId))?.version, 1);

    const other = sampleRecord();
    await b.createIfAbsent(other);
    assert.equal(await a.compareAndSet(record.orderId, 1, withPayment({ ...record, revision: 1 }, 'svc-taken')), true);
    await assert.rejects(b.compareAndSet(other.orderId, 0, withPayment(other, 'svc-taken')), StoreConflictError);
    await a.close?.();
    await b.close?.();
  });
});

describe('file store: several processes on one file', () => {
  it('keeps every increment when processes race compare-and-sets on one checkout', async () => {
    const path = newPath();
    const store = createFileStore({ path });
    const record = sampleRecord();
    await store.createIfAbsent(record);
    const incrementer = fileURLToPath(new URL('./fixtures/file-store-incrementer.ts', import.meta.url));
    const perProcess = 25;
    const children = Array.from({ length: 3 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', incrementer, path, record.orderId, String(perProcess)], { stdio: ['pipe', 'pipe', 'pipe'] });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
      const done = new Promise<void>((resolve, reject) =>
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`an incrementer failed (exit ${code}):\n${errors}`)))),
      );
      return { child, ready, done };
    });
    await Promise.race([Promise.all(children.map((run) => run.ready)), Promise.all(children.map((run) => run.done))]);
    for (const { child } of children) child.stdin.end('go\n'); // all start together: the writes race
    await Promise.all(children.map((run) => run.done));
    const stored = (await store.getByOrderId(record.orderId))!;
    assert.equal(stored.version, 3 * perProcess);
    assert.equal(stored.revision, 3 * perProcess);
    await store.close?.();
  });
});

describe('file store: expiry on disk', () => {
  it('deletes expired checkouts, locks and done notifications from the file, at most once a minute, on a write', async () => {
    const path = newPath();
    const clock = { at: 1_000_000 };
    const store = createFileStore({ path, now: () => clock.at });
    const old = sampleRecord({ retainUntil: clock.at + 1_000 });
    await store.createIfAbsent(old); // the first write sweeps (nothing yet) and starts the minute
    await store.compareAndSet(old.orderId, 0, { ...withPayment(old, `${old.orderId}-service`), retainUntil: clock.at + 1_000 });
    await store.claimLock('pay:old', 'owner', 1_000);
    await store.addToInbox({ id: 'nonce-old', rawBody: '{}', receivedAt: 1 }, 1_000);
    await store.markInboxDone('nonce-old');
    await store.addToInbox({ id: 'nonce-pending', rawBody: '{}', receivedAt: 2 }, 1_000);
    const count = (table: string) => {
      const db = new Database(path, { readonly: true });
      const { n } = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
      db.close();
      return n;
    };
    clock.at += 30_000;
    await store.createIfAbsent(sampleRecord({ retainUntil: clock.at + 600_000 }));
    assert.equal(count('checkouts'), 2, 'not yet: less than a minute since the last sweep');
    clock.at += 31_000;
    await store.createIfAbsent(sampleRecord({ retainUntil: clock.at + 600_000 }));
    assert.equal(count('checkouts'), 2, 'the old checkout is gone, the two live ones are kept');
    assert.equal(count('service_order_ids'), 0, 'its service order id went with it');
    assert.equal(count('locks'), 0);
    assert.equal(count('inbox'), 1, 'a pending notification is never swept');
    await store.close?.();
  });
});

describe('file store: opening', () => {
  it('creates <dataDir>/momo-checkout.sqlite, and MOMO_DATA_DIR is the default dataDir', async () => {
    const dataDir = join(dir, 'data', 'nested');
    const store = createFileStore({ dataDir });
    await store.ping();
    await store.close?.();
    assert.ok(existsSync(join(dataDir, 'momo-checkout.sqlite')));

    const fromEnv = join(dir, 'from-env');
    const saved = process.env.MOMO_DATA_DIR;
    process.env.MOMO_DATA_DIR = fromEnv;
    try {
      const envStore = createFileStore();
      await envStore.close?.();
    } finally {
      if (saved === undefined) delete process.env.MOMO_DATA_DIR;
      else process.env.MOMO_DATA_DIR = saved;
    }
    assert.ok(existsSync(join(fromEnv, 'momo-checkout.sqlite')));
  });

  it('says what to do when the native module cannot be loaded', () => {
    assert.throws(
      () => createFileStore({ path: newPath(), nativeBinding: join(dir, 'missing', 'better_sqlite3.node') }),
      (error: unknown) => {
        assert.ok(error instanceof FileStoreUnavailableError);
        assert.match(error.message, /native module cannot be loaded/);
        assert.match(error.message, /Node 22 or newer .*`npm ci`.*MOMO_REDIS_URL/);
        assert.match(error.message, /MOMO_REDIS_URL/);
        assert.match(error.message, /createMemoryStore\(\)/);
        return true;
      },
    );
  });

  it('says what to do when its folder cannot be created', () => {
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, 'not a folder');
    assert.throws(() => createFileStore({ dataDir: join(notAFolder, 'data') }), (error: unknown) => {
      assert.ok(error instanceof FileStoreUnavailableError);
      assert.match(error.message, /MOMO_DATA_DIR/);
      return true;
    });
  });

  it('refuses a file that is not a database, and one written by a newer version', () => {
    const garbage = join(dir, 'garbage.sqlite');
    writeFileSync(garbage, 'this is not a database, but it is long enough to have a header of sorts........');
    assert.throws(() => createFileStore({ path: garbage }), FileStoreUnavailableError);

    const newer = newPath();
    const db = new Database(newer);
    db.pragma('user_version = 99');
    db.close();
    assert.throws(() => createFileStore({ path: newer }), /newer momo-checkout \(schema 99/);
  });
});

describe('file store: schema 4 (payment links)', () => {
  it('adds the links table to a file of schema 3 at open, and keeps its checkouts', async () => {
    const path = newPath();
    const first = createFileStore({ path });
    const record = sampleRecord();
    await first.createIfAbsent(record);
    await first.close?.();
    // The file as a companion before links left it: schema 3, no links table (and no record of its
    // migrations: 0.5.0 and older kept none).
    const db = new Database(path);
    db.exec('DROP TABLE links; DROP TABLE schema_migrations');
    db.pragma('user_version = 3');
    db.close();

    const upgraded = createFileStore({ path });
    assert.equal((await upgraded.getByOrderId(record.orderId))?.orderId, record.orderId, 'the checkout is still there');
    const link = sampleLink();
    assert.equal((await upgraded.links!.createLinkIfAbsent(link)).created, true);
    assert.deepEqual(await upgraded.links!.getLink(link.linkId), link);
    await upgraded.close?.();
    const check = new Database(path, { readonly: true });
    assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    check.close();
  });
});
