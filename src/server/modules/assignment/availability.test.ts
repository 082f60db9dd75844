/**
 * The engine's availability rules (docs/domain.md: Pause, Licensed states, Returns and credits) on
 * random instances, through the whole pure pipeline a run uses: agent rows -> eligibleAgents ->
 * buildClasses -> solveAssignment. The oracle is written from the rules, lead by lead: a lead fits
 * an agent when the agent is not paused, the lead's state is in the agent's preferred states (or
 * none chosen) and in its licence (or none recorded); an agent's room today is its quota minus
 * the leads it kept today (an approved return clears assigned_on, so a returned lead is not
 * counted). The solver must reach the oracle's maximum flow and its fairness optimum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AgentRow, eligibleAgents } from './eligibility';
import { buildClasses, type LeadGroup } from './lead-classes';
import { maxFlow, minConvexCost, quotaScale } from './max-flow.test-helper';
import { solveAssignment } from './solver';
import type { LeadClass, SolverAgent } from './solver-graph';

const STATES = ['TX', 'FL', 'GA', 'OH'];
const WINDOWS = { MEDICARE: null, ACA: null, FINAL_EXPENSE: null } as never;

interface RandomAgent {
  row: AgentRow;
  /** leads assigned today, and how many of them an admin has since accepted as returns */
  keptToday: number;
  returnedToday: number;
}

const agentArb = (id: number) =>
  fc
    .record({
      quota: fc.integer({ min: 1, max: 5 }),
      states: fc.subarray(STATES),
      licensedStates: fc.oneof(fc.constant([] as string[]), fc.subarray(STATES)),
      paused: fc.boolean(),
      assignedToday: fc.integer({ min: 0, max: 6 }),
      returnedShare: fc.integer({ min: 0, max: 6 }),
    })
    .map(
      (a): RandomAgent => ({
        row: {
          id,
          approved: true,
          category: 'MEDICARE',
          quota: a.quota,
          enrollmentOnly: false,
          schedule: null,
          weeklyCap: null,
          monthlyCap: null,
          perLead: null,
          states: a.states,
          cities: [],
          ageMin: null,
          ageMax: null,
          categories: [],
          agencyId: null,
          agencySuspended: false,
          agencyCap: null,
          licensedStates: a.licensedStates,
          disabled: false,
          pausedAt: a.paused ? '2026-06-01T00:00:00.000Z' : null,
          pausedUntil: null,
        },
        returnedToday: Math.min(a.returnedShare, a.assignedToday),
        keptToday: a.assignedToday - Math.min(a.returnedShare, a.assignedToday),
      }),
    );

const instanceArb = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    agents: fc.tuple(...Array.from({ length: n }, (_, i) => agentArb(i + 1))),
    leads: fc.array(
      fc.record({ state: fc.constantFrom(...STATES), createdAt: fc.integer({ min: 0, max: 9 }) }),
      { maxLength: 16 },
    ),
  }),
);

function fitsByRules(row: AgentRow, state: string): boolean {
  if (row.pausedAt !== null) return false;
  if (row.states.length > 0 && !row.states.includes(state)) return false;
  const licence = row.licensedStates;
  return licence.length === 0 || licence.includes(state);
}

describe('engine availability: paused agents, licences and credited returns', () => {
  it('assigns the maximum and the fairness optimum of the rules, never to a paused or unlicensed agent', () => {
    fc.assert(
      fc.property(instanceArb, ({ agents, leads }) => {
        // quota used today counts kept leads only: the returned ones had assigned_on cleared
        const used = new Map(agents.map((a) => [a.row.id, a.keptToday]));
        const profiles = eligibleAgents(
          agents.map((a) => a.row),
          used,
          { now: new Date('2026-06-15T14:00:00Z'), businessDate: '2026-06-15', windows: WINDOWS },
        );
        const groups: LeadGroup[] = leads.map((l, i) => ({
          category: 'MEDICARE',
          state: l.state,
          city: 'austin',
          age: 70,
          leads: [{ id: i + 1, createdAt: l.createdAt }],
        }));
        const result = solveAssignment(profiles, buildClasses(profiles, groups));

        // the oracle: every agent, paused or not, and lead-level fits from the rules
        const oracleAgents: SolverAgent[] = agents.map((a) => ({
          id: a.row.id,
          quota: a.row.quota,
          assignedToday: a.keptToday,
        }));
        const oracleClasses: LeadClass[] = leads.map((l, i) => ({
          fits: agents.filter((a) => fitsByRules(a.row, l.state)).map((a) => a.row.id),
          leads: [{ id: i + 1, createdAt: l.createdAt }],
        }));

        const stateOf = new Map(leads.map((l, i) => [i + 1, l.state]));
        let total = 0;
        for (const [agentId, given] of result.byAgent) {
          const agent = agents.find((a) => a.row.id === agentId);
          expect(agent).toBeDefined();
          if (!agent) continue;
          expect(agent.row.pausedAt).toBeNull();
          for (const leadId of given) {
            expect(fitsByRules(agent.row, stateOf.get(Number(leadId)) ?? '')).toBe(true);
          }
          // the credit: room = quota - kept, whatever was returned
          expect(agent.keptToday + given.length).toBeLessThanOrEqual(
            Math.max(agent.row.quota, agent.keptToday),
          );
          total += given.length;
        }
        expect(total).toBe(maxFlow(oracleAgents, oracleClasses));
        const best = minConvexCost(oracleAgents, oracleClasses);
        const scale = quotaScale(oracleAgents);
        let cost = 0;
        for (const a of oracleAgents) {
          const n = result.byAgent.get(a.id)?.length ?? 0;
          for (let k = 1; k <= n; k++) cost += ((a.assignedToday + k) * scale) / a.quota;
        }
        expect(best.flow).toBe(total);
        expect(cost).toBe(best.cost);
      }),
      { numRuns: 400 },
    );
  });
});
