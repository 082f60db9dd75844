import type { Db } from '../../db/client';
import type { AssignedLeads, DeliveryConfig } from './lead-assigned.service';

/** Records the deliveries of newly assigned leads and enqueues their jobs (in the caller's tx). */
export async function enqueueLeadDeliveries(
  _tx: Db,
  _config: DeliveryConfig,
  _assigned: AssignedLeads,
): Promise<void> {
  // filled in by the delivery slice of issue 14
}
