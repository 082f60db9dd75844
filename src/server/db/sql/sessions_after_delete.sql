-- A session ended (logout, a new login in its place, the expiry sweep, its user deleted): the
-- live event streams opened with it end at once, in whichever process holds them (the channel of
-- STREAMS_END_CHANNEL, modules/notifications/live-events.ts).
CREATE OR REPLACE FUNCTION sessions_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('live_streams_end',
                    json_build_object('userId', user_id, 'session', token_hash)::text)
     FROM old_sessions;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sessions_after_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_after_delete();
