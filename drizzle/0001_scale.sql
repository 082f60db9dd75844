-- Scale: the admin search index, counters kept by statement-level triggers, and the checks that
-- replace the per-row foreign keys of leads. See docs/decisions/007-scale.md.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "lead_search_doc_trgm" ON "lead_search" USING gin ("doc" gin_trgm_ops);
--> statement-breakpoint

-- The search document: the four searched fields, lowercased (ILIKE lowercases both sides, so
-- `doc LIKE lower(pattern)` is the same test, without lowering every row at query time), joined by
-- U+001F so that a search without that character matches within one field only.
CREATE FUNCTION lead_search_doc(first_name text, last_name text, phone text, email text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce(first_name, '') || E'\x1f' || coalesce(last_name, '') || E'\x1f' ||
               coalesce(phone, '') || E'\x1f' || coalesce(email, ''))
$$;
--> statement-breakpoint

-- Inserted leads: counters, the agent reference check, and the search document (at once for a
-- small statement; a large one queues its id range for the background indexer).
CREATE FUNCTION leads_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_total bigint;
  v_first bigint;
  v_last bigint;
  v_unknown integer;
BEGIN
  WITH g AS (
    SELECT category, status, agent_id, count(*) AS n, min(id) AS first_id, max(id) AS last_id
    FROM new_leads GROUP BY category, status, agent_id
  ), c AS (
    INSERT INTO lead_counts (category, status, has_agent, n)
    SELECT category, status, agent_id IS NOT NULL, sum(n) FROM g GROUP BY 1, 2, 3
  ), a AS (
    INSERT INTO agent_lead_counts (agent_id, status, n)
    SELECT agent_id, status, n FROM g WHERE agent_id IS NOT NULL
  )
  SELECT sum(g.n), min(g.first_id), max(g.last_id),
         min(g.agent_id) FILTER (
           WHERE g.agent_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = g.agent_id))
    INTO v_total, v_first, v_last, v_unknown
  FROM g;
  IF v_unknown IS NOT NULL THEN
    RAISE EXCEPTION 'lead agent_id % is not a user', v_unknown
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF v_total IS NULL THEN
    RETURN NULL;
  ELSIF v_total <= 1000 THEN
    INSERT INTO lead_search (lead_id, doc)
    SELECT id, lead_search_doc(first_name, last_name, phone, email) FROM new_leads;
  ELSE
    INSERT INTO lead_search_queue (first_id, last_id) VALUES (v_first, v_last);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_after_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_insert();
--> statement-breakpoint

-- Updated leads: the counters move by (new rows) - (old rows); a changed name, phone or email
-- changes the search document.
CREATE FUNCTION leads_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_unknown integer;
BEGIN
  WITH d AS (
    SELECT category, status, agent_id, count(*) AS n FROM new_leads GROUP BY 1, 2, 3
    UNION ALL
    SELECT category, status, agent_id, -count(*) FROM old_leads GROUP BY 1, 2, 3
  ), g AS (
    SELECT category, status, agent_id, sum(n) AS n FROM d GROUP BY 1, 2, 3 HAVING sum(n) <> 0
  ), c AS (
    INSERT INTO lead_counts (category, status, has_agent, n)
    SELECT category, status, agent_id IS NOT NULL, sum(n) FROM g GROUP BY 1, 2, 3
    HAVING sum(n) <> 0
  ), a AS (
    INSERT INTO agent_lead_counts (agent_id, status, n)
    SELECT agent_id, status, sum(n) FROM g WHERE agent_id IS NOT NULL GROUP BY 1, 2
    HAVING sum(n) <> 0
  )
  SELECT min(g.agent_id) FILTER (
           WHERE g.n > 0 AND g.agent_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = g.agent_id))
    INTO v_unknown
  FROM g;
  IF v_unknown IS NOT NULL THEN
    RAISE EXCEPTION 'lead agent_id % is not a user', v_unknown
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  UPDATE lead_search s
     SET doc = lead_search_doc(n.first_name, n.last_name, n.phone, n.email)
    FROM new_leads n JOIN old_leads o ON o.id = n.id
   WHERE s.lead_id = n.id
     AND (n.first_name, n.last_name, n.phone, n.email)
         IS DISTINCT FROM (o.first_name, o.last_name, o.phone, o.email);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_after_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_leads NEW TABLE AS new_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_update();
--> statement-breakpoint

CREATE FUNCTION leads_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH g AS (
    SELECT category, status, agent_id, count(*) AS n FROM old_leads GROUP BY 1, 2, 3
  ), c AS (
    INSERT INTO lead_counts (category, status, has_agent, n)
    SELECT category, status, agent_id IS NOT NULL, -sum(n) FROM g GROUP BY 1, 2, 3
  ), a AS (
    INSERT INTO agent_lead_counts (agent_id, status, n)
    SELECT agent_id, status, -n FROM g WHERE agent_id IS NOT NULL
  )
  DELETE FROM lead_search s USING old_leads o WHERE s.lead_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_after_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_delete();
--> statement-breakpoint

CREATE FUNCTION leads_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE lead_counts, agent_lead_counts, lead_search, lead_search_queue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_after_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_truncate();
--> statement-breakpoint

-- What ON DELETE SET NULL did for leads.agent_id (users are not deleted by the application).
CREATE FUNCTION users_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET agent_id = NULL WHERE agent_id IN (SELECT id FROM old_users);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_after_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_users
  FOR EACH STATEMENT EXECUTE FUNCTION users_after_delete();
--> statement-breakpoint

-- Assignment history rows by 15-minute slot (analytics' assignments per business day).
CREATE FUNCTION lead_history_slot(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00')
$$;
--> statement-breakpoint
CREATE FUNCTION lead_history_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO assignment_counts (slot, n)
  SELECT lead_history_slot(created_at), count(*) FROM new_history
  WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_history_after_insert AFTER INSERT ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_insert();
--> statement-breakpoint
CREATE FUNCTION lead_history_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO assignment_counts (slot, n)
  SELECT slot, sum(n) FROM (
    SELECT lead_history_slot(created_at) AS slot, 1 AS n FROM new_history
    WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')
    UNION ALL
    SELECT lead_history_slot(created_at), -1 FROM old_history
    WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')
  ) d GROUP BY slot HAVING sum(n) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_history_after_update AFTER UPDATE ON lead_history
  REFERENCING OLD TABLE AS old_history NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_update();
--> statement-breakpoint
CREATE FUNCTION lead_history_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO assignment_counts (slot, n)
  SELECT lead_history_slot(created_at), -count(*) FROM old_history
  WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_history_after_delete AFTER DELETE ON lead_history
  REFERENCING OLD TABLE AS old_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_delete();
--> statement-breakpoint
CREATE FUNCTION lead_history_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE assignment_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_history_after_truncate AFTER TRUNCATE ON lead_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_truncate();
--> statement-breakpoint

-- Folds the delta rows of the counters into one row per key. Safe beside writers (their rows
-- are not visible until they commit, so they are left alone) and beside another compaction (a
-- row it deleted first is skipped here).
CREATE FUNCTION compact_lead_counts() RETURNS void LANGUAGE sql AS $$
  WITH d AS (DELETE FROM lead_counts RETURNING category, status, has_agent, n)
  INSERT INTO lead_counts (category, status, has_agent, n)
  SELECT category, status, has_agent, sum(n) FROM d GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM agent_lead_counts RETURNING agent_id, status, n)
  INSERT INTO agent_lead_counts (agent_id, status, n)
  SELECT agent_id, status, sum(n) FROM d GROUP BY 1, 2 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM assignment_counts RETURNING slot, n)
  INSERT INTO assignment_counts (slot, n)
  SELECT slot, sum(n) FROM d GROUP BY 1 HAVING sum(n) <> 0;
$$;
--> statement-breakpoint

-- The background indexer's step: puts up to `max_leads` ids of the queued ranges into
-- lead_search and answers how many ids it covered (0: nothing left). Each call is its own
-- transaction; SKIP LOCKED lets several app processes share the queue.
CREATE FUNCTION lead_search_catch_up(max_leads integer) RETURNS bigint LANGUAGE plpgsql AS $$
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
--> statement-breakpoint

-- A database that already holds leads starts with its figures and a queue covering them.
INSERT INTO lead_counts (category, status, has_agent, n)
SELECT category, status, agent_id IS NOT NULL, count(*) FROM leads GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO agent_lead_counts (agent_id, status, n)
SELECT agent_id, status, count(*) FROM leads WHERE agent_id IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO assignment_counts (slot, n)
SELECT lead_history_slot(created_at), count(*) FROM lead_history
WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') GROUP BY 1;
--> statement-breakpoint
INSERT INTO lead_search_queue (first_id, last_id)
SELECT min(id), max(id) FROM leads HAVING count(*) > 0;
