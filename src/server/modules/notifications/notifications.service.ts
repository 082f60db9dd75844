import type { Db } from '../../db/client';
import type { AssignedLeads } from '../delivery/lead-assigned.service';

/** Writes the bell's notifications for newly assigned leads and tells live streams (pg_notify). */
export async function notifyLeadsAssigned(_tx: Db, _assigned: AssignedLeads): Promise<void> {
  // filled in by the live slice of issue 14
}
