-- See lead_history_after_insert.
CREATE OR REPLACE FUNCTION lead_history_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE assignment_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER lead_history_after_truncate AFTER TRUNCATE ON lead_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_truncate();
