/**
 * The file store copies its WAL into the database file on a thread of its own once it is busy
 * (sqlite-checkpointer.ts), not inside a commit on the companion's event loop, where each of
 * SQLite's own checkpoints held it about 40 ms (issue 43). Observed from the files: the database
 * file grows only by checkpoints, and the main connection's own does not come before 10,000 pages
 * of WAL, far more than these tests write.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startCheckpointer, startCheckpointerAfterWrites } from '../../../../src/server/stores/sqlite/sqlite-checkpointer.js';
import { createFileStore } from '../../../../src/server/stores/sqlite/sqlite-store.js';
import type { CheckoutStore } from '../../../../src/server/stores/store.js';
import { sampleRecord } from '../../../../src/server/stores/store-contract.js';
import { until } from '../../../support/until.js';

let dir: string;
let path: string;
let store: CheckoutStore | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-checkpoints-'));
  path = join(dir, 'momo-checkout.sqlite');
});

afterEach(async () => {
  await store?.close?.();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** `count` new checkouts, 100 at a time (a hundred writes share a commit). */
async function writeCheckouts(target: CheckoutStore, count: number): Promise<void> {
  for (let written = 0; written < count; written += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - written) }, () => target.createIfAbsent(sampleRecord({ retainUntil: Date.now() + 3_600_000 }))));
  }
}

describe('file store checkpoints', () => {
  it('a busy store copies its WAL into the database on a thread of its own, and a quiet one leaves it in the WAL', async () => {
    store = createFileStore({ path });
    await writeCheckouts(store, startCheckpointerAfterWrites / 2);
    const quiet = statSync(path).size;
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(statSync(path).size, quiet, 'below the threshold nothing is checkpointed yet: no worker');
    assert.ok(statSync(`${path}-wal`).size > 100_000, 'the checkouts are in the WAL');
    await writeCheckouts(store, startCheckpointerAfterWrites);
    await until('the database file holds the checkouts written to the WAL', () => statSync(path).size > quiet + 500_000);
  });

  it('closes its worker with the store: the main connection closes last, checkpoints the rest and removes the WAL', async () => {
    const busy = createFileStore({ path });
    await writeCheckouts(busy, startCheckpointerAfterWrites * 2);
    const last = sampleRecord({ retainUntil: Date.now() + 3_600_000 });
    await busy.createIfAbsent(last);
    await until('a first checkpoint', () => statSync(path).size > 1_000_000);
    await busy.close?.();
    assert.equal(existsSync(`${path}-wal`), false, 'the WAL is gone: no other connection was left open');
    store = createFileStore({ path });
    assert.ok(await store.getByOrderId(last.orderId), 'and every checkout reads back');
  });

  it('never keeps a process alive: one that ends without closing its busy store exits', async () => {
    const script = fileURLToPath(new URL('./fixtures/busy-store-left-open.ts', import.meta.url));
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', script, path], { timeout: 30_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.killed ? 'still running after 30 s' : error.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
    assert.equal(output.trim(), 'checkpointed');
  });

  it('a worker that cannot open the file stops and says why, and the store is left to SQLite’s own checkpoints', async () => {
    const reasons: string[] = [];
    const checkpointer = startCheckpointer(join(dir, 'missing.sqlite'), { onStopped: (reason) => reasons.push(reason) });
    assert.ok(checkpointer, 'worker threads start here');
    await until('the worker stopping', () => reasons.length > 0);
    assert.match(reasons[0]!, /unable to open|does not exist|no such file/i);
    assert.equal(await checkpointer.passes(), 0);
    await checkpointer.close();
  });
});
