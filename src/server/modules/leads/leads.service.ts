import type { AgentLeadListQuery, Lead, LeadListQuery } from '../../../shared/contracts/leads';
import type { AgentSettableStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { type LeadCountRow, readLeadCounts } from './lead-counts.repository';
import { writeStatusChange } from './lead-life.repository';
import {
  type AgentLeadsPage,
  catchUpSearchIndex,
  findLeadJson,
  type LeadGroupKey,
  type LeadsPage,
  listLeadsOfAgent,
  listLeadsOfGroups,
  listLeadsPage,
  toLead,
} from './lead-search.repository';
import { type LeadRow, lockLeadOfAgent } from './leads.repository';

/**
 * The groups of NEW leads that fit no agent for one reason: the assignment module's explanation,
 * handed in by app.ts (the leads module does not import the assignment module, which imports it).
 */
export type UnfitLeadGroups = (
  reason: NonNullable<LeadListQuery['noFit']>,
) => Promise<LeadGroupKey[]>;

/** The admin's leads list: one page, searched and counted by the database. */
export async function listLeads(
  db: Db,
  query: LeadListQuery,
  unfitGroups?: UnfitLeadGroups,
): Promise<LeadsPage> {
  // the NEW leads that fit no agent for one reason (docs/domain.md): the groups the explanation
  // names ("Analytics that explain")
  if (query.noFit && unfitGroups) {
    return listLeadsOfGroups(db, await unfitGroups(query.noFit), query);
  }
  return listLeadsPage(db, query);
}

/** My Leads: the agent's own leads only. */
export function listOwnLeads(
  db: Db,
  agentId: number,
  query: AgentLeadListQuery,
): Promise<AgentLeadsPage> {
  return listLeadsOfAgent(db, agentId, query);
}

/**
 * One lead as JSON text, as the lists show it: the agent's own (another agent's lead is the same
 * 404 as one that does not exist: a link to it reveals nothing), or any lead for an admin.
 */
export async function leadJson(db: Db, leadId: number, agentId?: number): Promise<string> {
  const json = await findLeadJson(db, leadId, agentId);
  if (json === null) throw notFound('Lead');
  return json;
}

/**
 * An agent's status change on their own lead, recorded in its history. Another agent's lead, or
 * one that does not exist, is the same 404 (nothing leaks). Setting the status the lead already
 * has changes nothing and writes no history.
 */
export function updateOwnLeadStatus(
  db: Db,
  agentId: number,
  leadId: number,
  status: AgentSettableStatus,
): Promise<Lead> {
  return db.transaction(async (tx) => {
    const current = await lockLeadOfAgent(tx, agentId, leadId);
    if (!current) throw notFound('Lead');
    // an approved return credited the agent for this lead (docs/domain.md, Returns and credits): it stays INVALID
    if (current.returnedAt !== null) {
      throw new AppError('CONFLICT', 'This lead was returned; its status no longer changes.');
    }
    if (current.status === status) return toLead(current);
    const updated = await writeStatusChange(tx, {
      leadId,
      agentId,
      from: current.status,
      to: status,
    });
    return toLead(updated);
  });
}

/** Leads counted by (category, status, has an agent), from the kept counters. */
export function leadCountsByKey(db: Db): Promise<LeadCountRow[]> {
  return readLeadCounts(db);
}

/** A leads row as the API answers it. */
export function leadAnswer(row: LeadRow): Lead {
  return toLead(row);
}

/** One step of the admin search's catch-up: indexes up to `maxLeads` queued leads. */
export function indexQueuedLeads(db: Db, maxLeads: number): Promise<number> {
  return catchUpSearchIndex(db, maxLeads);
}
