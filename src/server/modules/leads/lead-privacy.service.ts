/**
 * The leads' part of a consumer's deletion and of the retention limit (docs/domain.md, Consumer
 * deletion and retention): which leads are the consumer's, which are past the limit, and the
 * anonymizing itself. The privacy module asks for these in its transaction.
 */
import { sql } from 'drizzle-orm';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';

/** Every lead with this phone (E.164) or this email (lowercased), oldest first, locked. */
export async function consumerLeadIds(
  tx: Db,
  contact: { phone: string | null; email: string | null },
): Promise<number[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id::text from leads
         where (phone = ${contact.phone}::text or email = ${contact.email}::text)
         order by id for update`,
  );
  return rows.map((r) => Number(r.id));
}

/** Up to `limit` leads received before `cutoff` and not yet anonymized, locked (others skip them). */
export async function leadIdsReceivedBefore(
  tx: Db,
  cutoff: Date,
  limit: number,
): Promise<number[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id::text from leads
         where created_at < ${cutoff.toISOString()}::timestamptz and anonymized_at is null
         order by id limit ${limit} for update skip locked`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Removes the consumer from these leads: name, phone, email, city, ZIP, the vendor's id and the
 * consent's text, certificate, Jornaya id and address. The state, age, category, status, agent,
 * dates and every count stay, so reports and quotas do not change. Answers how many it changed.
 */
export async function anonymizeLeads(tx: Db, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update leads set first_name = null, last_name = null, phone = null, email = null,
          city = '', zip = null, external_id = null, consent_text = null,
          trusted_form_cert_url = null, jornaya_lead_id = null, consent_ip = null,
          anonymized_at = now()
        where id = any(${intArrayLiteral(ids, 'bigint')}) and anonymized_at is null
        returning id::text`,
  );
  return rows.length;
}
