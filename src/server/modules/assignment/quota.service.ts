import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { monthStartOf, weekStartOf } from '../../lib/business-time';
import type { PeriodCounts } from '../fit/fit-rule.service';
import { agencyAssignedOnDate, assignedInPeriods, assignedOnDate } from './quota.repository';

export { assignedBetweenSql } from './quota.repository';

/**
 * The daily quota rule (docs/domain.md, "Quota"): an ACTIVE subscription receives its package's
 * leads per day; any other status receives none. The engine's read applies the same rule in SQL
 * (only ACTIVE subscriptions are read); every figure shown to agents and admins comes from here.
 */
export function dailyQuotaLimit(status: SubscriptionStatus, leadsPerDay: number): number {
  return status === 'ACTIVE' ? leadsPerDay : 0;
}

/** Leads each agent received on a business date by any trigger: what counts against the quota. */
export function assignedOnBusinessDate(
  db: Db,
  businessDate: string,
  agentIds?: number[],
): Promise<Map<number, number>> {
  return assignedOnDate(db, businessDate, agentIds);
}

/** Leads assigned through each agency on a business date: what counts against its daily cap. */
export function assignedToAgenciesOn(
  db: Db,
  businessDate: string,
  agencyIds?: number[],
): Promise<Map<number, number>> {
  return agencyAssignedOnDate(db, businessDate, agencyIds);
}

/**
 * Leads each agent received this business week (from Monday) and month through `businessDate`:
 * what counts against the agent's weekly and monthly caps (docs/domain.md, Schedule and caps).
 * Only the agents named are counted (callers pass the agents that have such a cap).
 */
export function assignedThisWeekAndMonth(
  db: Db,
  businessDate: string,
  agentIds: number[],
): Promise<Map<number, PeriodCounts>> {
  return assignedInPeriods(db, periodsThrough(businessDate), agentIds);
}

/** The business week (from Monday) and month a business date counts in, through that date. */
export function periodsThrough(businessDate: string) {
  return {
    weekStart: weekStartOf(businessDate),
    monthStart: monthStartOf(businessDate),
    businessDate,
  };
}

/** The agents that have a weekly or a monthly cap: the only ones whose periods are counted. */
export function periodCapped(
  agents: { id: number; weeklyCap: number | null; monthlyCap: number | null }[],
): number[] {
  return agents.filter((a) => a.weeklyCap !== null || a.monthlyCap !== null).map((a) => a.id);
}

/*
 * For the intake's instant assignment (modules/intake), which applies the same quota lock in its
 * one statement: reached through this service, as module boundaries ask.
 */
export { lockQuotasShared, QUOTAS_SHARED_LOCK_SQL } from './quota-lock';
