import type { AdminAgent } from '../../../shared/contracts/admin';
import type { LeadCategory } from '../../../shared/domain';
import { categoryLabel, subscriptionStatusLabel } from '../../../shared/format';

/**
 * Why the chosen agent may be the wrong one for this lead: no ACTIVE subscription (the engine
 * would give them nothing: docs/domain.md, Assignment), or a package of another category than
 * the lead's. Words for the admin, who may still go on (a manual assignment is their call).
 */
export function assignWarnings(
  agent: AdminAgent,
  lead: { category: LeadCategory; state?: string },
): string[] {
  const subscription = agent.subscription;
  if (!subscription) return [`${agent.name} has no subscription.`];
  const warnings: string[] = [...availabilityWarnings(agent, lead)];
  if (subscription.status !== 'ACTIVE') {
    warnings.push(
      `${agent.name}'s subscription is ${subscriptionStatusLabel(subscription.status).toLowerCase()}.`,
    );
  }
  if (subscription.package.category !== lead.category) {
    warnings.push(
      `${agent.name}'s package, ${subscription.package.name}, is for ${categoryLabel(
        subscription.package.category,
      )} leads; this lead is ${categoryLabel(lead.category)}.`,
    );
  }
  return warnings;
}

const pauseDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * docs/domain.md, Pause and Licensed states: a paused agent (the engine gives them nothing) and a lead outside the agent's licence.
 * The admin may still assign: a manual assignment is their call.
 */
function availabilityWarnings(agent: AdminAgent, lead: { state?: string }): string[] {
  const out: string[] = [];
  if (agent.pause) {
    out.push(
      agent.pause.until
        ? `${agent.name} is paused until ${pauseDay.format(new Date(`${agent.pause.until}T12:00:00Z`))}.`
        : `${agent.name} is paused until they resume.`,
    );
  }
  const licensed = agent.licensedStates ?? [];
  if (lead.state && licensed.length > 0 && !licensed.includes(lead.state)) {
    out.push(`${agent.name} is not licensed in ${lead.state}.`);
  }
  return out;
}

/** An agent's line in the Select Agent list: category and quota, or why there is no quota. */
export function agentOptionDetail(agent: AdminAgent): string {
  const subscription = agent.subscription;
  if (!subscription) return 'no subscription';
  const category = categoryLabel(subscription.package.category);
  if (subscription.status !== 'ACTIVE') {
    return `${category} · subscription ${subscriptionStatusLabel(subscription.status).toLowerCase()}`;
  }
  const quota = agent.todayQuota ?? { assigned: 0, limit: subscription.package.leadsPerDay };
  return `${category} · ${quota.assigned} / ${quota.limit} today`;
}
