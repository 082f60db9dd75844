-- Inserted leads: counters, the agent reference check, and the search document (at once for a
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
