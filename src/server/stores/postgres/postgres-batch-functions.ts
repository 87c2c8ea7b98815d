/**
 * Migration 6: the racing writes of many callers in one round trip (issue 43, third part), for the
 * batches that postgres-batched-calls.ts gathers while the previous one is under way: a burst of
 * notifications applied a few hundred at a time costs a handful of round trips per batch, not nine
 * per notification.
 *
 * `compare_and_set_many` is migration 4's `compare_and_set` (postgres-write-functions.ts) for each
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
