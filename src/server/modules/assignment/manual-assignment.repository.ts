import { eq, sql } from 'drizzle-orm';
import type { AccountApproval, LeadCategory, LeadStatus, UserRole } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { leads, users } from '../../db/schema';
import { FIT_JOINS, type FitSqlParams, firstMisfitSql } from '../fit/fit-rule-sql.service';

export type LeadRow = typeof leads.$inferSelect;

export async function findUserRole(
  db: Db,
  userId: number,
): Promise<{
  role: UserRole;
  name: string;
  disabled: boolean;
  approval: AccountApproval;
} | null> {
  const [row] = await db
    .select({
      role: users.role,
      name: users.name,
      disabledAt: users.disabledAt,
      approval: users.approval,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row
    ? { role: row.role, name: row.name, disabled: row.disabledAt !== null, approval: row.approval }
    : null;
}

export async function findLeadStatus(db: Db, leadId: number): Promise<LeadStatus | null> {
  const [row] = await db
    .select({ status: leads.status })
    .from(leads)
    .where(eq(leads.id, leadId))
    .limit(1);
  return row?.status ?? null;
}

/** What an assignment by hand needs to know of the lead: who holds it, and a return pending. */
export interface LeadToAssign {
  status: LeadStatus;
  agentId: number | null;
  firstName: string | null;
  lastName: string | null;
  city: string;
  state: string;
  age: number;
  category: LeadCategory;
  returnPending: boolean;
}

export async function findLeadToAssign(db: Db, leadId: number): Promise<LeadToAssign | null> {
  const [row] = await queryRows<LeadToAssign>(
    db,
    sql`select l.status::text as status, l.agent_id as "agentId", l.first_name as "firstName",
               l.last_name as "lastName", l.city, l.state, l.age, l.category::text as category,
               exists (select 1 from lead_returns r
                        where r.lead_id = l.id and r.status = 'PENDING') as "returnPending"
          from leads l where l.id = ${leadId}`,
  );
  return row ?? null;
}

/**
 * The index in MISFIT_REASONS of the first condition of the fit rule (quota aside) the agent fails
 * for the lead; null when the agent fits.
 */
export async function firstMisfitOfAgent(
  db: Db,
  agentId: number,
  params: FitSqlParams,
): Promise<number | null> {
  const [row] = await queryRows<{ reason: number | null }>(
    db,
    sql`select ${firstMisfitSql(params)} as reason
          from users u ${FIT_JOINS}
         where u.id = ${agentId}`,
  );
  return row?.reason ?? null;
}
