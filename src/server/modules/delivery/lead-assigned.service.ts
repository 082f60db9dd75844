/**
 * `lead.assigned` (docs/domain.md, Delivery of assigned leads): every assignment, by every trigger (scheduled run, run now, import,
 * intake, manual), calls this inside its own transaction, after its write. What it records
 * (notifications for the bell, deliveries and their queue jobs) commits or rolls back with the
 * assignment: nothing is sent for an assignment that rolled back, nothing is lost for one that
 * committed. Set-based: a run giving out a million leads costs a few statements, not one per lead.
 */
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { enqueueFollowUps } from '../follow-up/follow-up.service';
import { notifyLeadsAssigned } from '../notifications/notifications.service';
import { enqueueLeadDeliveries } from './deliveries.service';

/** Which leads an assignment just gave out: a run's, or named leads (manual, intake). */
export type AssignedLeads = { runId: number } | { leadIds: number[] };

/** What the delivery side needs to know of the configuration. */
export type DeliveryConfig = Pick<AppConfig, 'SMTP_URL'>;

export async function leadsAssigned(
  tx: Db,
  config: DeliveryConfig,
  assigned: AssignedLeads,
): Promise<void> {
  if ('leadIds' in assigned && assigned.leadIds.length === 0) return;
  await notifyLeadsAssigned(tx, assigned);
  await enqueueLeadDeliveries(tx, config, assigned);
  // the agents' follow-up messages to their new leads (docs/domain.md, Follow-up messages and calls)
  await enqueueFollowUps(tx, assigned);
}
