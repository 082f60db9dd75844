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
  )
  DELETE FROM lead_search s USING old_leads o WHERE s.lead_id = o.id;
  DELETE FROM lead_history h USING old_leads o WHERE h.lead_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER leads_after_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_delete();
