/**
 * A member leaves an agency, or is removed (docs/domain.md, Agencies: leaving): their agency
 * leads not yet contacted go back (lead-life's releaseMemberLeads: NEW, the member's quota
 * credited), and each goes at once to the agency's fitting member with the lowest (a + 1) / q who
 * has quota left (and room under the agency's cap); what no member can take is left to the engine,
 * which runs at once (trigger AGENCY) as after an approved return. Worked leads stay with the
 * member.
 */
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { businessDate } from '../../lib/business-time';
import { lockQuotasShared } from '../assignment/quota.service';
import { type RunResult, runAssignment } from '../assignment/run-assignment.service';
import { fitLead } from '../fit/fit-rule.service';
import { fitSqlParams } from '../fit/fit-rule-sql.service';
import { assignReceivedLead, releaseMemberLeads } from '../leads/lead-life.service';
import { lockReclaimCheck, pickMember } from './reclaim.repository';
import type { ReclaimPorts } from './reclaim.service';

export interface ReleaseOutcome {
  /** the leads taken back from the member */
  released: number[];
  /** of those, the ones given to other members at once */
  toMembers: number[];
  /** the engine's run for the rest (null when every lead went to a member, or none was taken) */
  run: RunResult | null;
}

/**
 * Takes back a departing member's uncontacted agency leads and hands them on. `alsoInTransaction`
 * runs first, in the same transaction (the membership's removal: a member still in the agency
 * would be offered the leads again).
 */
export async function releaseDepartingMember(
  db: Db,
  ports: Pick<ReclaimPorts, 'config' | 'now'> & { events: LeadEvents },
  input: { userId: number; agencyId: number; actorId?: number | null },
  alsoInTransaction?: (tx: Db) => Promise<void>,
): Promise<ReleaseOutcome> {
  const now = ports.now?.() ?? new Date();
  const day = businessDate(ports.config.BUSINESS_TZ, now);
  const ctx = { now, businessDate: day, windows: ports.config.ENROLLMENT_WINDOWS };
  const { released, toMembers } = await db.transaction(async (tx) => {
    await lockQuotasShared(tx);
    if (alsoInTransaction) await alsoInTransaction(tx);
    const taken = await releaseMemberLeads(tx, input);
    const given: number[] = [];
    for (const { id } of taken) {
      const lead = await lockReclaimCheck(tx, id);
      if (!lead) continue;
      const fit = fitSqlParams(fitLead(lead), ctx);
      const member = await pickMember(tx, {
        fit,
        agencyId: input.agencyId,
        exclude: input.userId,
        businessDate: day,
        needsCapRoom: true,
      });
      if (!member) continue;
      const cap = member.agencyCap;
      const ok = await assignReceivedLead(tx, {
        leadId: id,
        agentId: member.id,
        quota: member.quota,
        businessDate: day,
        agencyCap: cap === null ? null : { agencyId: input.agencyId, cap },
      });
      if (ok) given.push(id);
    }
    if (given.length > 0) await ports.events.emit(tx, 'leadsAssigned', { leadIds: given });
    return { released: taken.map((l) => l.id), toMembers: given };
  });
  const run =
    released.length > toMembers.length
      ? await runAssignment(db, ports.config, { trigger: 'AGENCY', events: ports.events, now })
      : null;
  return { released, toMembers, run };
}
