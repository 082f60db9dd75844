CREATE TABLE "agent_day_counts" (
	"day" date NOT NULL,
	"agent_id" integer NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "agent_day_counts_day_agent_idx" ON "agent_day_counts" USING btree ("day","agent_id","n");
--> statement-breakpoint
-- the counts of the leads already assigned
INSERT INTO "agent_day_counts" ("day", "agent_id", "n")
SELECT assigned_on, agent_id, count(*) FROM leads
 WHERE agent_id IS NOT NULL AND assigned_on IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
-- Inserted leads: counters (agent_day_counts too), the agent reference check, and the search document (at once for a
-- small statement; a large one queues its id range for the background indexer).
CREATE OR REPLACE FUNCTION leads_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ), q AS (
    INSERT INTO agent_day_counts (day, agent_id, n)
    SELECT assigned_on, agent_id, count(*) FROM new_leads
     WHERE agent_id IS NOT NULL AND assigned_on IS NOT NULL GROUP BY 1, 2
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
CREATE OR REPLACE TRIGGER leads_after_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_insert();
--> statement-breakpoint
-- Updated leads: the counters move by (new rows) - (old rows) (agent_day_counts by the
-- assignment's day and agent); a changed name, phone or email
-- changes the search document.
CREATE OR REPLACE FUNCTION leads_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ), q AS (
    -- by the assignment's day: a row whose agent and day did not change cancels out (a status
    -- change writes nothing here)
    INSERT INTO agent_day_counts (day, agent_id, n)
    SELECT day, agent_id, sum(n) FROM (
      SELECT assigned_on AS day, agent_id, count(*) AS n FROM new_leads
       WHERE agent_id IS NOT NULL AND assigned_on IS NOT NULL GROUP BY 1, 2
      UNION ALL
      SELECT assigned_on, agent_id, -count(*) FROM old_leads
       WHERE agent_id IS NOT NULL AND assigned_on IS NOT NULL GROUP BY 1, 2
    ) m GROUP BY 1, 2 HAVING sum(n) <> 0
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
CREATE OR REPLACE TRIGGER leads_after_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_leads NEW TABLE AS new_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_update();
--> statement-breakpoint
-- Deleted leads: the counters go down, and the leads' search documents and history go with them
-- (what ON DELETE CASCADE of lead_search.lead_id and lead_history.lead_id did).
CREATE OR REPLACE FUNCTION leads_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH g AS (
    SELECT category, status, agent_id, count(*) AS n FROM old_leads GROUP BY 1, 2, 3
  ), c AS (
    INSERT INTO lead_counts (category, status, has_agent, n)
    SELECT category, status, agent_id IS NOT NULL, -sum(n) FROM g GROUP BY 1, 2, 3
  ), a AS (
    INSERT INTO agent_lead_counts (agent_id, status, n)
    SELECT agent_id, status, -n FROM g WHERE agent_id IS NOT NULL
  ), q AS (
    INSERT INTO agent_day_counts (day, agent_id, n)
    SELECT assigned_on, agent_id, -count(*) FROM old_leads
     WHERE agent_id IS NOT NULL AND assigned_on IS NOT NULL GROUP BY 1, 2
  )
  DELETE FROM lead_search s USING old_leads o WHERE s.lead_id = o.id;
  DELETE FROM lead_history h USING old_leads o WHERE h.lead_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER leads_after_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_delete();
--> statement-breakpoint
-- Truncated leads: the counters and the search index start over.
CREATE OR REPLACE FUNCTION leads_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE lead_counts, agent_lead_counts, agent_day_counts, lead_search, lead_search_queue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER leads_after_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_truncate();
--> statement-breakpoint
-- Folds the delta rows of the counters into one row per key. Safe beside writers (their rows
-- are not visible until they commit, so they are left alone) and beside another compaction (a
-- row it deleted first is skipped here).
CREATE OR REPLACE FUNCTION compact_lead_counts() RETURNS void LANGUAGE sql AS $$
  WITH d AS (DELETE FROM lead_counts RETURNING category, status, has_agent, n)
  INSERT INTO lead_counts (category, status, has_agent, n)
  SELECT category, status, has_agent, sum(n) FROM d GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM agent_lead_counts RETURNING agent_id, status, n)
  INSERT INTO agent_lead_counts (agent_id, status, n)
  SELECT agent_id, status, sum(n) FROM d GROUP BY 1, 2 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM agent_day_counts RETURNING day, agent_id, n)
  INSERT INTO agent_day_counts (day, agent_id, n)
  SELECT day, agent_id, sum(n) FROM d GROUP BY 1, 2 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM assignment_counts RETURNING slot, n)
  INSERT INTO assignment_counts (slot, n)
  SELECT slot, sum(n) FROM d GROUP BY 1 HAVING sum(n) <> 0;
$$;
