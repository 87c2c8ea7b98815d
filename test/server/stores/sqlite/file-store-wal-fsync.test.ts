/**
 * The file store's durable writes are fsynced off the event loop (sqlite-fsync.ts
 * `createWalFlusher`): an inbox entry and a new service order id resolve only once the WAL file
 * is on the disk, the writes beside them at their commit, and every batch committed while an fsync
 * runs shares the next one. Node's own `FileHandle.sync` is held here to see each step (the WAL is
 * a real file on a real disk; only the moment the fsync returns is chosen by the test).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { InboxEntry } from '../../../../src/server/model/records.js';
import { createFileStore } from '../../../../src/server/stores/sqlite/sqlite-store.js';
import type { CheckoutStore } from '../../../../src/server/stores/store.js';
import { sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';

type Sync = FileHandle['sync'];

/** Every `FileHandle.sync` of this process: the file it flushes, held until the test releases it. */
async function holdFsyncs() {
  const probe = await open(process.execPath, 'r');
  const prototype = Object.getPrototypeOf(probe) as { sync: Sync };
  await probe.close();
  const original = prototype.sync;
  const held: Array<{ release(error?: Error): void }> = [];
  const files: string[] = [];
  prototype.sync = async function (this: FileHandle) {
    files.push(readLink(this.fd));
    await new Promise<void>((resolve, reject) => held.push({ release: (error) => (error ? reject(error) : resolve()) }));
    return original.call(this);
  };
  return {
    held,
    files,
    restore: () => {
      prototype.sync = original;
    },
  };
}

/** The file behind a descriptor (Linux's /proc, where these tests run). */
const readLink = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);

const entry = (id: string): InboxEntry => ({ id, rawBody: `{"_nonce":"${id}"}`, receivedAt: Date.now() });

/**
 * Waits until `count` fsyncs are held (the WAL is opened on the thread pool first, which a loaded
 * machine may take a while to do), at most two seconds.
 */
async function fsyncsHeld(held: readonly unknown[], count: number): Promise<number> {
  for (const started = Date.now(); held.length < count && Date.now() - started < 2_000; ) await new Promise((resolve) => setTimeout(resolve, 1));
  return held.length;
}

/** Whether `promise` has settled after the event loop has turned a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('file store: durable writes fsynced off the event loop', () => {
  let dataDir: string;
  let store: CheckoutStore;
  let fsyncs: Awaited<ReturnType<typeof holdFsyncs>>;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'momo-wal-fsync-'));
    store = createFileStore({ dataDir });
    fsyncs = await holdFsyncs();
  });
  afterEach(async () => {
    for (const each of fsyncs.held) each.release();
    fsyncs.restore();
    await store.close?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers an inbox entry only after the WAL is fsynced, and the lock beside it at its commit', async () => {
    const kept = store.addToInbox(entry('n-1'), 60_000);
    const beside = store.claimLock('beside', 'owner', 60_000);
    assert.equal(await beside, true, 'the lock resolves at its commit, without waiting for the disk');
    assert.equal(await settled(kept), false, 'the inbox entry waits for the fsync');
    assert.equal(await fsyncsHeld(fsyncs.held, 1), 1, 'one fsync, on the thread pool, while the event loop went on');
    assert.deepEqual(fsyncs.files, [join(dataDir, 'momo-checkout.sqlite-wal')], "the WAL's own file");
    fsyncs.held[0]!.release();
    assert.equal(await kept, true);
  });

  it('waits for the disk when a write registers a new service order id, not for a known one', async () => {
    const created = (await store.createIfAbsent(sampleRecord())).record;
    const attempt = withPayment(created, 'attempt-new-1');
    const registering = store.compareAndSet(created.orderId, created.revision, attempt);
    assert.equal(await settled(registering), false, 'a new service order id waits for the fsync');
    assert.equal(await fsyncsHeld(fsyncs.held, 1), 1);
    fsyncs.held.shift()!.release();
    assert.equal(await registering, true);

    const known = store.compareAndSet(created.orderId, attempt.revision, { ...attempt, version: 2, revision: attempt.revision + 1 });
    assert.equal(await settled(known), true, 'a transition of a registered id resolves at its commit');
    assert.equal(await known, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fsyncs.held.length, 0, 'and asked for no fsync');
  });

  it('gives the batches committed during an fsync one fsync after it, not one each', async () => {
    const first = store.addToInbox(entry('a'), 60_000);
    await settled(first);
    const during = [store.addToInbox(entry('b'), 60_000)];
    await settled(during[0]!);
    during.push(store.addToInbox(entry('c'), 60_000));
    await settled(during[1]!);
    during.push(store.addToInbox(entry('d'), 60_000));
    assert.equal(await fsyncsHeld(fsyncs.held, 1), 1);
    await settled(during[2]!);
    assert.equal(fsyncs.held.length, 1, 'the later batches wait for the running fsync to end');
    fsyncs.held.shift()!.release();
    assert.equal(await first, true);
    assert.equal(await fsyncsHeld(fsyncs.held, 1), 1, 'then one fsync covers the three batches committed meanwhile');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fsyncs.held.length, 1, 'and only one');
    for (const each of during) assert.equal(await settled(each), false);
    fsyncs.held.shift()!.release();
    assert.deepEqual(await Promise.all(during), [true, true, true]);
  });

  it('refuses an inbox entry whose fsync failed (the webhook answers 503), and keeps it for the resume', async () => {
    const kept = store.addToInbox(entry('eio'), 60_000);
    assert.equal(await fsyncsHeld(fsyncs.held, 1), 1);
    fsyncs.held.shift()!.release(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await assert.rejects(kept, /EIO/);
    // Committed to the WAL before its fsync failed: still inside, so the next resume applies it.
    assert.deepEqual((await store.pendingInbox(10)).map((each) => each.id), ['eio']);
  });
});
