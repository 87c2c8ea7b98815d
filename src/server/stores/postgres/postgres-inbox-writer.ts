/**
 * The Postgres store's group commit of inbox writes, as the file store has one
 * (sqlite-inbox-commit.ts): a kept notification is committed with `synchronous_commit = on` before
 * the webhook route answers the service (the service sends it once), and that commit waits for the
 * WAL to reach the disk. So the entries that arrive while a commit is under way wait for it to end
 * and then go in together, as one statement (one round trip, one WAL flush) for up to
 * {@link MOST_PER_COMMIT} of them; each caller's promise settles after that commit, with whether its
 * entry was new, or with the commit's error (then none of the batch is kept: each is answered 503).
 *
 * It writes on a connection of its own (postgres-connection.ts `inboxPool`, one of the store's
 * budget), so that apply and delivery work holding every other connection of the pool cannot keep
 * a notification waiting at the door.
 */
import type { Pool } from 'pg';
import type { InboxEntry } from '../../model/records.js';
import { createBatchedWrites, type BatchedWrites } from './postgres-batches.js';
import { jsonArray, keepableJson, keepableText } from './postgres-records.js';

/** Entries per statement: a commit of a few hundred rows is still one WAL flush, and a statement stays small. */
const MOST_PER_COMMIT = 500;

/** `add` resolves false for a duplicate (see `CheckoutStore.addToInbox`), once its batch is committed. */
export function createPostgresInboxWriter(pool: Pool, s: string, now: () => number): BatchedWrites<{ entry: InboxEntry; until: number }, boolean> {
  // Kept: a new id, or one whose done entry has expired (its row is reused, with a new arrival
  // rank); refused otherwise. The ids RETURNING gives are the ones kept. The entries come as one json
  // document (postgres-records.ts `jsonArray`: no array literal for `pg` to escape body by body) and
  // go in in its order, so `seq` keeps the arrival order within the batch.
  const insert = `INSERT INTO ${s}.inbox (id, raw_body, received_at, done, until)
    SELECT e.id, e.raw_body, e.received_at, false, e.until FROM json_to_recordset($1::json) AS e (id text, raw_body text, received_at bigint, until bigint)
    ON CONFLICT (id) DO UPDATE SET raw_body = excluded.raw_body, received_at = excluded.received_at, done = false, until = excluded.until,
      seq = nextval(pg_get_serial_sequence('${s}.inbox', 'seq'))
    WHERE ${s}.inbox.done AND ${s}.inbox.until <= $2
    RETURNING id`;
  return createBatchedWrites(async (batch) => {
    // One id twice in a batch: the first decides, the others are its duplicates (one statement may
    // not touch a row twice).
    const ids = new Set<string>();
    const firsts = new Set(batch.filter((item) => !ids.has(item.entry.id) && ids.add(item.entry.id)));
    // Marked where PostgreSQL could not decode them (postgres-records.ts `keepableJson`): a nonce or a body holding a NUL is kept, as on the file store.
    const entries = [...firsts].map((item) => keepableJson(JSON.stringify({ id: item.entry.id, raw_body: item.entry.rawBody, received_at: item.entry.receivedAt, until: item.until })));
    const result = await pool.query<{ id: string }>(insert, [jsonArray(entries), now()]);
    const kept = new Set(result.rows.map((row) => row.id));
    return batch.map((item) => firsts.has(item) && kept.has(keepableText(item.entry.id)));
  }, MOST_PER_COMMIT);
}
