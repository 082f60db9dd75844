-- Custom SQL migration file, put your code below! --
-- Written history rows must name a lead, users and a run that exist: one query per reference per
-- statement (distinct values first: a run's rows share a few agents and one run).
CREATE OR REPLACE FUNCTION lead_history_check_refs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_bad text;
BEGIN
  SELECT 'lead_id ' || h.lead_id INTO v_bad FROM new_history h
   WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = h.lead_id) LIMIT 1;
  IF v_bad IS NULL THEN
    SELECT 'user ' || r.id INTO v_bad
      FROM (SELECT agent_id AS id FROM new_history WHERE agent_id IS NOT NULL
            UNION SELECT actor_id FROM new_history WHERE actor_id IS NOT NULL
            UNION SELECT from_agent_id FROM new_history WHERE from_agent_id IS NOT NULL) r
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
CREATE OR REPLACE TRIGGER lead_history_check_insert AFTER INSERT ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_check_refs();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER lead_history_check_update AFTER UPDATE ON lead_history
  REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION lead_history_check_refs();
--> statement-breakpoint
-- Deleted users: what ON DELETE SET NULL did for leads.agent_id, lead_history.actor_id,
-- lead_history.agent_id and lead_history.from_agent_id (users are not deleted by the application:
-- an admin disables them).
CREATE OR REPLACE FUNCTION users_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET agent_id = NULL WHERE agent_id IN (SELECT id FROM old_users);
  UPDATE lead_history SET actor_id = NULL WHERE actor_id IN (SELECT id FROM old_users);
  UPDATE lead_history SET agent_id = NULL WHERE agent_id IN (SELECT id FROM old_users);
  UPDATE lead_history SET from_agent_id = NULL WHERE from_agent_id IN (SELECT id FROM old_users);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER users_after_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_users
  FOR EACH STATEMENT EXECUTE FUNCTION users_after_delete();
