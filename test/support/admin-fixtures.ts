import { expect } from 'vitest';
import { leads, packages, subscriptions } from '../../src/server/db/schema';
import type { SubscriptionStatus } from '../../src/shared/domain';
import { loginAdmin, type TestContext } from './test-app';

/** Rows written straight to the database for the admin read-outs' tests. */
let seq = 0;
export async function createPackage(
  ctx: TestContext,
  overrides: Partial<typeof packages.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(packages)
    .values({
      slug: `pkg-${process.pid}-${++seq}`,
      name: `Package ${seq}`,
      category: 'MEDICARE',
      priceMonthlyCents: 19_900,
      leadsPerDay: 5,
      commissionPct: 10,
      ...overrides,
    })
    .returning();
  return row;
}

export async function subscribe(
  ctx: TestContext,
  userId: number,
  packageId: number,
  status: SubscriptionStatus = 'ACTIVE',
) {
  await ctx.database.db.insert(subscriptions).values({ userId, packageId, status });
}

export async function insertLeads(ctx: TestContext, rows: Partial<typeof leads.$inferInsert>[]) {
  return ctx.database.db
    .insert(leads)
    .values(
      rows.map((r) => ({
        city: 'Austin',
        state: 'TX',
        age: 65,
        category: 'MEDICARE' as const,
        ...r,
      })),
    )
    .returning();
}

/** A lead written straight to the database, then given to the agent by hand through the admin API. */
export async function assignLeadByHand(
  ctx: TestContext,
  agentId: number,
  fields: Partial<typeof leads.$inferInsert> = {},
): Promise<number> {
  const [lead] = await insertLeads(ctx, [fields]);
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post('/api/admin/leads/assign', {
    leadId: lead!.id,
    userId: agentId,
  });
  expect(res.statusCode, res.body).toBe(200);
  return lead!.id;
}

/**
 * Mary Ortiz, 67, of Austin TX (Medicare), given to the agent by hand: the lead whose words the
 * alerts to the agent's phone (push and SMS) are checked against.
 */
export function assignMaryOrtiz(
  ctx: TestContext,
  agentId: number,
  fields: Partial<typeof leads.$inferInsert> = {},
): Promise<number> {
  return assignLeadByHand(ctx, agentId, {
    firstName: 'Mary',
    lastName: 'Ortiz',
    age: 67,
    city: 'Austin',
    state: 'TX',
    ...fields,
  });
}

export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}
