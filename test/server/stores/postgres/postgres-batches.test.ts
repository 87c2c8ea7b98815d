/**
 * The PostgreSQL store's batched calls (postgres-batches.ts) hand a large batch's results back
 * `settledPerTurn` callers at a time, letting the event loop read its sockets between two groups:
 * settled all at once, the callers' next steps ran as one long run of microtasks that held every
 * request in flight (issue 43: the store's p99). No database: the write is a function here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBatchedWrites, settledPerTurn } from '../../../../src/server/stores/postgres/postgres-batches.js';

describe('postgres batched writes', () => {
  it('settles a large batch a group at a time, and the event loop runs between two groups', async () => {
    const seen: string[] = [];
    // gatherTurn: every call of this turn in one batch, as the notifications' next steps are.
    const batches = createBatchedWrites<number, number>(async (items) => {
      await new Promise((resolve) => setImmediate(resolve));
      return items.map((item) => item * 2);
    }, 1_000, { gatherTurn: true });
    const count = settledPerTurn * 3 + 5;
    const results = Array.from({ length: count }, (_, index) =>
      batches.add(index).then((result) => {
        // What the loop runs after the first caller goes on: a socket's read, in production.
        if (index === 0) setImmediate(() => seen.push('event loop'));
        seen.push(`caller ${index}`);
        return result;
      }),
    );
    assert.deepEqual(await Promise.all(results), Array.from({ length: count }, (_, index) => index * 2), 'each caller gets its own result, in order');
    const loopAt = seen.indexOf('event loop');
    // A group's turn is a setImmediate, queued as the group is settled: the loop's own work comes
    // after one or two groups, never after the whole batch.
    assert.ok(loopAt >= settledPerTurn && loopAt <= 2 * settledPerTurn, `the event loop ran after ${loopAt} of ${count} callers`);
    assert.deepEqual(seen.filter((entry) => entry !== 'event loop'), Array.from({ length: count }, (_, index) => `caller ${index}`), 'in the order they came');
  });

  it('rejects every caller of a batch whose write failed, and goes on with the next batch', async () => {
    let calls = 0;
    const batches = createBatchedWrites<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return items;
    }, 10);
    const first = batches.add(1);
    const second = batches.add(2);
    await assert.rejects(first, /connection lost/);
    assert.equal(await second, 2);
    await batches.drained();
  });
});
