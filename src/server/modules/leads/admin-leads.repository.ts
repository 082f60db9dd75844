import { and, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';

type LeadRow = typeof leads.$inferSelect;

export const DEFAULT_PAGE_SIZE = 50;

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    city: row.city,
    state: row.state,
    age: row.age,
    category: row.category,
    status: row.status,
    externalId: row.externalId,
    agentId: row.agentId,
    assignedAt: row.assignedAt ? row.assignedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `%`, `_` and `\` typed by the admin are matched literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The spec's search: a case-insensitive substring of first name, last name, phone or email.
 */
function leadFilter(query: LeadListQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(leads.status, query.status));
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(leads.firstName, pattern),
        ilike(leads.lastName, pattern),
        ilike(leads.phone, pattern),
        ilike(leads.email, pattern),
      ) as SQL,
    );
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** One page of leads, newest first (the order the created_at indexes serve), and the total. */
export async function listLeadsPage(
  db: Db,
  query: LeadListQuery,
): Promise<{ leads: Lead[]; total: number }> {
  const where = leadFilter(query);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(where)
      // NULLS LAST as in the indexes (a plain DESC means NULLS FIRST and would not use them)
      .orderBy(sql`${leads.createdAt} desc nulls last`, sql`${leads.id} desc nulls last`)
      .limit(query.limit ?? DEFAULT_PAGE_SIZE)
      .offset(query.offset ?? 0),
    db.select({ total: sql<number>`count(*)::int` }).from(leads).where(where),
  ]);
  return { leads: rows.map(toLead), total };
}
