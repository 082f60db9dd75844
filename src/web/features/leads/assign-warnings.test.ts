import { describe, expect, it } from 'vitest';
import type { AdminAgent } from '../../../shared/contracts/admin';
import { agentOptionDetail, assignWarnings } from './assign-warnings';

const agent = (over: Partial<AdminAgent> = {}): AdminAgent => ({
  id: 1,
  name: 'Eva Brooks',
  email: 'eva@example.com',
  totalLeads: 3,
  convertedLeads: 1,
  todayQuota: { assigned: 2, limit: 5 },
  subscription: {
    id: 9,
    status: 'ACTIVE',
    package: {
      name: 'Medicare Starter',
      priceMonthlyCents: 19_900,
      category: 'MEDICARE',
      leadsPerDay: 5,
    },
  },
  ...over,
});
const withStatus = (status: 'ACTIVE' | 'PAST_DUE' | 'CANCELED' | 'INACTIVE') => {
  const base = agent();
  return agent({ subscription: { ...base.subscription!, status } });
};

describe('assign warnings', () => {
  it('none for an active agent of the lead category', () => {
    expect(assignWarnings(agent(), { category: 'MEDICARE' })).toEqual([]);
  });

  it('warn about an agent without a subscription', () => {
    expect(
      assignWarnings(agent({ subscription: null, todayQuota: null }), { category: 'ACA' }),
    ).toEqual(['Eva Brooks has no subscription.']);
  });

  it('warn about a subscription that is not active, in words', () => {
    expect(assignWarnings(withStatus('PAST_DUE'), { category: 'MEDICARE' })).toEqual([
      "Eva Brooks's subscription is past due.",
    ]);
    expect(assignWarnings(withStatus('CANCELED'), { category: 'MEDICARE' })).toEqual([
      "Eva Brooks's subscription is canceled.",
    ]);
  });

  it('warn about a package of another category, and both at once', () => {
    expect(assignWarnings(agent(), { category: 'FINAL_EXPENSE' })).toEqual([
      "Eva Brooks's package, Medicare Starter, is for MEDICARE leads; this lead is FINAL EXPENSE.",
    ]);
    expect(assignWarnings(withStatus('INACTIVE'), { category: 'ACA' })).toHaveLength(2);
  });
});

describe('the agent list', () => {
  it('shows category and quota, or why there is none', () => {
    expect(agentOptionDetail(agent())).toBe('MEDICARE · 2 / 5 today');
    expect(agentOptionDetail(withStatus('PAST_DUE'))).toBe('MEDICARE · subscription past due');
    expect(agentOptionDetail(agent({ subscription: null, todayQuota: null }))).toBe(
      'no subscription',
    );
  });

  it('warn about a paused agent and a lead outside the licence (docs/domain.md, Pause, Licensed states)', () => {
    expect(
      assignWarnings(agent({ pause: { since: '2026-11-20T12:00:00Z', until: '2026-12-01' } }), {
        category: 'MEDICARE',
        state: 'TX',
      }),
    ).toEqual(['Eva Brooks is paused until Dec 1.']);
    expect(
      assignWarnings(agent({ pause: { since: '2026-11-20T12:00:00Z', until: null } }), {
        category: 'MEDICARE',
      }),
    ).toEqual(['Eva Brooks is paused until they resume.']);
    expect(
      assignWarnings(agent({ licensedStates: ['FL', 'GA'] }), {
        category: 'MEDICARE',
        state: 'TX',
      }),
    ).toEqual(['Eva Brooks is not licensed in TX.']);
    expect(
      assignWarnings(agent({ licensedStates: ['TX'] }), { category: 'MEDICARE', state: 'TX' }),
    ).toEqual([]);
  });
});
