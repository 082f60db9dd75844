-- Folds the delta rows of the counters into one row per key. Safe beside writers (their rows
-- are not visible until they commit, so they are left alone) and beside another compaction (a
-- row it deleted first is skipped here).
CREATE OR REPLACE FUNCTION compact_lead_counts() RETURNS void LANGUAGE sql AS $$
  WITH d AS (DELETE FROM lead_counts RETURNING category, status, has_agent, n)
  INSERT INTO lead_counts (category, status, has_agent, n)
  SELECT category, status, has_agent, sum(n) FROM d GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM agent_lead_counts RETURNING agent_id, status, n)
  INSERT INTO agent_lead_counts (agent_id, status, n)
  SELECT agent_id, status, sum(n) FROM d GROUP BY 1, 2 HAVING sum(n) <> 0;
  WITH d AS (DELETE FROM assignment_counts RETURNING slot, n)
  INSERT INTO assignment_counts (slot, n)
  SELECT slot, sum(n) FROM d GROUP BY 1 HAVING sum(n) <> 0;
$$;
