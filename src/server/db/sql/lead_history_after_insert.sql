-- Assignment history rows counted per 15-minute slot in assignment_counts (analytics sums them
-- per business day); the update, delete and truncate triggers keep the count right.
CREATE OR REPLACE FUNCTION lead_history_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO assignment_counts (slot, n)
  SELECT lead_history_slot(created_at), count(*) FROM new_history
  WHERE kind IN ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER lead_history_after_insert AFTER INSERT ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_insert();
