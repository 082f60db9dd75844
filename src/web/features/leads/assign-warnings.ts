import type { AdminAgent } from '../../../shared/contracts/admin';
import type { MisfitReason } from '../../../shared/contracts/explanation';
import type { Lead } from '../../../shared/contracts/leads';
import { categoryLabel, subscriptionStatusLabel } from '../../../shared/format';

/**
 * Why the chosen agent may be the wrong one for this lead: every condition of the fit rule the
 * agent fails (the server's answer, docs/domain.md "The fit rule"), in words for the admin, who
 * may still go on (a manual assignment is their call).
 */
export function assignWarnings(
  agent: AdminAgent,
  lead: Pick<Lead, 'category' | 'state' | 'city' | 'age'>,
  reasons: MisfitReason[],
): string[] {
  if (reasons.includes('DISABLED')) return [`${agent.name}'s account is disabled.`];
  const subscription = agent.subscription;
  if (!subscription) {
    return reasons.length > 0 ? [`${agent.name} has no subscription.`] : [];
  }
  const pkg = subscription.package;
  const words: Record<MisfitReason, () => string | null> = {
    DISABLED: () => `${agent.name}'s account is disabled.`,
    NOT_APPROVED: () => `${agent.name}'s account is not approved.`,
    NOT_ACTIVE: () =>
      `${agent.name}'s subscription is ${subscriptionStatusLabel(subscription.status).toLowerCase()}.`,
    PAUSED: () => pausedWords(agent),
    OUTSIDE_SCHEDULE: () => `${agent.name} is outside their schedule now.`,
    ENROLLMENT_WINDOW: () =>
      `${agent.name}'s package, ${pkg.name}, receives leads only in the ${categoryLabel(
        pkg.category,
      )} enrollment window, which is closed today.`,
    AGENCY_SUSPENDED: () => `${agent.name}'s agency is suspended.`,
    CATEGORY: () =>
      pkg.category !== lead.category
        ? `${agent.name}'s package, ${pkg.name}, is for ${categoryLabel(
            pkg.category,
          )} leads; this lead is ${categoryLabel(lead.category)}.`
        : `${agent.name}'s preferences leave out ${categoryLabel(lead.category)} leads.`,
    LICENCE: () => `${agent.name} is not licensed in ${lead.state}.`,
    STATE: () => `${agent.name}'s preferences leave out ${lead.state}.`,
    CITY: () => `${agent.name}'s preferences leave out ${lead.city}.`,
    AGE: () => `${agent.name}'s preferences leave out age ${lead.age}.`,
    QUOTA_FULL: () => null,
    // an admin may go over the agent's own caps, as over a quota
    WEEKLY_CAP: () => null,
    MONTHLY_CAP: () => null,
    BUDGET_SPENT: () => `${agent.name} has spent this month's budget for leads.`,
    BALANCE_TOO_LOW: () => `${agent.name}'s wallet balance does not cover this lead.`,
    AGENCY_CAP_FULL: () => `${agent.name}'s agency has reached its daily cap of leads today.`,
  };
  return reasons.map((r) => words[r]()).filter((w): w is string => w !== null);
}

const pauseDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function pausedWords(agent: AdminAgent): string {
  const until = agent.pause?.until;
  return until
    ? `${agent.name} is paused until ${pauseDay.format(new Date(`${until}T12:00:00Z`))}.`
    : `${agent.name} is paused until they resume.`;
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
