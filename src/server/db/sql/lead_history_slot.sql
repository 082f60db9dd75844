-- Assignment history rows by 15-minute slot (analytics' assignments per business day).
CREATE OR REPLACE FUNCTION lead_history_slot(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00')
$$;
