/**
 * A lead opened by its agent (docs/domain.md, Alerts to the agent's phone: opened): the first
 * time the agent opens it (the drawer, a push, an SMS link) after it was given to them. Speed to
 * open reads it.
 */
import type { LeadViewed } from '../../../shared/contracts/alerts';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { recordFirstView } from './lead-views.repository';

/** POST /api/agent/leads/{id}/viewed: idempotent; another agent's lead is a 404. */
export async function markLeadViewed(db: Db, agentId: number, leadId: number): Promise<LeadViewed> {
  const firstViewedAt = await recordFirstView(db, leadId, agentId);
  if (!firstViewedAt) throw notFound('Lead');
  return { firstViewedAt };
}
