/**
 * Who may receive leads in a run, and what they fit: the fit rule (modules/fit) prepared for the
 * engine's index. Pure: the repository reads the rows, these functions decide.
 */
import type { LeadCategory } from '../../../shared/domain';
import {
  type FitAgent,
  type FitContext,
  fitProfile,
  type PeriodCounts,
} from '../fit/fit-rule.service';

/** An agent with an ACTIVE subscription to a package, as the repository reads it. */
export type AgentRow = FitAgent & { category: LeadCategory };

/** An eligible agent, ready for class building: cities normalized, categories resolved. */
export interface AgentProfile {
  id: number;
  /** The package's category, or null when the agent's preferred categories exclude it. */
  category: LeadCategory | null;
  quota: number;
  assignedToday: number;
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
  /** the agent's agency; null: none */
  agencyId: number | null;
  /** leads the agency may still take today under its daily cap; null: no cap */
  agencyRoom: number | null;
  /**
   * leads the agent may still take beyond today's quota: under its own weekly and monthly caps,
   * and for an agent who pays per lead what its balance and monthly budget cover at the highest
   * price (docs/decisions/032-wallet-capacity.md); null: no such bound
   */
  periodRoom: number | null;
}

/** Room left under the weekly and monthly caps (never below 0); null: neither cap is set. */
export function periodRoomOf(
  caps: { weeklyCap: number | null; monthlyCap: number | null },
  used: PeriodCounts,
): number | null {
  let room: number | null = null;
  if (caps.weeklyCap !== null) room = caps.weeklyCap - used.week;
  if (caps.monthlyCap !== null) {
    const left = caps.monthlyCap - used.month;
    room = room === null ? left : Math.min(room, left);
  }
  return room === null ? null : Math.max(0, room);
}

/** The least of the rooms set; null when none is. */
export function leastRoom(...rooms: (number | null)[]): number | null {
  let least: number | null = null;
  for (const room of rooms)
    if (room !== null) least = least === null ? room : Math.min(least, room);
  return least;
}

/**
 * The states an agent may receive leads of: the preferred states within the licence when both are
 * set, the licensed states when only they are, the preferred ones (or [] = any) otherwise. null:
 * preferences and licence do not overlap, so the agent fits no lead.
 */
export function effectiveStates(preferred: string[], licensed: string[]): string[] | null {
  if (licensed.length === 0) return preferred;
  if (preferred.length === 0) return [...new Set(licensed)];
  const allowed = new Set(licensed);
  const both = [...new Set(preferred.filter((s) => allowed.has(s)))];
  return both.length === 0 ? null : both;
}

/**
 * The eligible agents among the ACTIVE subscribers: those every agent condition of the fit rule
 * lets through (paused agents and closed enrollment windows left out), the lead conditions
 * prepared for the engine's index (lead-classes.ts): licence and preferred states folded into one
 * list, categories resolved, cities normalized, quota used today attached. An agent whose
 * preferred categories leave out the package's category, or whose preferred states lie all
 * outside the licence, stays eligible (and counted) but fits no lead. A member of an agency with a
 * daily cap carries the room its agency has left (the solver's agency node).
 */
export function eligibleAgents(
  rows: AgentRow[],
  assignedToday: Map<number, number>,
  ctx: FitContext,
  agencyAssignedToday: Map<number, number> = new Map(),
  period: Map<number, PeriodCounts> = new Map(),
): AgentProfile[] {
  const out: AgentProfile[] = [];
  for (const row of rows) {
    const agencyUsed = row.agencyId === null ? 0 : (agencyAssignedToday.get(row.agencyId) ?? 0);
    const used = period.get(row.id) ?? { week: 0, month: 0 };
    const profile = fitProfile(row, ctx, assignedToday.get(row.id) ?? 0, agencyUsed, used);
    if (profile.agentReason !== null) continue;
    const states = effectiveStates(row.states, row.licensedStates);
    const wanted =
      states !== null && (row.categories.length === 0 || row.categories.includes(row.category));
    out.push({
      id: row.id,
      category: wanted ? row.category : null,
      quota: row.quota,
      assignedToday: profile.assignedToday,
      states: states ?? [],
      cities: profile.normalizedCities,
      ageMin: row.ageMin,
      ageMax: row.ageMax,
      agencyId: row.agencyId,
      agencyRoom: row.agencyCap === null ? null : Math.max(0, row.agencyCap - agencyUsed),
      periodRoom: leastRoom(periodRoomOf(row, used), profile.walletRoom, profile.budgetRoom),
    });
  }
  return out;
}
