-- The background indexer's step: puts up to `max_leads` ids of the queued ranges into
-- lead_search and answers how many ids it covered (0: nothing left). Each call is its own
-- transaction; SKIP LOCKED lets several app processes share the queue.
CREATE OR REPLACE FUNCTION lead_search_catch_up(max_leads integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  q record;
  upto bigint;
  done bigint := 0;
BEGIN
  FOR q IN SELECT id, first_id, last_id FROM lead_search_queue ORDER BY id
           FOR UPDATE SKIP LOCKED LOOP
    upto := least(q.last_id, q.first_id + (max_leads - done) - 1);
    INSERT INTO lead_search (lead_id, doc)
    SELECT id, lead_search_doc(first_name, last_name, phone, email) FROM leads
    WHERE id BETWEEN q.first_id AND upto
    ON CONFLICT (lead_id) DO NOTHING;
    done := done + (upto - q.first_id + 1);
    IF upto >= q.last_id THEN
      DELETE FROM lead_search_queue WHERE id = q.id;
    ELSE
      UPDATE lead_search_queue SET first_id = upto + 1 WHERE id = q.id;
    END IF;
    EXIT WHEN done >= max_leads;
  END LOOP;
  -- Fresh entries wait in the GIN index's pending list, which every search reads in full (and
  -- which makes the planner shy of the index): once the queue is empty, fold them in.
  IF done > 0 AND NOT EXISTS (SELECT 1 FROM lead_search_queue) THEN
    PERFORM gin_clean_pending_list('lead_search_doc_trgm'::regclass);
  END IF;
  RETURN done;
END $$;
