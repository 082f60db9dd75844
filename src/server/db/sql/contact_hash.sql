-- The keyed hash a consumer's deletion keeps of their phone (E.164) or email (lowercased) and
-- checks at import and intake (docs/domain.md, Consumer deletion and retention): SHA-256 of the
-- key, the kind and the contact, in hex. A plain SQL expression, so the planner inlines it.
CREATE OR REPLACE FUNCTION contact_hash(key text, kind text, contact text)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(key || '|' || kind || ':' || contact, 'UTF8')), 'hex')
$$;
