/**
 * The file store's group commit (sqlite-write-batch.ts): the writes asked for in one turn of the
 * event loop share one transaction and one commit (issue 43: a notification's five commits were
 * most of the file store's cost), and each write still stands or falls alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createFileStore } from '../../../../src/server/stores/sqlite/sqlite-store.js';
import { StoreConflictError } from '../../../../src/server/stores/store.js';
import { sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';

const walSize = (dataDir: string) => statSync(join(dataDir, 'momo-checkout.sqlite-wal')).size;
/** Bytes this process has written to files so far (Linux's /proc, where these tests run). */
const bytesWritten = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

describe('file store: one commit per turn', () => {
  it('writes 100 locks claimed in one turn into the WAL once, and refuses a write alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-group-commit-'));
    const store = createFileStore({ dataDir });
    try {
      await store.claimLock('warm-up', 'a', 60_000);
      const before = walSize(dataDir);
      const claimed = await Promise.all(Array.from({ length: 100 }, (_, index) => store.claimLock(`lock-${index}`, 'owner', 60_000)));
      assert.ok(claimed.every(Boolean));
      // A commit appends at least one 4 KB page to the WAL: 100 commits would add 400 KB or more.
      const added = walSize(dataDir) - before;
      assert.ok(added < 10 * 4096, `the WAL grew by ${added} bytes: one commit for the turn, not one per lock`);

      // In one turn: a write refused (its service order id is another order's) beside two that commit.
      const owner = (await store.createIfAbsent(withPayment(sampleRecord(), 'attempt-id-taken'))).record;
      const other = (await store.createIfAbsent(sampleRecord())).record;
      const results = await Promise.allSettled([
        store.compareAndSet(other.orderId, other.revision, { ...withPayment(other, 'attempt-id-taken'), revision: other.revision + 1 }),
        store.claimLock('beside-the-refused', 'owner', 60_000),
        store.compareAndSet(owner.orderId, owner.revision, { ...owner, version: 7, revision: owner.revision + 1 }),
      ]);
      assert.equal(results[0].status, 'rejected');
      assert.ok((results[0] as PromiseRejectedResult).reason instanceof StoreConflictError);
      assert.deepEqual(results.slice(1).map((result) => result.status === 'fulfilled' && result.value), [true, true]);
      assert.equal((await store.getByOrderId(other.orderId))?.payment, null, 'the refused write left nothing');
      assert.equal((await store.getByOrderId(owner.orderId))?.version, 7);
    } finally {
      await store.close?.();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('writes a transition once: no statement journal on disk, no rewrite of the indexes of columns it cannot change', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-group-commit-'));
    const store = createFileStore({ dataDir });
    try {
      const records = [];
      for (let n = 0; n < 2_000; n++) {
        const created = (await store.createIfAbsent(sampleRecord({ createdAt: n }))).record;
        const paying = withPayment(created, `attempt-volume-${n}`);
        await store.compareAndSet(created.orderId, created.revision, paying);
        records.push(paying);
      }
      // One in twenty, in one turn: scattered rows, as a busy shop's notifications find them.
      const picked = records.filter((_, index) => index % 20 === 0);
      const before = bytesWritten();
      const written = await Promise.all(
        picked.map((record) => store.compareAndSet(record.orderId, record.revision, { ...record, version: 2, revision: record.revision + 1, payment: { ...record.payment!, state: 'completed', updatedAt: 5 } })),
      );
      assert.ok(written.every(Boolean));
      // A row's page, and the pages of the indexes of what changed. Each write's savepoint kept
      // its undo copies in a temporary file, and the token's and return id's indexes were
      // rewritten unchanged: 20 KiB each before.
      const each = (bytesWritten() - before) / picked.length;
      assert.ok(each < 10 * 1024, `${Math.round(each)} bytes written to files per transition`);
      assert.equal((await store.getByOrderId(picked[3]!.orderId))?.payment?.state, 'completed');
      assert.equal((await store.getByTokenHash(picked[3]!.tokenHash))?.orderId, picked[3]!.orderId, 'still found by its token');
    } finally {
      await store.close?.();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
