import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { agencyAssignedOnDate, assignedOnDate } from './quota.repository';

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

/*
 * For the intake's instant assignment (modules/intake), which applies the same quota lock in its
 * one statement: reached through this service, as module boundaries ask.
 */
export { lockQuotasShared } from './quota-lock';
