/**
 * Why this agent (docs/domain.md "Analytics that explain"): for one lead, the agents it
 * fits and every other agent's first reason; for the NEW leads, which fit no agent and why. The
 * checks are the engine's (eligibility.ts): same enrollment window, city comparison and licence.
 */
import {
  AGENTS_NAMED_PER_REASON,
  type LeadExplanation,
  type LeadFit,
  MISFIT_REASONS,
  type MisfitReason,
  type UnfitReasons,
} from '../../../shared/contracts/explanation';
import type { EnrollmentWindows } from '../../config/env';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import {
  assignedOnBusinessDate as assignedOnDate,
  assignedThisWeekAndMonth,
  assignedToAgenciesOn,
  periodCapped,
  periodsThrough,
} from '../assignment/quota.service';
import { type AgentClasses, agentClasses, firstMisfits } from '../fit/fit-classes.service';
import { type VersionedCopy, versionedCopy } from '../fit/fit-roster.service';
import {
  everyMisfit,
  type FitContext,
  type FitLead,
  type FitProfile,
  firstCapacityMisfit,
  fitAgentFields,
  fitLead,
  fitProfile,
  LEAD_CONDITION_AGENT_FIELDS,
  LEAD_CONDITION_READS,
  LEAD_CONDITIONS,
  type LeadReason,
  leadReady,
  perLeadRooms,
} from '../fit/fit-rule.service';
import { type FitSqlParams, fitSqlParams } from '../fit/fit-rule-sql.service';
import {
  agentReasonsForLead,
  findExplainedLead,
  findLastAssignment,
  type NamedAgent,
  type NewLeadGroup,
  type ReasonGroup,
  readAllAgents,
  readNamedAgents,
  readNewLeadGroups,
} from './explanation.repository';

export interface ExplainConfig {
  BUSINESS_TZ: string;
  ENROLLMENT_WINDOWS: EnrollmentWindows;
}

function contextOf(config: ExplainConfig, now: Date): FitContext {
  return {
    now,
    businessDate: businessDate(config.BUSINESS_TZ, now),
    windows: config.ENROLLMENT_WINDOWS,
  };
}

async function loadAgents(db: Db, ctx: FitContext): Promise<FitProfile[]> {
  const [facts, used, agencyUsed] = await Promise.all([
    readAllAgents(db),
    assignedOnDate(db, ctx.businessDate),
    assignedToAgenciesOn(db, ctx.businessDate),
  ]);
  const period = await assignedThisWeekAndMonth(db, ctx.businessDate, periodCapped(facts));
  return facts.map((a) =>
    fitProfile(
      a,
      ctx,
      used.get(a.id) ?? 0,
      a.agencyId === null ? 0 : (agencyUsed.get(a.agencyId) ?? 0),
      period.get(a.id),
    ),
  );
}

/**
 * Every agent (role AGENT, with an ACTIVE subscription or not) as the fit rule reads it, made
 * ready for the lead conditions, in id order: the process's copy the explanation asks the rule
 * of (decision 044), checked by the version of decision 043. Only the agent and lead conditions
 * are asked of it; what capacity reads (today's counts, caps, the wallet) and what the answer
 * shows of an agent are read for each explanation.
 */
export type ExplainedAgents = VersionedCopy<AgentClasses>;

export function createExplainedAgents(
  db: Db,
  opts: { fold: boolean; onError: (err: unknown) => void },
): ExplainedAgents {
  return versionedCopy(
    db,
    async (tx) =>
      agentClasses(
        (await readAllAgents(tx, undefined, { names: false })).map((a) =>
          leadReady(fitAgentFields(a)),
        ),
      ),
    opts,
  );
}

/** Agents by their first reason (null: they fit), as indexes into the copy of the agents. */
interface CopyGroup {
  reason: number | null;
  count: number;
  /** the first `named` of the reason, every agent when they fit; the copy is in id order */
  shown: number[];
}

/** Every agent's first reason (capacity aside), asked in memory of the copy, grouped. */
function copyGroups(copy: AgentClasses, lead: FitLead, ctx: FitContext, named: number) {
  const bySlot: (CopyGroup | undefined)[] = [];
  const misfits = firstMisfits(copy, lead, ctx);
  for (let i = 0; i < misfits.length; i++) {
    const code = misfits[i];
    // a misfit's code is -1 when the agent fits: its group comes last
    const slot = code < 0 ? MISFIT_REASONS.length : code;
    let group = bySlot[slot];
    if (!group) {
      group = { reason: code < 0 ? null : code, count: 0, shown: [] };
      bySlot[slot] = group;
    }
    group.count++;
    if (code < 0 || group.shown.length < named) group.shown.push(i);
  }
  return bySlot.filter((g) => g !== undefined);
}

/**
 * The groups with what the answer shows of each agent they name: the copy's facts at its
 * version, with the name and what pays per lead as they are now (readNamedAgents).
 */
function showGroups(
  copy: AgentClasses,
  groups: CopyGroup[],
  named: Map<number, NamedAgent>,
): ReasonGroup[] {
  return groups.map((g) => {
    const agents: ReasonGroup['agents'] = [];
    for (const i of g.shown) {
      const a = copy.agents[i];
      const now = named.get(copy.ids[i]);
      if (!now) continue;
      agents.push({
        id: now.id,
        name: now.name,
        quota: a.quota,
        agencyId: a.agencyId,
        agencyCap: a.agencyCap,
        weeklyCap: a.weeklyCap,
        monthlyCap: a.monthlyCap,
        perLead: now.perLead,
      });
    }
    return { reason: g.reason, count: g.count, agents };
  });
}

/** The ids of the copy's agents at these indexes. */
const idsOf = (copy: AgentClasses, indexes: number[]) => indexes.map((i) => copy.ids[i]);

/**
 * Every agent's first reason not to take the lead (capacity aside), grouped as
 * agentReasonsForLead groups them: asked in memory of the copy when it is the data `db` sees,
 * else of the fit rule's SQL rendering in the database. The answer is the same either way.
 */
export async function agentReasons(
  db: Db,
  agents: ExplainedAgents | null,
  fit: FitSqlParams,
  ctx: FitContext,
  named: number,
): Promise<ReasonGroup[]> {
  const copy = agents === null ? null : await agents.current(db);
  if (copy === null) return agentReasonsForLead(db, fit, named);
  const groups = copyGroups(copy, fit.lead, ctx, named);
  // the named agents' names and prices; no counts (nothing here weighs capacity)
  const shown = await readNamedAgents(
    db,
    idsOf(
      copy,
      groups.flatMap((g) => g.shown),
    ),
    { ...periodsThrough(ctx.businessDate), counted: [], capped: [] },
  );
  return showGroups(copy, groups, shown);
}

/**
 * The lead's groups by first reason (the first `named` agents of each, every agent that fits),
 * and for the agents that fit but for capacity their leads of today, this week and this month:
 * from `copy` (the copy of the agents when it is the data the caller sees), and one statement for
 * what it does not hold; else the SQL rendering, then the counts.
 */
async function reasonsAndCounts(
  db: Db,
  copy: AgentClasses | null,
  fit: FitSqlParams,
  ctx: FitContext,
  named: number,
) {
  const date = ctx.businessDate;
  if (copy === null) {
    const groups = await agentReasonsForLead(db, fit, named);
    const candidates = groups.find((g) => g.reason === null)?.agents ?? [];
    const [used, period] = await Promise.all([
      assignedOnDate(
        db,
        date,
        candidates.map((a) => a.id),
      ),
      assignedThisWeekAndMonth(db, date, periodCapped(candidates)),
    ]);
    return { groups, used, period };
  }
  const groups = copyGroups(copy, fit.lead, ctx, named);
  const fitting = groups.find((g) => g.reason === null)?.shown ?? [];
  const shown = await readNamedAgents(
    db,
    idsOf(
      copy,
      groups.flatMap((g) => g.shown),
    ),
    {
      ...periodsThrough(date),
      counted: idsOf(copy, fitting),
      capped: idsOf(
        copy,
        fitting.filter(
          (i) => copy.agents[i].weeklyCap !== null || copy.agents[i].monthlyCap !== null,
        ),
      ),
    },
  );
  const used = new Map<number, number>();
  const period = new Map<number, { week: number; month: number }>();
  for (const a of shown.values()) {
    if (a.today !== null) used.set(a.id, a.today);
    if (a.week !== null && a.month !== null) period.set(a.id, { week: a.week, month: a.month });
  }
  return { groups: showGroups(copy, groups, shown), used, period };
}

export async function explainLead(
  db: Db,
  config: ExplainConfig,
  leadId: number,
  now: Date = new Date(),
  agents: ExplainedAgents | null = null,
): Promise<LeadExplanation> {
  const lead = await findExplainedLead(db, leadId);
  if (!lead) throw notFound('Lead');
  const ctx = contextOf(config, now);
  const date = ctx.businessDate;
  const [{ groups, used, period }, last] = await Promise.all([
    reasonsAndCounts(
      db,
      agents === null ? null : agents.at(lead.rosterVersion),
      fitSqlParams(fitLead(lead), ctx),
      ctx,
      AGENTS_NAMED_PER_REASON,
    ),
    lead.agentId === null ? Promise.resolve(null) : findLastAssignment(db, lead.id),
  ]);
  const candidates = groups.find((g) => g.reason === null)?.agents ?? [];
  // only the agencies with a cap whose members every other check let through are counted
  const cappedAgencies = [
    ...new Set(candidates.flatMap((a) => (a.agencyCap !== null ? [a.agencyId as number] : []))),
  ];
  const agencyUsed = await assignedToAgenciesOn(db, date, cappedAgencies);
  const withQuota = lead.status === 'NEW' && lead.agentId === null;
  const fits: LeadExplanation['fits'] = [];
  /** the agents that fit but for capacity, by the capacity condition they fail first */
  const full = new Map<MisfitReason, { id: number; name: string }[]>();
  for (const a of candidates) {
    const assignedToday = used.get(a.id) ?? 0;
    const counts = period.get(a.id) ?? { week: 0, month: 0 };
    const rooms = perLeadRooms(a.perLead, date);
    // the capacity conditions read these fields of a profile only
    const reason = withQuota
      ? firstCapacityMisfit({
          quota: a.quota,
          assignedToday,
          weeklyCap: a.weeklyCap,
          assignedThisWeek: counts.week,
          monthlyCap: a.monthlyCap,
          assignedThisMonth: counts.month,
          budgetRoom: rooms.budgetRoom,
          walletRoom: rooms.walletRoom,
          agencyCap: a.agencyCap,
          agencyAssignedToday: a.agencyId === null ? 0 : (agencyUsed.get(a.agencyId) ?? 0),
        } as FitProfile)
      : null;
    if (reason !== null) {
      const list = full.get(reason);
      if (list) list.push({ id: a.id, name: a.name });
      else full.set(reason, [{ id: a.id, name: a.name }]);
    } else fits.push({ id: a.id, name: a.name, leadsPerDay: a.quota, assignedToday });
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
  for (const reason of MISFIT_REASONS) {
    const agents = full.get(reason);
    if (agents)
      misfits.push({
        reason,
        count: agents.length,
        agents: agents.slice(0, AGENTS_NAMED_PER_REASON),
      });
  }
  const { rosterVersion: _, ...shown } = lead;
  return { lead: shown, fits, misfits, assignment: last ? assignmentOf(last) : null };
}

function assignmentOf(
  last: NonNullable<Awaited<ReturnType<typeof findLastAssignment>>>,
): LeadExplanation['assignment'] {
  const agent =
    last.agentId !== null ? { id: last.agentId, name: last.agentName ?? `#${last.agentId}` } : null;
  // a reassignment is an admin's assignment by hand
  if (last.kind === 'MANUAL_ASSIGNED' || last.kind === 'REASSIGNED') {
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

/**
 * Every condition of the fit rule this agent fails for this lead, quota aside (the dialog shows
 * the quota): the agent's weekly and monthly caps, budget and balance, and the agency's daily cap
 * when reached today (the dialog does not show them otherwise).
 */
export async function leadFitForAgent(
  db: Db,
  config: ExplainConfig,
  leadId: number,
  agentId: number,
  now: Date = new Date(),
): Promise<LeadFit> {
  const [lead, [agent]] = await Promise.all([
    findExplainedLead(db, leadId),
    readAllAgents(db, agentId),
  ]);
  if (!lead) throw notFound('Lead');
  if (!agent) throw notFound('Agent');
  const ctx = contextOf(config, now);
  const reasons = everyMisfit(agent, ctx, fitLead(lead));
  // the agent's own caps beyond the day and the wallet: an admin may go over the caps (a
  // warning), not below a zero balance (the assignment is refused then)
  const counts = (await assignedThisWeekAndMonth(db, ctx.businessDate, periodCapped([agent]))).get(
    agent.id,
  ) ?? { week: 0, month: 0 };
  const rooms = perLeadRooms(agent.perLead, ctx.businessDate);
  if (agent.weeklyCap !== null && counts.week >= agent.weeklyCap) reasons.push('WEEKLY_CAP');
  if (agent.monthlyCap !== null && counts.month >= agent.monthlyCap) reasons.push('MONTHLY_CAP');
  if (rooms.budgetRoom === 0) reasons.push('BUDGET_SPENT');
  if (rooms.walletRoom === 0) reasons.push('BALANCE_TOO_LOW');
  if (agent.agencyId !== null && agent.agencyCap !== null) {
    const used = await assignedToAgenciesOn(db, ctx.businessDate, [agent.agencyId]);
    if ((used.get(agent.agencyId) ?? 0) >= agent.agencyCap) reasons.push('AGENCY_CAP_FULL');
  }
  return { leadId, agentId, reasons };
}

const FITS = MISFIT_REASONS.length;

/**
 * For each group of NEW leads (category, state, city, age), the furthest condition of the fit
 * rule any agent passes: the index into MISFIT_REASONS of the condition at which the last agents
 * drop out, or FITS (some agent with quota left fits). Agents are narrowed condition by
 * condition, and each narrowing is kept by the lead fields the conditions so far read, so a group
 * costs a few look-ups, not a pass over the agents. Before the last condition the agents left are
 * cut to one of each kind (equal in the fields that condition reads, and in having quota left):
 * the last condition sees every distinct value of its field (every age), and a few kinds of agent
 * answer it as well as thousands.
 */
export function classifyGroups(agents: FitProfile[], groups: FitLead[]): number[] {
  const reasons = Object.keys(LEAD_CONDITIONS) as LeadReason[];
  const last = reasons[reasons.length - 1];
  const idx = (r: MisfitReason) => MISFIT_REASONS.indexOf(r);
  let agentLevel = -1;
  const pool: FitProfile[] = [];
  for (const a of agents) {
    if (a.agentReason === null) pool.push(a);
    else agentLevel = Math.max(agentLevel, idx(a.agentReason));
  }
  // no agent at all: nobody is active
  if (pool.length === 0) return groups.map(() => Math.max(agentLevel, 0));
  const narrowed = new Map<string, FitProfile[]>();
  const kinds = new Map<string, { agent: FitProfile; capacity: MisfitReason | null }[]>();
  const answers = new Map<string, number>();
  // a condition's key part: the values of the lead fields it reads
  const fieldsOf = new Map(reasons.map((r) => [r, LEAD_CONDITION_READS[r]]));
  const keyOf = (reason: LeadReason, lead: FitLead) => {
    const fields = fieldsOf.get(reason) ?? [];
    let part = '';
    for (const f of fields) part += `\u0001${lead[f]}`;
    return part;
  };
  const narrowing = reasons.slice(0, -1);
  // an agent's kind for the last condition: its fields that condition reads, and the first
  // capacity condition it fails (quota, agency cap)
  const kindCache = new Map<FitProfile, string>();
  const kindOf = (a: FitProfile) => {
    let kind = kindCache.get(a);
    if (kind === undefined) {
      kind = `${JSON.stringify(LEAD_CONDITION_AGENT_FIELDS[last].map((f) => a[f]))}${firstCapacityMisfit(a)}`;
      kindCache.set(a, kind);
    }
    return kind;
  };
  return groups.map((lead) => {
    let left = pool;
    let key = '';
    for (const reason of narrowing) {
      key += keyOf(reason, lead);
      let next = narrowed.get(key);
      if (!next) {
        const from = left;
        next = from.filter((a) => LEAD_CONDITIONS[reason](a, lead));
        narrowed.set(key, next);
      }
      if (next.length === 0) return idx(reason);
      left = next;
    }
    let few = kinds.get(key);
    if (!few) {
      const seen = new Map<string, { agent: FitProfile; capacity: MisfitReason | null }>();
      for (const a of left) {
        const kind = kindOf(a);
        if (!seen.has(kind)) seen.set(kind, { agent: a, capacity: firstCapacityMisfit(a) });
      }
      few = [...seen.values()];
      kinds.set(key, few);
    }
    const full = key + keyOf(last, lead);
    let answer = answers.get(full);
    if (answer === undefined) {
      const passing = few.filter((k) => LEAD_CONDITIONS[last](k.agent, lead));
      // the furthest capacity condition any passing agent reaches (none failed: it fits)
      answer =
        passing.length === 0
          ? idx(last)
          : Math.max(...passing.map((k) => (k.capacity === null ? FITS : idx(k.capacity))));
      answers.set(full, answer);
    }
    return answer;
  });
}

/** NEW leads that fit no agent with quota left today, counted by the furthest reason. */
export async function unfitNewLeads(
  db: Db,
  config: ExplainConfig,
  now: Date = new Date(),
): Promise<UnfitReasons> {
  const [agents, groups] = await Promise.all([
    loadAgents(db, contextOf(config, now)),
    readNewLeadGroups(db),
  ]);
  const levels = classifyGroups(agents, groups.map(fitLead));
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
): Promise<NewLeadGroup[]> {
  const [agents, groups] = await Promise.all([
    loadAgents(db, contextOf(config, now)),
    readNewLeadGroups(db),
  ]);
  const levels = classifyGroups(agents, groups.map(fitLead));
  const want = MISFIT_REASONS.indexOf(reason);
  return groups.filter((_, i) => levels[i] === want);
}
