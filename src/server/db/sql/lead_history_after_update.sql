-- See lead_history_after_insert.
CREATE OR REPLACE FUNCTION lead_history_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER lead_history_after_update AFTER UPDATE ON lead_history
  REFERENCING OLD TABLE AS old_history NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_after_update();
