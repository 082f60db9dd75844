/**
 * The intake's lead-quality statements (docs/domain.md, Lead quality; docs/decisions/018): what refuses one lead
 * (the do-not-call list, a repeated externalId, a lead with the same phone or email within the
 * duplicate window), and the refusals recorded for the sources' analytics.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryPreparedRows } from '../../db/client';
import { IMPORT_GATE_LOCK } from '../leads/lead-life.service';

/** Advisory lock classes ('LFQP', 'LFQE'): one request at a time per phone, per email. */
const PHONE_LOCK = 0x4c465150;
const EMAIL_LOCK = 0x4c465145;

/**
 * Takes the transaction locks of a phone and an email: an intake request holds them from its
 * check to its commit, and a consumer's deletion while it reads and anonymizes their leads.
 */
export async function lockContacts(
  tx: Db,
  contact: { phone: string | null; email: string | null },
): Promise<void> {
  await queryPreparedRows(
    tx,
    sql`select pg_advisory_xact_lock(${PHONE_LOCK}::int, hashtext(${contact.phone}::text))
         where ${contact.phone}::text is not null
        union all
        select pg_advisory_xact_lock(${EMAIL_LOCK}::int, hashtext(${contact.email}::text))
         where ${contact.email}::text is not null`,
  );
}

export type QualityHit =
  | { kind: 'externalId'; id: number }
  | { kind: 'DNC'; id: null }
  | { kind: 'SUPPRESSED'; id: null }
  | { kind: 'phone' | 'email'; id: number };

/**
 * The first thing that refuses the lead, in this order: its source already sent its externalId
 * (idempotent: not a refusal), the consumer asked to be deleted (their phone's or email's hash is
 * kept: docs/domain.md, Consumer deletion and retention), its phone is on the do-not-call list, a lead with its phone or
 * email was received within `windowDays`. Takes the phone's and email's transaction locks first,
 * so that two requests carrying the same number cannot both find nothing.
 */
export async function findQualityHit(
  tx: Db,
  lead: { phone: string | null; email: string | null; externalId: string | null },
  sourceId: number,
  windowDays: number,
): Promise<QualityHit | null> {
  if (lead.phone === null && lead.email === null && lead.externalId === null) return null;
  // its own statement: a statement's snapshot is taken before it waits for a lock, so the
  // check below must start after the lock is held to see what the previous holder committed
  await lockContacts(tx, lead);
  const [row] = await queryPreparedRows<{ kind: QualityHit['kind']; id: string | null }>(
    tx,
    sql`(select 'externalId' as kind, x.id::text as id from leads x
          where ${lead.externalId}::text is not null
            and coalesce(x.source_id, 0) = ${sourceId}::int
            and x.external_id = ${lead.externalId}::text limit 1)
        union all
        (select 'SUPPRESSED', null from suppressed_contacts s, privacy_key k
          where s.hash in (contact_hash(k.key, 'phone', ${lead.phone}::text),
                           contact_hash(k.key, 'email', ${lead.email}::text)))
        union all
        (select 'DNC', null from dnc_numbers n where n.phone = ${lead.phone}::text)
        union all
        (select 'phone', x.id::text from leads x
          where x.phone = ${lead.phone}::text
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1)
        union all
        (select 'email', x.id::text from leads x
          where x.email = ${lead.email}::text
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1)
        limit 1`,
  );
  if (!row) return null;
  return { kind: row.kind, id: row.id === null ? null : Number(row.id) } as QualityHit;
}

/**
 * After the lead is written: waits for an import that is ending (its gate, held shared from here
 * to this transaction's end), then looks again for a lead with the same phone or email, which
 * can only be one that import committed meanwhile (the first check could not see it). The
 * import, ending after this, finds this lead instead and drops its own row
 * (LeadGroupWriter.finish).
 */
export async function findLeadImportedMeanwhile(
  tx: Db,
  lead: { phone: string | null; email: string | null },
  leadId: number,
  windowDays: number,
): Promise<boolean> {
  if (lead.phone === null && lead.email === null) return false;
  await queryPreparedRows(tx, sql`select pg_advisory_xact_lock_shared(${IMPORT_GATE_LOCK}::int)`);
  const [row] = await queryPreparedRows<{ id: number }>(
    tx,
    sql`(select x.id from leads x
          where x.phone = ${lead.phone}::text and x.id <> ${leadId}
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1)
        union all
        (select x.id from leads x
          where x.email = ${lead.email}::text and x.id <> ${leadId}
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1)
        limit 1`,
  );
  return row !== undefined;
}
