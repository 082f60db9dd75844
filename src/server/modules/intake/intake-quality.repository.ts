/**
 * The intake's lead-quality statements (docs/domain.md, Lead quality; docs/decisions/018): what refuses one lead
 * (the do-not-call list, a repeated externalId, a lead with the same phone or email within the
 * duplicate window), and the refusals recorded for the sources' analytics.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryPreparedRows } from '../../db/client';
import { QUOTAS_SHARED_LOCK_SQL } from '../assignment/quota.service';

/** Advisory lock classes ('LFQP', 'LFQE'): one request at a time per phone, per email. */
const PHONE_LOCK = 0x4c465150;
const EMAIL_LOCK = 0x4c465145;

/** The phone's and email's locks, as the rows of one statement (each a void value). */
function contactLocksSql(contact: { phone: string | null; email: string | null }) {
  return sql`select pg_advisory_xact_lock(${PHONE_LOCK}::int, hashtext(${contact.phone}::text))
               where ${contact.phone}::text is not null
              union all
              select pg_advisory_xact_lock(${EMAIL_LOCK}::int, hashtext(${contact.email}::text))
               where ${contact.email}::text is not null`;
}

/**
 * Takes the transaction locks of a phone and an email: an intake request holds them from its
 * check to its commit, and a consumer's deletion while it reads and anonymizes their leads.
 */
export async function lockContacts(
  tx: Db,
  contact: { phone: string | null; email: string | null },
): Promise<void> {
  await queryPreparedRows(tx, contactLocksSql(contact));
}

/**
 * The locks an intake request takes before its check and holds to its commit, in one statement
 * and in this order: the day's quotas shared (an engine run in flight ends first, so the run's
 * read of the quotas and its write never see an intake assignment land in between), then the
 * lead's phone and email (two requests carrying the same number cannot both find nothing). The
 * check runs in the next statement, whose snapshot is taken after both waits. (The import gate
 * comes later, with the lead's insert: insertReceivedLead.)
 */
async function lockForIntake(
  tx: Db,
  contact: { phone: string | null; email: string | null },
): Promise<void> {
  await queryPreparedRows(
    tx,
    sql`select ${QUOTAS_SHARED_LOCK_SQL}
        union all
        ${contactLocksSql(contact)}`,
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
 * email was received within `windowDays`. Takes the intake's locks first (lockForIntake), so that
 * two requests carrying the same number cannot both find nothing.
 */
export async function findQualityHit(
  tx: Db,
  lead: { phone: string | null; email: string | null; externalId: string | null },
  sourceId: number,
  windowDays: number,
): Promise<QualityHit | null> {
  // its own statement: a statement's snapshot is taken before it waits for a lock, so the
  // check below must start after the lock is held to see what the previous holder committed;
  // taken for every lead, since the quota lock is among them
  await lockForIntake(tx, lead);
  if (lead.phone === null && lead.email === null && lead.externalId === null) return null;
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
 * After the lead is written (its insert took the import gate shared: an import that is ending
 * committed first, one that ends later waits for this request), whether a lead with the same
 * phone or email exists besides it, which can only be one that import committed meanwhile (the
 * first check could not see it). The import, ending after this, finds this lead instead and drops
 * its own row (LeadGroupWriter.finish). A boolean expression, asked by the pick's own statement
 * (intake.repository's pickAgent), whose snapshot is taken after the insert's.
 */
export function importedMeanwhileSql(
  lead: { phone: string | null; email: string | null },
  leadId: number,
  windowDays: number,
): SQL {
  return sql`exists (
        (select 1 from leads x
          where x.phone = ${lead.phone}::text and x.id <> ${leadId}::bigint
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1)
        union all
        (select 1 from leads x
          where x.email = ${lead.email}::text and x.id <> ${leadId}::bigint
            and x.created_at > now() - make_interval(days => ${windowDays}::int) limit 1))`;
}
