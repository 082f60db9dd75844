-- Deleted assignment runs: what ON DELETE NO ACTION of lead_history.assignment_run_id did (runs
-- are never deleted by the application).
CREATE OR REPLACE FUNCTION assignment_runs_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_run integer;
BEGIN
  SELECT h.assignment_run_id INTO v_run FROM lead_history h
   WHERE h.assignment_run_id IN (SELECT id FROM old_runs) LIMIT 1;
  IF v_run IS NOT NULL THEN
    RAISE EXCEPTION 'assignment run % is still referenced from lead_history', v_run
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER assignment_runs_after_delete AFTER DELETE ON assignment_runs
  REFERENCING OLD TABLE AS old_runs
  FOR EACH STATEMENT EXECUTE FUNCTION assignment_runs_after_delete();
