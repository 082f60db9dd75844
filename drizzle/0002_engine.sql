-- The engine's write: the per-row foreign keys of lead_history give way to statement-level checks
-- and triggers, as 0001 did for leads. A run writes one history row per lead it assigns; the four
-- RI triggers (each a query with a row lock, per row) were two thirds of that write's time on a
-- million-lead pool. See docs/decisions/005-assignment-engine.md.
ALTER TABLE "lead_history" DROP CONSTRAINT "lead_history_lead_id_leads_id_fk";
--> statement-breakpoint
ALTER TABLE "lead_history" DROP CONSTRAINT "lead_history_actor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "lead_history" DROP CONSTRAINT "lead_history_agent_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "lead_history" DROP CONSTRAINT "lead_history_assignment_run_id_assignment_runs_id_fk";
--> statement-breakpoint
-- Nothing reads history by day since analytics sums assignment_counts (0001).
DROP INDEX "lead_history_assigned_day_idx";
--> statement-breakpoint

-- Written history rows must name a lead, users and a run that exist: one query per reference per
-- statement (distinct values first: a run's rows share a few agents and one run).
CREATE FUNCTION lead_history_check_refs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_bad text;
BEGIN
  SELECT 'lead_id ' || h.lead_id INTO v_bad FROM new_history h
   WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = h.lead_id) LIMIT 1;
  IF v_bad IS NULL THEN
    SELECT 'user ' || r.id INTO v_bad
      FROM (SELECT agent_id AS id FROM new_history WHERE agent_id IS NOT NULL
            UNION SELECT actor_id FROM new_history WHERE actor_id IS NOT NULL) r
     WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.id) LIMIT 1;
  END IF;
  IF v_bad IS NULL THEN
    SELECT 'assignment_run_id ' || r.id INTO v_bad
      FROM (SELECT DISTINCT assignment_run_id AS id FROM new_history
             WHERE assignment_run_id IS NOT NULL) r
     WHERE NOT EXISTS (SELECT 1 FROM assignment_runs a WHERE a.id = r.id) LIMIT 1;
  END IF;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'lead_history % does not exist', v_bad USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_history_check_insert AFTER INSERT ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_check_refs();
--> statement-breakpoint
CREATE TRIGGER lead_history_check_update AFTER UPDATE ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_check_refs();
--> statement-breakpoint

-- ON DELETE CASCADE of lead_id.
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
-- ON DELETE SET NULL of actor_id and agent_id.
CREATE OR REPLACE FUNCTION users_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET agent_id = NULL WHERE agent_id IN (SELECT id FROM old_users);
  UPDATE lead_history SET actor_id = NULL WHERE actor_id IN (SELECT id FROM old_users);
  UPDATE lead_history SET agent_id = NULL WHERE agent_id IN (SELECT id FROM old_users);
  RETURN NULL;
END $$;
--> statement-breakpoint

-- ON DELETE NO ACTION of assignment_run_id (runs are never deleted by the application).
CREATE FUNCTION assignment_runs_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER assignment_runs_after_delete AFTER DELETE ON assignment_runs
  REFERENCING OLD TABLE AS old_runs
  FOR EACH STATEMENT EXECUTE FUNCTION assignment_runs_after_delete();
