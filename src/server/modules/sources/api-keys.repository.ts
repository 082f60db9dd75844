/** Statements on `api_keys`: stored as a sha256 hash, listed by prefix (docs/domain.md, Sources and the intake API). */
import { sql } from 'drizzle-orm';
import type { ApiKey } from '../../../shared/contracts/sources';
import type { ConsentVerification } from '../../../shared/domain';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const KEY_COLUMNS = sql`k.id, k.source_id as "sourceId", k.prefix,
  ${iso('k.created_at')} as "createdAt", ${iso('k.last_used_at')} as "lastUsedAt",
  ${iso('k.revoked_at')} as "revokedAt"`;

export function listKeyRows(db: Db, sourceId: number): Promise<ApiKey[]> {
  return queryRows<ApiKey>(
    db,
    sql`select ${KEY_COLUMNS} from api_keys k where k.source_id = ${sourceId}
         order by k.revoked_at is not null, k.created_at desc, k.id desc`,
  );
}

export async function insertKey(
  db: Db,
  input: { sourceId: number; keyHash: string; prefix: string },
): Promise<ApiKey> {
  const [row] = await queryRows<ApiKey>(
    db,
    sql`with k as (
          insert into api_keys (source_id, key_hash, prefix)
          values (${input.sourceId}, ${input.keyHash}, ${input.prefix})
          returning *)
        select ${KEY_COLUMNS} from k`,
  );
  return row;
}

/** Revokes a key of the source (a revoked key keeps its first revocation time); null if none. */
export async function revokeKeyRow(
  db: Db,
  sourceId: number,
  keyId: number,
): Promise<ApiKey | null> {
  const [row] = await queryRows<ApiKey>(
    db,
    sql`with k as (
          update api_keys set revoked_at = coalesce(revoked_at, now())
           where id = ${keyId} and source_id = ${sourceId}
          returning *)
        select ${KEY_COLUMNS} from k`,
  );
  return row ?? null;
}

export interface KeyHolder {
  keyId: number;
  sourceId: number;
  /** the key is not revoked and its source is active */
  usable: boolean;
}

/** A usable key's request counted against its rate, with what the intake reads of its source. */
export interface KeyRequest extends KeyHolder {
  /** the request is within the key's rate (false for a key that is not usable: nothing counted) */
  allowed: boolean;
  /** the source's name and consent rule (docs/domain.md, Consent verified at intake) */
  source: { name: string; consentVerification: ConsentVerification };
}

/**
 * The intake's first statement: the key with this hash, with its source's name and consent rule,
 * and for a usable key one request counted against its rate (decision 039), as a generic cell
 * rate: the key's theoretical arrival time moves on by 1/rate from itself or from now, whichever
 * is later, unless that puts it more than a second ahead (a second's worth of requests at once,
 * then the rate). An allowed request also records the key's use. One statement, in the
 * database, so every process counts together.
 */
export async function takeKeyRequest(
  db: Db,
  keyHash: string,
  perSecond: number,
): Promise<KeyRequest | null> {
  const step = 1 / perSecond;
  const [row] = await queryPreparedRows<
    KeyHolder & { allowed: boolean; name: string; consentVerification: ConsentVerification }
  >(
    db,
    sql`with k as (
          select k.id, k.source_id, (k.revoked_at is null and s.active) as usable,
                 s.name, s.consent_verification
            from api_keys k join sources s on s.id = k.source_id
           where k.key_hash = ${keyHash}),
        taken as (
          update api_keys
             set rate_tat = greatest(rate_tat, now()) + make_interval(secs => ${step}::float8),
                 last_used_at = now()
           where id = (select id from k where usable)
             and greatest(rate_tat, now()) + make_interval(secs => ${step}::float8)
                 <= now() + interval '1 second'
          returning id)
        select k.id as "keyId", k.source_id as "sourceId", k.usable,
               exists (select 1 from taken) as allowed,
               k.name, k.consent_verification as "consentVerification"
          from k`,
  );
  if (!row) return null;
  const { name, consentVerification, ...key } = row;
  return { ...key, source: { name, consentVerification } };
}
