-- Truncated leads: the counters and the search index start over.
CREATE OR REPLACE FUNCTION leads_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE lead_counts, agent_lead_counts, lead_search, lead_search_queue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER leads_after_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_after_truncate();
