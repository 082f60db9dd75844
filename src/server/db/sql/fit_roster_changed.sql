-- A statement wrote what the fit rule reads of an agent (decision 043): one row in
-- fit_roster_changes, whose weights' sum is the version the web processes compare their copy
-- of the agents' fit columns with. Inserting takes no lock another writer waits for.
CREATE OR REPLACE FUNCTION fit_roster_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fit_roster_changes DEFAULT VALUES;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER subscriptions_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER packages_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON packages
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER preferences_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON preferences
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER agencies_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agencies
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER agency_members_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agency_members
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER agent_schedules_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agent_schedules
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER agent_caps_fit_roster_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agent_caps
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
--> statement-breakpoint
-- users: only the columns the rule reads (a login or a new password changes no agent's fit)
CREATE OR REPLACE TRIGGER users_fit_roster_changed
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF role, disabled_at, approval, paused_at, paused_until, licensed_states ON users
  FOR EACH STATEMENT EXECUTE FUNCTION fit_roster_changed();
