/** Statements on `sources` (docs/domain.md, Sources and the intake API). Sources are deactivated, never deleted. */
import { sql } from 'drizzle-orm';
import type { Source, SourceBody } from '../../../shared/contracts/sources';
import type { ConsentVerification } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';

/**
 * A source with its lead count (all time) and keys not revoked. The count reads the leads of that
 * source by leads_source_idx (only leads with a source are in it): a range per source, whatever
 * share of the leads came without one. (Counted through coalesce(source_id, 0), the planner
 * judged the value by the leads without a source, and scanned every lead when most had none:
 * 150 ms a source at 1,000,000 leads.)
 */
const SOURCE_COLUMNS = sql`s.id, s.name, s.cost_per_lead_cents as "costPerLeadCents", s.active,
  s.consent_verification as "consentVerification",
  to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
  (select count(*)::int from leads l where l.source_id = s.id) as "leads",
  (select count(*)::int from api_keys k where k.source_id = s.id and k.revoked_at is null)
    as "activeKeys"`;

export function listSourceRows(db: Db): Promise<Source[]> {
  return queryRows<Source>(
    db,
    sql`select ${SOURCE_COLUMNS} from sources s order by lower(s.name), s.id`,
  );
}

export async function findSourceRow(db: Db, id: number): Promise<Source | null> {
  const [row] = await queryRows<Source>(
    db,
    sql`select ${SOURCE_COLUMNS} from sources s where s.id = ${id}`,
  );
  return row ?? null;
}

/** null when the name is taken (sources_name_key, case-insensitive) */
export async function insertSource(db: Db, body: SourceBody): Promise<number | null> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into sources (name, cost_per_lead_cents, active, consent_verification)
        values (${body.name}, ${body.costPerLeadCents}, ${body.active ?? true},
                ${body.consentVerification ?? 'NONE'}::consent_verification)
        on conflict ((lower(name))) do nothing
        returning id`,
  );
  return row?.id ?? null;
}

/** 'missing' when there is no such source, 'taken' when another source has the name. */
export async function updateSource(
  db: Db,
  id: number,
  changes: Partial<SourceBody>,
): Promise<'ok' | 'missing' | 'taken'> {
  try {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`update sources
             set name = coalesce(${changes.name ?? null}::text, name),
                 cost_per_lead_cents = coalesce(${changes.costPerLeadCents ?? null}::int, cost_per_lead_cents),
                 active = coalesce(${changes.active ?? null}::boolean, active),
                 consent_verification = coalesce(
                   ${changes.consentVerification ?? null}::consent_verification, consent_verification),
                 updated_at = now()
           where id = ${id}
       returning id`,
    );
    return rows.length === 0 ? 'missing' : 'ok';
  } catch (err) {
    // the driver's error, or the ORM's wrapping of it (its cause)
    const e = err as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) === '23505') return 'taken';
    throw err;
  }
}

/** Whether the source exists and takes leads. */
export async function findSourceActive(db: Db, id: number): Promise<boolean | null> {
  const [row] = await queryRows<{ active: boolean }>(
    db,
    sql`select active from sources where id = ${id}`,
  );
  return row ? row.active : null;
}

/** What a source asks of its leads' consent, and its name (the vendor TrustedForm is told). */
export async function findSourceConsentRow(
  db: Db,
  id: number,
): Promise<{ name: string; consentVerification: ConsentVerification } | null> {
  const [row] = await queryRows<{ name: string; consentVerification: ConsentVerification }>(
    db,
    sql`select name, consent_verification as "consentVerification" from sources where id = ${id}`,
  );
  return row ?? null;
}
