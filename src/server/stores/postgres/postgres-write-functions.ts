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
