-- See lead_history_after_insert.
CREATE OR REPLACE FUNCTION lead_history_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO assignment_counts (slot, n)
  SELECT lead_history_slot(created_at), -count(*) FROM old_history
  WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER lead_history_after_delete AFTER DELETE ON lead_history
  REFERENCING OLD TABLE AS old_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_delete();
