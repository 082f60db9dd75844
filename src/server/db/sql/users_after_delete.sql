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
