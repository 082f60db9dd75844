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
  LEAD_CONDITIONS,
  type LeadReadyAgent,
} from './fit-rule.service';

type Check = (a: LeadReadyAgent, ctx: FitContext, lead: FitLead) => boolean;

/** The conditions in the rule's order, capacity aside: each with its reason and what it reads. */
const CONDITIONS: { reason: number; fields: (keyof LeadReadyAgent)[]; holds: Check }[] = [
  ...Object.entries(AGENT_CONDITIONS).map(([reason, holds]) => ({
    reason: MISFIT_REASONS.indexOf(reason as never),
    fields: AGENT_CONDITION_FIELDS[reason as keyof typeof AGENT_CONDITIONS],
    holds: ((a, ctx) => holds(a, ctx)) as Check,
  })),
  ...Object.entries(LEAD_CONDITIONS).map(([reason, holds]) => ({
    reason: MISFIT_REASONS.indexOf(reason as never),
    fields: LEAD_CONDITION_AGENT_FIELDS[reason as keyof typeof LEAD_CONDITIONS],
    holds: ((a, _ctx, lead) => holds(a, lead)) as Check,
  })),
];

/** Agents, in their order, with their class for each condition. */
export interface AgentClasses {
  agents: LeadReadyAgent[];
  /** per condition, one agent of each class */
  members: LeadReadyAgent[][];
  /** per condition, each agent's class (an index into members) */
  classOf: Int32Array[];
}

export function agentClasses(agents: LeadReadyAgent[]): AgentClasses {
  const members: LeadReadyAgent[][] = [];
  const classOf: Int32Array[] = [];
  for (const { fields } of CONDITIONS) {
    const byKey = new Map<string, number>();
    const first: LeadReadyAgent[] = [];
    const of = new Int32Array(agents.length);
    agents.forEach((a, i) => {
      const key = JSON.stringify(fields.map((f) => a[f]));
      let c = byKey.get(key);
      if (c === undefined) {
        c = first.length;
        byKey.set(key, c);
        first.push(a);
      }
      of[i] = c;
    });
    members.push(first);
    classOf.push(of);
  }
  return { agents, members, classOf };
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
  const verdicts = classes.members.map((m) => new Uint8Array(m.length));
  const out = new Int8Array(classes.agents.length).fill(-1);
  for (let i = 0; i < out.length; i++) {
    for (let k = 0; k < CONDITIONS.length; k++) {
      const c = classes.classOf[k][i];
      let verdict = verdicts[k][c];
      if (verdict === UNASKED) {
        verdict = CONDITIONS[k].holds(classes.members[k][c], ctx, lead) ? HOLDS : FAILS;
        verdicts[k][c] = verdict;
      }
      if (verdict === FAILS) {
        out[i] = CONDITIONS[k].reason;
        break;
      }
    }
  }
  return out;
}
