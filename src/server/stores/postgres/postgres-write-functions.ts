/**
 * Migration 4: the store's racing writes as PL/pgSQL functions, so that each is ONE round trip
 * (as the Redis store has one Lua script per write, redis-scripts.ts), where it was a transaction
 * of six or seven (BEGIN, the advisory locks, a read, a check, the write, the index, COMMIT), each
 * a wait on the network and on a backend to be scheduled; and the writes that a crash may lose
 * harmlessly, without a wait for the disk (a lock's release, an inbox entry's done mark). The rules are the ones the store's
 * header states, unchanged, now inside the function:
 *
 * - every id the write touches (its order id and each service order id it carries) is locked with
 *   a transaction-scoped advisory lock, in one sorted order, before anything is read: two writers
 *   of one order, or a new checkout and another order's attempt claiming the same id, are
 *   serialized, as row locks alone cannot do for an id no row holds yet (the same keys as before:
 *   `hashtext(schema), hashtext(id)`);
 * - a service order id that another live order owns is refused with SQLSTATE `MC409`, the id in
 *   DETAIL and its owner in HINT (postgres-store.ts turns it into `serviceOrderIdTaken`);
 * - a compare-and-set that carries no new service order id is rebuildable, so its transaction
 *   commits with `synchronous_commit = off` (set_config(…, true): this transaction only); every
 *   other write waits for the disk at its commit.
 *
 * The row comes as json (postgres-records.ts `recordRow`) and is read with json_populate_record,
 * so its columns are named once here. A migration that adds a column to `checkouts` also replaces
 * `write_checkout` (CREATE OR REPLACE) with the column in its list.
 */
export const writeFunctionsSql = (s: string) => `
CREATE FUNCTION ${s}.lock_ids(p_ids text[]) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('${s}'), hashtext(id)) FROM (SELECT DISTINCT id FROM unnest(p_ids) AS id ORDER BY id) ids;
$$;

-- Refuses the first of p_candidates that a live order other than p_order_id owns: an attempt's or a pay-out's id, or its own order id.
CREATE FUNCTION ${s}.refuse_taken(p_order_id text, p_candidates text[], p_at bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_id text;
  v_owner text;
BEGIN
  SELECT t.id, t.owner INTO v_id, v_owner FROM unnest(p_candidates) WITH ORDINALITY AS ids (id, n)
    CROSS JOIN LATERAL (
      SELECT ids.id, i.order_id AS owner FROM ${s}.service_order_ids i JOIN ${s}.checkouts c ON c.order_id = i.order_id
        WHERE i.service_order_id = ids.id AND i.order_id <> p_order_id AND c.retain_until > p_at
      UNION ALL
      SELECT ids.id, c.order_id FROM ${s}.checkouts c WHERE c.order_id = ids.id AND ids.id <> p_order_id AND c.retain_until > p_at
      LIMIT 1) t
    ORDER BY ids.n LIMIT 1;
  IF v_id IS NOT NULL THEN
    RAISE EXCEPTION 'service order id % already belongs to order %', v_id, v_owner USING ERRCODE = 'MC409', DETAIL = v_id, HINT = v_owner;
  END IF;
END $$;

-- Writes the row (an update of p_order_id's, or a new one) and indexes its service order ids.
CREATE FUNCTION ${s}.write_checkout(p_row json, p_service_ids text[], p_new boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r ${s}.checkouts;
BEGIN
  r := json_populate_record(null::${s}.checkouts, p_row);
  IF p_new THEN
    INSERT INTO ${s}.checkouts SELECT r.*;
  ELSE
    UPDATE ${s}.checkouts SET revision = r.revision, token_hash = r.token_hash, return_id = r.return_id, retain_until = r.retain_until,
      next_delivery_at = r.next_delivery_at, payment_state = r.payment_state, payment_updated_at = r.payment_updated_at,
      payment_operator = r.payment_operator, support_at = r.support_at, record = r.record
      WHERE order_id = r.order_id;
  END IF;
  INSERT INTO ${s}.service_order_ids (service_order_id, order_id) SELECT id, r.order_id FROM unnest(p_service_ids) AS id
    ON CONFLICT (service_order_id) DO UPDATE SET order_id = excluded.order_id;
END $$;

-- createIfAbsent: created, or the live record already there (and nothing written).
CREATE FUNCTION ${s}.create_if_absent(p_order_id text, p_service_ids text[], p_row json, p_at bigint, OUT created boolean, OUT existing json) LANGUAGE plpgsql AS $$
DECLARE
  v_live boolean;
BEGIN
  PERFORM ${s}.lock_ids(p_order_id || p_service_ids);
  SELECT c.record, c.retain_until > p_at INTO existing, v_live FROM ${s}.checkouts c WHERE c.order_id = p_order_id;
  IF v_live THEN
    created := false;
    RETURN;
  END IF;
  existing := null;
  -- A new order's id must not be another order's attempt id (its own attempt 1 is sent under it).
  PERFORM ${s}.refuse_taken(p_order_id, p_order_id || p_service_ids, p_at);
  -- An expired row still here: its service order ids go with it (ON DELETE CASCADE).
  IF v_live IS NOT NULL THEN
    DELETE FROM ${s}.checkouts WHERE order_id = p_order_id;
  END IF;
  PERFORM ${s}.write_checkout(p_row, p_service_ids, true);
  created := true;
END $$;

-- compareAndSet: false when the live row's revision is not p_expected (or there is none).
CREATE FUNCTION ${s}.compare_and_set(p_order_id text, p_expected integer, p_service_ids text[], p_row json, p_at bigint) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_revision integer;
  v_known text[];
BEGIN
  PERFORM ${s}.lock_ids(p_order_id || p_service_ids);
  SELECT c.revision, ARRAY(SELECT i.service_order_id FROM ${s}.service_order_ids i WHERE i.order_id = c.order_id) INTO v_revision, v_known
    FROM ${s}.checkouts c WHERE c.order_id = p_order_id AND c.retain_until > p_at FOR UPDATE OF c;
  IF v_revision IS DISTINCT FROM p_expected THEN
    RETURN false;
  END IF;
  IF p_service_ids <@ v_known THEN
    -- No new service order id: rebuildable, so this commit need not wait for the disk.
    PERFORM set_config('synchronous_commit', 'off', true);
  ELSE
    PERFORM ${s}.refuse_taken(p_order_id, p_service_ids, p_at);
  END IF;
  PERFORM ${s}.write_checkout(p_row, p_service_ids, false);
  RETURN true;
END $$;

-- releaseLock: not waited for on disk. A release a crash of the server loses leaves the lease held
-- until its \`until\`, as the lease of a killed holder is: later, never unsafe.
CREATE FUNCTION ${s}.release_lock(p_key text, p_owner text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  DELETE FROM ${s}.locks WHERE key = p_key AND owner = p_owner;
END $$;

-- markInboxDone, for several entries at once: rebuildable (an entry still pending is applied again,
-- harmlessly), so not waited for on disk. A done entry is only a nonce now: its body is dropped.
CREATE FUNCTION ${s}.mark_inbox_done(p_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE ${s}.inbox SET done = true, raw_body = '' WHERE id = ANY (p_ids);
END $$;
`;

/** The SQLSTATE `refuse_taken` raises: a service order id that another live order owns. */
export const takenServiceOrderId = 'MC409';

/**
 * Migration 6: the racing writes of many callers in one round trip (issue 43, third part), for the
 * batches that postgres-batched-calls.ts gathers while the previous one is under way: a burst of
 * notifications applied a few hundred at a time costs a handful of round trips per batch, not nine
 * per notification.
 *
 * `compare_and_set_many` is migration 4's `compare_and_set` (above) for each
 * write of a json array, in its order, with the same guard per row:
 *
 * - every id of every write (order ids and the service order ids they carry) is locked first with
 *   the same transaction-scoped advisory locks, taken in the one sorted order `lock_ids` uses, so a
 *   batch and another process's batch or single write on the same orders are serialized, and never
 *   wait for each other in a circle (a deadlock the server still finds is retried by the caller);
 * - each row is then read `FOR UPDATE` and written only if its revision is the one its writer read:
 *   a second write of one order in the same batch (two statuses of one payment) finds the first's
 *   revision and is answered `stale`, and its caller reads again and re-decides, as after any lost
 *   race (store.ts `updateCheckoutRecord`), so statuses stay monotone and nothing applies twice;
 * - a write carrying a service order id that another live order owns is answered `taken` with the
 *   id and its owner (`refuse_taken`'s MC409, caught for that write alone), and writes nothing;
 * - the commit waits for the disk unless no write of the batch carries a new service order id:
 *   applying kept notifications and delivery bookkeeping are rebuildable (docs/durability.md), the
 *   first write of an attempt's id is not, and one such write makes the whole batch durable.
 *
 * `release_locks` is `release_lock` for many leases at once, not waited for on disk either.
 */
export const batchFunctionsSql = (s: string) => `
CREATE FUNCTION ${s}.compare_and_set_many(p_writes json, p_at bigint)
  RETURNS TABLE (write_n integer, outcome text, taken_id text, taken_owner text) LANGUAGE plpgsql AS $$
DECLARE
  w record;
  v_revision integer;
  v_known text[];
  v_durable boolean := false;
BEGIN
  PERFORM ${s}.lock_ids(ARRAY(
    SELECT e->>'orderId' FROM json_array_elements(p_writes) e
    UNION ALL
    SELECT id FROM json_array_elements(p_writes) e, json_array_elements_text(e->'serviceIds') id));
  FOR w IN
    SELECT (e.value->>'orderId') AS order_id, (e.value->>'expected')::integer AS expected,
      ARRAY(SELECT json_array_elements_text(e.value->'serviceIds')) AS service_ids, e.value->'row' AS written_row, e.ordinality::integer AS n
    FROM json_array_elements(p_writes) WITH ORDINALITY e ORDER BY e.ordinality
  LOOP
    write_n := w.n;
    taken_id := null;
    taken_owner := null;
    v_revision := null;
    SELECT c.revision, ARRAY(SELECT i.service_order_id FROM ${s}.service_order_ids i WHERE i.order_id = c.order_id) INTO v_revision, v_known
      FROM ${s}.checkouts c WHERE c.order_id = w.order_id AND c.retain_until > p_at FOR UPDATE OF c;
    IF v_revision IS DISTINCT FROM w.expected THEN
      outcome := 'stale';
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF NOT (w.service_ids <@ v_known) THEN
      v_durable := true;
      BEGIN
        PERFORM ${s}.refuse_taken(w.order_id, w.service_ids, p_at);
      EXCEPTION WHEN SQLSTATE 'MC409' THEN
        GET STACKED DIAGNOSTICS taken_id = PG_EXCEPTION_DETAIL, taken_owner = PG_EXCEPTION_HINT;
        outcome := 'taken';
        RETURN NEXT;
        CONTINUE;
      END;
    END IF;
    PERFORM ${s}.write_checkout(w.written_row, w.service_ids, false);
    outcome := 'written';
    RETURN NEXT;
  END LOOP;
  IF NOT v_durable THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
END $$;

CREATE FUNCTION ${s}.release_locks(p_keys text[], p_owners text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  DELETE FROM ${s}.locks l USING unnest(p_keys, p_owners) AS r (key, owner) WHERE l.key = r.key AND l.owner = r.owner;
END $$;
`;

/**
 * Migration 7: `compare_and_set_many` (migration 6) again, for what it cost PostgreSQL per row
 * (issue 43's profile of the database, `bench/postgres-statements.ts`): its json document was read
 * five times over (twice for the ids to lock, once for the loop, once per field with `->>`, once more
 * by `json_populate_record`), each row cost four statements of the function (its read `FOR UPDATE`,
 * the call of `write_checkout`, its update, and an upsert of service order ids the row already
 * had, a new row version each time), and the companion built the document as one string of the
 * whole batch (postgres-records.ts says why that was slow).
 *
 * `compare_and_set_rows` reads the document once (`json_populate_recordset` into `checkout_write`,
 * the flat rows of postgres-records.ts `writeRow`), takes the same advisory locks in the same one
 * sorted order (`lock_ids`), then:
 *
 * - the writes of orders that gain no service order id (a notification's transition, a delivery's
 *   bookkeeping: nearly every write of a burst) are written by ONE update (`write_matching`): a
 *   write whose order's live revision is the one it expected, at most one per order (the first in
 *   the batch), the others answered `stale`, as the loop of migration 6 answered a second write of
 *   one revision; the update checks the revision again on the row it locks;
 * - the writes of an order one of whose writes carries a service order id not yet its own (an
 *   attempt's or a pay-out's first write: rare in a burst) go through migration 6's
 *   `compare_and_set_many` itself, in the batch's order: `taken` when another live order owns the
 *   id, the new ids indexed, and the batch's commit waits for the disk.
 *
 * And the table `checkouts` keeps half of each new page free (fillfactor 50), for the next versions.
 *
 * Migration 6's functions stay as they were: a 0.5.0 process beside a newer one during an upgrade
 * still calls them, on the same rows, under the same locks.
 */
export const rowFunctionsSql = (s: string) => `
-- Half of each new page of checkouts left free: a row (a record of about 2 KB) is updated twice per
-- notification, always with an indexed column changing, so its new version never fits beside the old
-- on a full page and the table grew by a page every few updates (41 MB for 3,000 orders in the
-- profile; 12 MB at 50, and about a fifth less of PostgreSQL's CPU per write): with room on the
-- page, the new version goes there and the page's dead versions are pruned in place.
ALTER TABLE ${s}.checkouts SET (fillfactor = 50);

CREATE TYPE ${s}.checkout_write AS (
  n integer, expected integer, service_ids text[],
  order_id text, revision integer, token_hash text, return_id text, retain_until bigint, next_delivery_at bigint,
  payment_state text, payment_updated_at bigint, payment_operator text, support_at bigint, record json
);

-- Writes each of p_writes whose order's live revision is the one it expected (at most one per
-- order: the first in the batch) and returns their n. Their ids must be locked (lock_ids) already.
CREATE FUNCTION ${s}.write_matching(p_writes ${s}.checkout_write[], p_at bigint) RETURNS SETOF integer LANGUAGE sql AS $$
  UPDATE ${s}.checkouts c SET revision = w.revision, token_hash = w.token_hash, return_id = w.return_id, retain_until = w.retain_until,
      next_delivery_at = w.next_delivery_at, payment_state = w.payment_state, payment_updated_at = w.payment_updated_at,
      payment_operator = w.payment_operator, support_at = w.support_at, record = w.record
    FROM (SELECT DISTINCT ON (w.order_id) w.* FROM unnest(p_writes) w
            JOIN ${s}.checkouts live ON live.order_id = w.order_id AND live.revision = w.expected AND live.retain_until > p_at
            ORDER BY w.order_id, w.n) w
    WHERE c.order_id = w.order_id AND c.revision = w.expected AND c.retain_until > p_at
    RETURNING w.n;
$$;

CREATE FUNCTION ${s}.compare_and_set_rows(p_writes json, p_at bigint)
  RETURNS TABLE (write_n integer, outcome text, taken_id text, taken_owner text) LANGUAGE plpgsql AS $$
DECLARE
  v_writes ${s}.checkout_write[] := ARRAY(SELECT w FROM json_populate_recordset(null::${s}.checkout_write, p_writes) w);
  v_claiming text[];
BEGIN
  PERFORM ${s}.lock_ids(ARRAY(SELECT x.order_id FROM unnest(v_writes) x UNION ALL SELECT unnest(x.service_ids) FROM unnest(v_writes) x));
  -- Orders one of whose writes carries a service order id not yet theirs.
  v_claiming := ARRAY(SELECT DISTINCT x.order_id FROM unnest(v_writes) x
    WHERE NOT (coalesce(x.service_ids, '{}') <@ ARRAY(SELECT i.service_order_id FROM ${s}.service_order_ids i WHERE i.order_id = x.order_id)));
  RETURN QUERY
    WITH written AS (SELECT ${s}.write_matching(ARRAY(SELECT x FROM unnest(v_writes) x WHERE x.order_id <> ALL (v_claiming)), p_at) AS n)
    SELECT x.n, CASE WHEN written.n IS NULL THEN 'stale' ELSE 'written' END, null::text, null::text
      FROM unnest(v_writes) x LEFT JOIN written ON written.n = x.n WHERE x.order_id <> ALL (v_claiming);
  IF cardinality(v_claiming) = 0 THEN
    PERFORM set_config('synchronous_commit', 'off', true);
    RETURN;
  END IF;
  -- Those orders' writes, in the batch's order, through migration 6's function (the same locks,
  -- already held, and the same rules; it also decides whether the commit waits for the disk):
  -- rare, a payment attempt's or a pay-out's first write. Its rows are read from to_json of each
  -- write (json_populate_record ignores the members that are not columns).
  RETURN QUERY
    WITH claiming AS (SELECT x.*, row_number() OVER (ORDER BY x.n)::integer AS k FROM unnest(v_writes) x WHERE x.order_id = ANY (v_claiming)),
      done AS (SELECT * FROM ${s}.compare_and_set_many(
        (SELECT json_agg(json_build_object('orderId', c.order_id, 'expected', c.expected, 'serviceIds', coalesce(c.service_ids, '{}'), 'row', to_json(c)) ORDER BY c.k) FROM claiming c), p_at))
    SELECT c.n, done.outcome, done.taken_id, done.taken_owner FROM done JOIN claiming c ON c.k = done.write_n;
END $$;
`;
