/**
 * The fit rule asked of many agents at once (decision 044): for each condition, the agents fall
 * into classes by the fields that condition reads (AGENT_CONDITION_FIELDS,
 * LEAD_CONDITION_AGENT_FIELDS), and agents of one class pass or fail it together. So for a lead
 * each condition is asked once per class that some agent reaches it with, with the rule's own
 * TypeScript definition (fit-rule.service.ts), not once per agent; an agent's first reason is
 * then a walk over small arrays. Ten thousand agents have a handful of classes for most
 * conditions (approval, pause, category, schedule...), at most one per agent for the others.
 */
import { MISFIT_REASONS } from '../../../shared/contracts/explanation';
import {
  AGENT_CONDITION_FIELDS,
  AGENT_CONDITIONS,
  type FitContext,
  type FitLead,
  LEAD_CONDITION_AGENT_FIELDS,
  LEAD_CONDITION_READS,
  LEAD_CONDITIONS,
  type LeadReadyAgent,
} from './fit-rule.service';

type Check = (a: LeadReadyAgent, ctx: FitContext, lead: FitLead) => boolean;

/**
 * The conditions in the rule's order, capacity aside: each with its reason, what it reads of the
 * agent, and for a lead condition what it reads of the lead (an agent condition reads the moment).
 */
const CONDITIONS: {
  reason: number;
  fields: (keyof LeadReadyAgent)[];
  leadFields: (keyof FitLead)[] | null;
  holds: Check;
}[] = [
  ...Object.entries(AGENT_CONDITIONS).map(([reason, holds]) => ({
    reason: MISFIT_REASONS.indexOf(reason as never),
    fields: AGENT_CONDITION_FIELDS[reason as keyof typeof AGENT_CONDITIONS],
    leadFields: null,
    holds: ((a, ctx) => holds(a, ctx)) as Check,
  })),
  ...Object.entries(LEAD_CONDITIONS).map(([reason, holds]) => ({
    reason: MISFIT_REASONS.indexOf(reason as never),
    fields: LEAD_CONDITION_AGENT_FIELDS[reason as keyof typeof LEAD_CONDITIONS],
    leadFields: LEAD_CONDITION_READS[reason as keyof typeof LEAD_CONDITIONS],
    holds: ((a, _ctx, lead) => holds(a, lead)) as Check,
  })),
];

/** Lead keys a lead condition keeps verdicts for before it starts again (a few MB at most). */
const KEPT_LEAD_KEYS = 4096;

/** The agent conditions come first: conditions 0 .. AGENT_CONDITION_COUNT - 1. */
const AGENT_CONDITION_COUNT = CONDITIONS.filter((c) => c.leadFields === null).length;

/** Agents, in their order, with their class for each condition. */
export interface AgentClasses {
  agents: LeadReadyAgent[];
  /** the agents' ids, in the same order */
  ids: Int32Array;
  /** per condition, one agent of each class */
  members: LeadReadyAgent[][];
  /** per condition, each agent's class (an index into members) */
  classOf: Int32Array[];
  /**
   * each agent's kind for the agent conditions together (its classes for all of them): agents of
   * one kind have the same first agent reason at any moment, so a lead asks it once per kind
   */
  kindOf: Int32Array;
  /** the index of one agent of each kind */
  kinds: number[];
  /**
   * per lead condition, its classes' verdicts for the leads equal in what it reads (by those
   * values): a lead condition does not read the moment, so its verdicts hold for every later
   * lead of that key, for as long as this copy is the agents' data
   */
  leadVerdicts: (LeadVerdicts | null)[];
}

/** A lead condition's kept verdicts: the lead fields it reads, and the verdicts by their values. */
interface LeadVerdicts {
  fields: (keyof FitLead)[];
  byKey: Map<string, Uint8Array>;
}

/** Agents grouped by a key: each agent's group, and the index of the first agent of each. */
function groupBy(agents: LeadReadyAgent[], keyOf: (a: LeadReadyAgent, i: number) => string) {
  const byKey = new Map<string, number>();
  const firstIndex: number[] = [];
  const of = new Int32Array(agents.length);
  agents.forEach((a, i) => {
    const key = keyOf(a, i);
    let c = byKey.get(key);
    if (c === undefined) {
      c = firstIndex.length;
      byKey.set(key, c);
      firstIndex.push(i);
    }
    of[i] = c;
  });
  return { of, firstIndex };
}

export function agentClasses(agents: LeadReadyAgent[]): AgentClasses {
  const members: LeadReadyAgent[][] = [];
  const classOf: Int32Array[] = [];
  for (const { fields } of CONDITIONS) {
    const { of, firstIndex } = groupBy(agents, (a) => JSON.stringify(fields.map((f) => a[f])));
    members.push(firstIndex.map((i) => agents[i]));
    classOf.push(of);
  }
  const kinds = groupBy(agents, (_, i) =>
    classOf
      .slice(0, AGENT_CONDITION_COUNT)
      .map((of) => of[i])
      .join(','),
  );
  return {
    agents,
    ids: Int32Array.from(agents, (a) => a.id),
    members,
    classOf,
    kindOf: kinds.of,
    kinds: kinds.firstIndex,
    leadVerdicts: CONDITIONS.map((c) =>
      c.leadFields === null ? null : { fields: c.leadFields, byKey: new Map() },
    ),
  };
}

/** A verdict not asked yet, a condition that holds, one that fails. */
const UNASKED = 0;
const HOLDS = 1;
const FAILS = 2;

/**
 * Each agent's first reason not to take the lead at ctx.now, capacity aside (firstAgentMisfit,
 * then firstLeadMisfit): an index into MISFIT_REASONS, or -1 when the agent fits; in the agents'
 * order.
 */
export function firstMisfits(classes: AgentClasses, lead: FitLead, ctx: FitContext): Int8Array {
  const verdicts = classes.members.map((m, k) => {
    const kept = classes.leadVerdicts[k];
    if (kept === null) return new Uint8Array(m.length);
    const key = kept.fields.map((f) => lead[f]).join('\u0001');
    let v = kept.byKey.get(key);
    if (!v) {
      if (kept.byKey.size >= KEPT_LEAD_KEYS) kept.byKey.clear();
      v = new Uint8Array(m.length);
      kept.byKey.set(key, v);
    }
    return v;
  });
  /** the first condition in [from, to) agent `i` fails, its reason; -1: it passes them all */
  const firstFailed = (i: number, from: number, to: number): number => {
    for (let k = from; k < to; k++) {
      const c = classes.classOf[k][i];
      let verdict = verdicts[k][c];
      if (verdict === UNASKED) {
        verdict = CONDITIONS[k].holds(classes.members[k][c], ctx, lead) ? HOLDS : FAILS;
        verdicts[k][c] = verdict;
      }
      if (verdict === FAILS) return CONDITIONS[k].reason;
    }
    return -1;
  };
  // the agent conditions, once per kind (asked of the kind's first agent)
  const kindReason = classes.kinds.map((i) => firstFailed(i, 0, AGENT_CONDITION_COUNT));
  const out = new Int8Array(classes.agents.length);
  for (let i = 0; i < out.length; i++) {
    const reason = kindReason[classes.kindOf[i]];
    out[i] = reason >= 0 ? reason : firstFailed(i, AGENT_CONDITION_COUNT, CONDITIONS.length);
  }
  return out;
}
