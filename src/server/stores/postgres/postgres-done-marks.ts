/**
 * The Postgres store's `markInboxDone`, batched (postgres-batches.ts): every notification applied
 * leaves the inbox, and a round trip and a commit each would cost as much as the rest of its
 * application. The ids marked while one call is under way go in the next, as one call of
 * `mark_inbox_done` (postgres-write-functions.ts), committed without waiting for the disk: a mark
 * that a crash loses leaves its entry pending, and applying it again changes nothing
 * (receive-notification.ts).
 */
import type { Pool } from 'pg';
import { createBatchedWrites, type BatchedWrites } from './postgres-batches.js';

export function createPostgresDoneMarks(pool: Pool, s: string): BatchedWrites<string, void> {
  const call = `SELECT ${s}.mark_inbox_done($1::text[])`;
  return createBatchedWrites<string, void>(async (ids) => {
    await pool.query(call, [ids]);
    return [];
  }, 500);
}
