-- The search document: the four searched fields, lowercased (ILIKE lowercases both sides, so
-- `doc LIKE lower(pattern)` is the same test, without lowering every row at query time), joined by
-- U+001F so that a search without that character matches within one field only.
CREATE OR REPLACE FUNCTION lead_search_doc(first_name text, last_name text, phone text, email text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce(first_name, '') || E'\x1f' || coalesce(last_name, '') || E'\x1f' ||
               coalesce(phone, '') || E'\x1f' || coalesce(email, ''))
$$;
