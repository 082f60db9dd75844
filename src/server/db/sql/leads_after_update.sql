-- Updated leads: the counters move by (new rows) - (old rows); a changed name, phone or email
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
