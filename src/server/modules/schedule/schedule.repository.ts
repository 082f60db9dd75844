/** The agent's schedule and caps (docs/domain.md, Schedule and caps): agent_schedules, agent_caps. */
import { eq, sql } from 'drizzle-orm';
import type { Caps, ScheduleBody } from '../../../shared/contracts/schedule';
import { type Db, queryRows } from '../../db/client';
import { agentCaps, agentSchedules } from '../../db/schema';

export async function findSchedule(db: Db, userId: number): Promise<ScheduleBody | null> {
  const [row] = await db
    .select({ timeZone: agentSchedules.timeZone, days: agentSchedules.days })
    .from(agentSchedules)
    .where(eq(agentSchedules.userId, userId))
    .limit(1);
  return (row as ScheduleBody | undefined) ?? null;
}

export async function saveSchedule(db: Db, userId: number, schedule: ScheduleBody): Promise<void> {
  const values = { timeZone: schedule.timeZone, days: schedule.days, updatedAt: new Date() };
  await db
    .insert(agentSchedules)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: agentSchedules.userId, set: values });
}

export const NO_CAPS: Caps = { daily: null, weekly: null, monthly: null, monthlyBudgetCents: null };

export async function findCaps(db: Db, userId: number): Promise<Caps | null> {
  const [row] = await db
    .select({
      daily: agentCaps.daily,
      weekly: agentCaps.weekly,
      monthly: agentCaps.monthly,
      monthlyBudgetCents: agentCaps.monthlyBudgetCents,
    })
    .from(agentCaps)
    .where(eq(agentCaps.userId, userId))
    .limit(1);
  return row ?? null;
}

export async function saveCaps(db: Db, userId: number, caps: Caps): Promise<void> {
  const values = { ...caps, updatedAt: new Date() };
  await db
    .insert(agentCaps)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: agentCaps.userId, set: values });
}

/** The leads per day of the agent's ACTIVE subscription's package; null: none is ACTIVE. */
export async function activeLeadsPerDay(db: Db, userId: number): Promise<number | null> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select p.leads_per_day as n
          from subscriptions s join packages p on p.id = s.package_id
         where s.user_id = ${userId} and s.status = 'ACTIVE'`,
  );
  return row?.n ?? null;
}
