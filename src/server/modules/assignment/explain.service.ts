/**
 * Why this agent (docs/domain.md "Analytics that explain"): for one lead, the agents it
 * fits and every other agent's first reason; for the NEW leads, which fit no agent and why. The
 * checks are the engine's (eligibility.ts): same enrollment window, city comparison and licence.
 */
import {
  AGENTS_NAMED_PER_REASON,
  type LeadExplanation,
  MISFIT_REASONS,
  type MisfitReason,
  type UnfitReasons,
} from '../../../shared/contracts/explain';
import { LEAD_CATEGORIES } from '../../../shared/domain';
import type { EnrollmentWindows } from '../../config/env';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { enrollmentOpen, normalizeCity } from './eligibility';
import {
  type AgentFacts,
  agentReasonsForLead,
  type ExplainedLead,
  findExplainedLead,
  findLastAssignment,
  type ReasonGroup,
  readAllAgents,
  readNewLeadGroups,
} from './explain.repository';
import { assignedOnDate } from './quota.repository';

export interface ExplainConfig {
  BUSINESS_TZ: string;
  ENROLLMENT_WINDOWS: EnrollmentWindows;
}

/** The agent, ready to be checked against leads: what needs no lead decided once. */
export interface CheckedAgent extends AgentFacts {
  assignedToday: number;
  /** NOT_ACTIVE, PAUSED or ENROLLMENT_WINDOW; null when the agent may receive leads today */
  agentReason: MisfitReason | null;
  normalizedCities: string[];
}

export function checkAgents(
  facts: AgentFacts[],
  assignedToday: Map<number, number>,
  date: string,
  windows: EnrollmentWindows,
): CheckedAgent[] {
  return facts.map((a) => {
    let agentReason: MisfitReason | null = null;
    if (!a.active || a.category === null) agentReason = 'NOT_ACTIVE';
    else if (a.paused) agentReason = 'PAUSED';
    else if (!enrollmentOpen(a.category, a.enrollmentOnly, date, windows))
      agentReason = 'ENROLLMENT_WINDOW';
    return {
      ...a,
      assignedToday: assignedToday.get(a.id) ?? 0,
      agentReason,
      normalizedCities: [...new Set(a.cities.map(normalizeCity).filter((c) => c !== ''))],
    };
  });
}

type LeadShape = Pick<ExplainedLead, 'category' | 'state' | 'city' | 'age'>;

function categoryFits(a: CheckedAgent, lead: LeadShape): boolean {
  return (
    a.category === lead.category &&
    (a.categories.length === 0 || a.categories.includes(lead.category))
  );
}
function licenceFits(a: CheckedAgent, state: string): boolean {
  return a.licensedStates.length === 0 || a.licensedStates.includes(state);
}
function stateFits(a: CheckedAgent, state: string): boolean {
  return a.states.length === 0 || a.states.includes(state);
}
function cityFits(a: CheckedAgent, normalizedCity: string): boolean {
  return a.normalizedCities.length === 0 || a.normalizedCities.includes(normalizedCity);
}
function ageFits(a: CheckedAgent, age: number): boolean {
  return (a.ageMin === null || age >= a.ageMin) && (a.ageMax === null || age <= a.ageMax);
}
function quotaLeft(a: CheckedAgent): boolean {
  return a.assignedToday < a.quota;
}

/**
 * The first reason the agent does not fit the lead, in MISFIT_REASONS order; null when it fits.
 * `withQuota`: a NEW lead also needs quota left today; a lead already given does not.
 */
export function firstMisfit(
  a: CheckedAgent,
  lead: LeadShape,
  withQuota: boolean,
): MisfitReason | null {
  if (a.agentReason) return a.agentReason;
  if (!categoryFits(a, lead)) return 'CATEGORY';
  if (!licenceFits(a, lead.state)) return 'LICENCE';
  if (!stateFits(a, lead.state)) return 'STATE';
  if (!cityFits(a, normalizeCity(lead.city))) return 'CITY';
  if (!ageFits(a, lead.age)) return 'AGE';
  if (withQuota && !quotaLeft(a)) return 'QUOTA_FULL';
  return null;
}

async function loadAgents(db: Db, config: ExplainConfig, now: Date): Promise<CheckedAgent[]> {
  const date = businessDate(config.BUSINESS_TZ, now);
  const [facts, used] = await Promise.all([readAllAgents(db, now), assignedOnDate(db, date)]);
  return checkAgents(facts, used, date, config.ENROLLMENT_WINDOWS);
}

export async function explainLead(
  db: Db,
  config: ExplainConfig,
  leadId: number,
  now: Date = new Date(),
): Promise<LeadExplanation> {
  const lead = await findExplainedLead(db, leadId);
  if (!lead) throw notFound('Lead');
  const date = businessDate(config.BUSINESS_TZ, now);
  // the engine's enrollment rule, decided here per category for the statement
  const closed = LEAD_CATEGORIES.filter(
    (c) => !enrollmentOpen(c, true, date, config.ENROLLMENT_WINDOWS),
  );
  const [groups, last] = await Promise.all([
    agentReasonsForLead(
      db,
      { ...lead, city: normalizeCity(lead.city) },
      now,
      closed,
      AGENTS_NAMED_PER_REASON,
    ),
    lead.agentId === null ? Promise.resolve(null) : findLastAssignment(db, lead.id),
  ]);
  const candidates = groups.find((g) => g.reason === null)?.agents ?? [];
  // only the agents every other check let through need today's count
  const used = await assignedOnDate(
    db,
    date,
    candidates.map((a) => a.id),
  );
  const withQuota = lead.status === 'NEW' && lead.agentId === null;
  const fits: LeadExplanation['fits'] = [];
  const full: { id: number; name: string }[] = [];
  for (const a of candidates) {
    const assignedToday = used.get(a.id) ?? 0;
    if (withQuota && assignedToday >= a.quota) full.push({ id: a.id, name: a.name });
    else fits.push({ id: a.id, name: a.name, leadsPerDay: a.quota, assignedToday });
  }
  // the engine's order of preference: the lowest fill ratio (a + 1) / q first
  fits.sort(
    (x, y) =>
      (x.assignedToday + 1) / x.leadsPerDay - (y.assignedToday + 1) / y.leadsPerDay || x.id - y.id,
  );
  const misfits: LeadExplanation['misfits'] = groups
    .filter((g): g is ReasonGroup & { reason: number } => g.reason !== null)
    .sort((x, y) => x.reason - y.reason)
    .map((g) => ({
      reason: MISFIT_REASONS[g.reason],
      count: g.count,
      agents: g.agents.map(({ id, name }) => ({ id, name })),
    }));
  if (full.length > 0)
    misfits.push({
      reason: 'QUOTA_FULL',
      count: full.length,
      agents: full.slice(0, AGENTS_NAMED_PER_REASON),
    });
  return { lead, fits, misfits, assignment: last ? assignmentOf(last) : null };
}

function assignmentOf(
  last: NonNullable<Awaited<ReturnType<typeof findLastAssignment>>>,
): LeadExplanation['assignment'] {
  const agent =
    last.agentId !== null ? { id: last.agentId, name: last.agentName ?? `#${last.agentId}` } : null;
  if (last.kind === 'MANUAL_ASSIGNED') {
    return {
      kind: 'MANUAL',
      at: last.at,
      agent,
      run: null,
      admin:
        last.actorId !== null
          ? { id: last.actorId, name: last.actorName ?? `#${last.actorId}` }
          : null,
    };
  }
  if (last.runId !== null && last.runTrigger !== null && last.runAt !== null) {
    return {
      kind: 'RUN',
      at: last.at,
      agent,
      run: { id: last.runId, trigger: last.runTrigger, at: last.runAt },
      admin: null,
    };
  }
  // an engine assignment without a run: the real-time intake (decision 015)
  return { kind: 'INTAKE', at: last.at, agent, run: null, admin: null };
}

const FITS = MISFIT_REASONS.length;
const MAX_AGE = 150;

/**
 * For each group of NEW leads (category, state, city, age), the furthest check any agent passes:
 * index into MISFIT_REASONS of the reason it stops at, or FITS (some agent with quota left fits).
 * Agents are narrowed step by step (category, then state, then city), so a group costs a look-up,
 * not a pass over the agents.
 */
export function classifyGroups<G extends LeadShape>(agents: CheckedAgent[], groups: G[]): number[] {
  const idx = (r: MisfitReason) => MISFIT_REASONS.indexOf(r);
  let agentLevel = -1;
  const pool: CheckedAgent[] = [];
  for (const a of agents) {
    if (a.agentReason === null) pool.push(a);
    else agentLevel = Math.max(agentLevel, idx(a.agentReason));
  }
  // no agent at all: nobody is active
  const base = pool.length > 0 ? idx('CATEGORY') : Math.max(agentLevel, 0);

  type CityNode = { level: number; any: Int32Array; withQuota: Int32Array };
  type StateNode = { level: number; agents: CheckedAgent[]; cities: Map<string, CityNode> };
  type CatNode = { level: number; agents: CheckedAgent[]; states: Map<string, StateNode> };
  const cats = new Map<string, CatNode>();

  const catNode = (category: string): CatNode => {
    let node = cats.get(category);
    if (!node) {
      const list = pool.filter((a) => categoryFits(a, { category } as LeadShape));
      node = { level: list.length > 0 ? idx('LICENCE') : base, agents: list, states: new Map() };
      cats.set(category, node);
    }
    return node;
  };
  const stateNode = (cat: CatNode, state: string): StateNode => {
    let node = cat.states.get(state);
    if (!node) {
      const licensed = cat.agents.filter((a) => licenceFits(a, state));
      const list = licensed.filter((a) => stateFits(a, state));
      const level = list.length > 0 ? idx('CITY') : licensed.length > 0 ? idx('STATE') : cat.level;
      node = { level, agents: list, cities: new Map() };
      cat.states.set(state, node);
    }
    return node;
  };
  const cityNode = (st: StateNode, city: string): CityNode => {
    let node = st.cities.get(city);
    if (!node) {
      const list = st.agents.filter((a) => cityFits(a, city));
      // ages covered, as difference arrays summed into counts per age
      const any = new Int32Array(MAX_AGE + 2);
      const withQuota = new Int32Array(MAX_AGE + 2);
      for (const a of list) {
        const lo = Math.max(0, a.ageMin ?? 0);
        const hi = Math.min(MAX_AGE, a.ageMax ?? MAX_AGE);
        if (lo > hi) continue;
        any[lo]++;
        any[hi + 1]--;
        if (quotaLeft(a)) {
          withQuota[lo]++;
          withQuota[hi + 1]--;
        }
      }
      for (let i = 1; i <= MAX_AGE + 1; i++) {
        any[i] += any[i - 1];
        withQuota[i] += withQuota[i - 1];
      }
      node = { level: list.length > 0 ? idx('AGE') : st.level, any, withQuota };
      st.cities.set(city, node);
    }
    return node;
  };

  return groups.map((g) => {
    const cat = catNode(g.category);
    if (cat.agents.length === 0) return cat.level;
    const st = stateNode(cat, g.state);
    if (st.agents.length === 0) return st.level;
    const node = cityNode(st, normalizeCity(g.city));
    if (node.level < idx('AGE')) return node.level;
    const age = Math.min(MAX_AGE, Math.max(0, g.age));
    if (node.withQuota[age] > 0) return FITS;
    if (node.any[age] > 0) return idx('QUOTA_FULL');
    return idx('AGE');
  });
}

/** NEW leads that fit no agent with quota left today, counted by the furthest reason. */
export async function unfitNewLeads(
  db: Db,
  config: ExplainConfig,
  now: Date = new Date(),
): Promise<UnfitReasons> {
  const [agents, groups] = await Promise.all([loadAgents(db, config, now), readNewLeadGroups(db)]);
  const levels = classifyGroups(agents, groups);
  const counts = new Array<number>(FITS + 1).fill(0);
  let newLeads = 0;
  groups.forEach((g, i) => {
    counts[levels[i]] += g.n;
    newLeads += g.n;
  });
  return {
    newLeads,
    fitting: counts[FITS],
    reasons: MISFIT_REASONS.map((reason, i) => ({ reason, count: counts[i] })).filter(
      (r) => r.count > 0,
    ),
  };
}

/** The (category, state, city, age) groups of NEW leads whose furthest reason is `reason`. */
export async function newLeadGroupsUnfitBy(
  db: Db,
  config: ExplainConfig,
  reason: MisfitReason,
  now: Date = new Date(),
): Promise<LeadShape[]> {
  const [agents, groups] = await Promise.all([loadAgents(db, config, now), readNewLeadGroups(db)]);
  const levels = classifyGroups(agents, groups);
  const want = MISFIT_REASONS.indexOf(reason);
  return groups.filter((_, i) => levels[i] === want);
}
