/** An agent's licensed states (docs/domain.md, Licensed states): read by the fit rule's users, set by admins. */
import type { AdminAgent } from '../../../shared/contracts/admin';
import { STATE_CODES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { findAgent } from '../agents/agents.service';
import { writeLicensedStates } from '../auth/auth.service';
import { readLicensedStates } from './licences.repository';

/** The states an agent is licensed in (empty: not restricted). */
export function licensedStatesOf(db: Db, agentId: number): Promise<string[]> {
  return readLicensedStates(db, agentId);
}

/** Records the states an agent is licensed in (docs/domain.md, Licensed states); empty: not restricted. */
export async function setLicensedStates(
  db: Db,
  timeZone: string,
  agentId: number,
  states: string[],
): Promise<AdminAgent> {
  const wanted = new Set(states);
  const ordered = STATE_CODES.filter((code) => wanted.has(code));
  if (!(await writeLicensedStates(db, agentId, ordered))) throw notFound('Agent');
  const agent = await findAgent(db, timeZone, agentId);
  if (!agent) throw notFound('Agent');
  return agent;
}
