import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import type { AgentSettableStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import {
  type AgentLeadsPage,
  changeStatusOfAgentLead,
  listLeadsOfAgent,
} from './agent-leads.repository';

export function listOwnLeads(
  db: Db,
  agentId: number,
  query: LeadListQuery,
): Promise<AgentLeadsPage> {
  return listLeadsOfAgent(db, agentId, query);
}

/** Another agent's lead, or one that does not exist, is the same 404: nothing leaks. */
export async function updateOwnLeadStatus(
  db: Db,
  agentId: number,
  leadId: number,
  status: AgentSettableStatus,
): Promise<Lead> {
  const change = await changeStatusOfAgentLead(db, agentId, leadId, status);
  if (!change) throw notFound('Lead');
  return change.lead;
}
