import { eq } from 'drizzle-orm';
import type { AccountApproval, LeadStatus, UserRole } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { leads, users } from '../../db/schema';

export type LeadRow = typeof leads.$inferSelect;

export async function findUserRole(
  db: Db,
  userId: number,
): Promise<{ role: UserRole; approval: AccountApproval } | null> {
  const [row] = await db
    .select({ role: users.role, approval: users.approval })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function findLeadStatus(db: Db, leadId: number): Promise<LeadStatus | null> {
  const [row] = await db
    .select({ status: leads.status })
    .from(leads)
    .where(eq(leads.id, leadId))
    .limit(1);
  return row?.status ?? null;
}
